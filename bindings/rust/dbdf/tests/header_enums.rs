//! The crate's enums against the C header: each enum of `capi/include/dbdf.h` that the crate mirrors has exactly
//! the crate's variants, with the same names and codes; none is missing on either side. The header is read as text,
//! apart from bindgen, whose constants cannot be listed at run time and so cannot reveal a missing variant.

use std::collections::BTreeMap;
use std::path::PathBuf;

use dbdf::{BlockType, DataType, Dialect, Encoding, Status, ValueType};

/// `DBDF_HEADER` (CMake sets it), else the repository's `capi/include/dbdf.h`.
fn header_path() -> PathBuf {
    match std::env::var_os("DBDF_HEADER") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../capi/include/dbdf.h"),
    }
}

/// The header without its comments (which may hold commas, braces and enum names).
fn header_without_comments() -> String {
    let path = header_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let mut code = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find('/') {
        code.push_str(&rest[..start]);
        let after = &rest[start..];
        if let Some(comment) = after.strip_prefix("/*") {
            let end = comment.find("*/").expect("a block comment of dbdf.h is not closed");
            rest = &comment[end + 2..];
            code.push(' ');
        } else if after.starts_with("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else {
            code.push('/');
            rest = &after[1..];
        }
    }
    code.push_str(rest);
    code
}

/// The enumerators of `typedef enum ... { ... } <typedef_name>;` by name, each with its explicit value.
fn header_enum(typedef_name: &str) -> BTreeMap<String, i64> {
    let code = header_without_comments();
    let closing = format!("}} {typedef_name};");
    let end = code.find(&closing).unwrap_or_else(|| panic!("dbdf.h declares no enum ending in '{closing}'"));
    let start = code[..end].rfind('{').expect("the enum's opening brace") + 1;
    let mut enumerators = BTreeMap::new();
    for entry in code[start..end].split(',').map(str::trim).filter(|entry| !entry.is_empty()) {
        let (name, value) = entry
            .split_once('=')
            .unwrap_or_else(|| panic!("{typedef_name}: enumerator '{entry}' has no explicit value"));
        let value: i64 =
            value.trim().parse().unwrap_or_else(|_| panic!("{typedef_name}: value of '{entry}' is not a number"));
        assert!(enumerators.insert(name.trim().to_string(), value).is_none(), "{typedef_name}: {name} twice");
    }
    enumerators
}

/// `DBDF_<prefix><NAME>` for a variant's Debug name: `AsGiven` -> `DBDF_ENCODING_AS_GIVEN`.
fn c_name(prefix: &str, variant: &impl std::fmt::Debug) -> String {
    let mut name = format!("DBDF_{prefix}");
    for (index, letter) in format!("{variant:?}").chars().enumerate() {
        if letter.is_ascii_uppercase() && index > 0 && !name.ends_with(|last: char| last.is_ascii_digit()) {
            name.push('_');
        }
        name.push(letter.to_ascii_uppercase());
    }
    name
}

fn crate_enum<T: std::fmt::Debug>(prefix: &str, variants: &[T], code: impl Fn(&T) -> i64) -> BTreeMap<String, i64> {
    variants.iter().map(|variant| (c_name(prefix, variant), code(variant))).collect()
}

#[test]
fn c_names_follow_the_header_spelling() {
    assert_eq!(c_name("ENCODING_", &Encoding::AsGiven), "DBDF_ENCODING_AS_GIVEN");
    assert_eq!(c_name("VALUE_", &ValueType::U16), "DBDF_VALUE_U16");
    assert_eq!(c_name("ERR_", &Status::BufferTooSmall), "DBDF_ERR_BUFFER_TOO_SMALL");
}

#[test]
fn value_types() {
    let mut header = header_enum("dbdf_value_type_t");
    // The crate has no variant for "no single value type": it is the None of Option<ValueType>.
    assert_eq!(header.remove("DBDF_VALUE_NONE"), Some(0));
    assert_eq!(ValueType::from_code(0), None);
    assert_eq!(header, crate_enum("VALUE_", &ValueType::ALL, |value_type| i64::from(value_type.code())));
    for value_type in ValueType::ALL {
        assert_eq!(ValueType::from_code(value_type.code()), Some(value_type));
    }
}

#[test]
fn data_types() {
    // Matched without a wildcard, so that a variant added to the crate fails to compile until it is listed here.
    let all = [DataType::Dense, DataType::Csr, DataType::Frame, DataType::Scalar];
    for data_type in all {
        match data_type {
            DataType::Dense | DataType::Csr | DataType::Frame | DataType::Scalar => {}
        }
    }
    assert_eq!(header_enum("dbdf_data_type_t"), crate_enum("DATA_", &all, |data_type| *data_type as i64));
}

#[test]
fn block_types() {
    let all = [BlockType::Empty, BlockType::Dense, BlockType::Csr, BlockType::Coo];
    for block_type in all {
        match block_type {
            BlockType::Empty | BlockType::Dense | BlockType::Csr | BlockType::Coo => {}
        }
    }
    assert_eq!(header_enum("dbdf_block_type_t"), crate_enum("BLOCK_", &all, |block_type| *block_type as i64));
}

#[test]
fn encodings() {
    let all = [Encoding::Auto, Encoding::AsGiven, Encoding::Dense, Encoding::Csr, Encoding::Coo];
    for encoding in all {
        match encoding {
            Encoding::Auto | Encoding::AsGiven | Encoding::Dense | Encoding::Csr | Encoding::Coo => {}
        }
    }
    assert_eq!(header_enum("dbdf_encoding_t"), crate_enum("ENCODING_", &all, |encoding| *encoding as i64));
}

#[test]
fn dialects() {
    let all = [Dialect::Spec, Dialect::Daphne];
    for dialect in all {
        match dialect {
            Dialect::Spec | Dialect::Daphne => {}
        }
    }
    assert_eq!(header_enum("dbdf_dialect_t"), crate_enum("DIALECT_", &all, |dialect| *dialect as i64));
}

#[test]
fn error_statuses() {
    use Status::*;
    // Status holds the failures only: DBDF_OK and DBDF_END_OF_BLOCKS are results, not errors.
    let all =
        [InvalidArgument, CallOrder, BufferTooSmall, Io, Truncated, Format, Range, NoMem, Unsupported, Internal, Sink];
    for status in all {
        match status {
            InvalidArgument | CallOrder | BufferTooSmall | Io | Truncated | Format | Range | NoMem | Unsupported
            | Internal | Sink | Unknown(_) => {}
        }
    }
    let mut header = header_enum("dbdf_status_t");
    assert_eq!(header.remove("DBDF_OK"), Some(0));
    assert_eq!(header.remove("DBDF_END_OF_BLOCKS"), Some(1));
    // The header spells "no memory" NOMEM.
    let mut expected = crate_enum("ERR_", &all, |status| i64::from(status.code()));
    let no_memory = expected.remove("DBDF_ERR_NO_MEM").expect("NoMem is listed");
    expected.insert("DBDF_ERR_NOMEM".to_string(), no_memory);
    assert_eq!(header, expected);
}
