//! The daphne dialect against the files DAPHNE's runtime wrote (tests/vectors/daphne-runtime, described by its
//! corpus.json): every file read with its values from a file and from memory, the refusals with their status, and
//! the daphne writers (file, memory, sink) reproducing every reproducible file byte for byte, .meta sidecars
//! included.

mod common;

use std::path::{Path, PathBuf};

use common::{scratch_dir, value_type_named, vectors_dir};
use dbdf::{
    BlockPlacement, DataType, Dialect, FrameColumn, PayloadLayout, Reader, Status, ValueType, WriteOptions, Writer,
    WriterOptions,
};
use serde_json::Value as Json;

fn corpus_dir() -> PathBuf {
    vectors_dir().join("daphne-runtime")
}

fn corpus_entries() -> Vec<Json> {
    let path = corpus_dir().join("corpus.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let corpus: Json = serde_json::from_str(&text).expect("corpus.json is JSON");
    corpus["files"].as_array().expect("corpus.json lists its files").clone()
}

fn entry_named(name: &str) -> Json {
    corpus_entries().into_iter().find(|entry| entry["file"] == name).unwrap_or_else(|| panic!("{name} in corpus.json"))
}

fn corpus_bytes(name: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn corpus_text(name: &str) -> String {
    String::from_utf8(corpus_bytes(name)).expect("a .meta file is text")
}

fn text<'a>(entry: &'a Json, key: &str) -> &'a str {
    entry[key].as_str().unwrap_or_else(|| panic!("{key} of {entry}"))
}

fn number(entry: &Json, key: &str) -> u64 {
    entry[key].as_u64().unwrap_or_else(|| panic!("{key} of {entry}"))
}

/// A value of a Rust type from a JSON number of corpus.json, which must fit exactly.
trait FromJson: Sized {
    fn from_json(number: &Json) -> Self;
}

macro_rules! integers_from_json {
    ($($rust:ty),*) => {$(
        impl FromJson for $rust {
            fn from_json(number: &Json) -> Self {
                let fitted = match number.as_u64() {
                    Some(unsigned) => <$rust>::try_from(unsigned).ok(),
                    None => number.as_i64().and_then(|signed| <$rust>::try_from(signed).ok()),
                };
                fitted.unwrap_or_else(|| panic!("{number} is not a {}", stringify!($rust)))
            }
        }
    )*};
}
integers_from_json!(u8, u16, u32, u64, i8, i16, i32, i64);

/// A float's bits from a "0x..." string of `digits` hex digits: corpus.json writes a float so when a JSON number
/// cannot hold it (NaN payloads, infinities, -0.0).
fn float_bits(cell: &Json, digits: usize) -> Option<u64> {
    let text = cell.as_str()?;
    let hex = text.strip_prefix("0x").unwrap_or_else(|| panic!("{text} is not a bit pattern"));
    assert_eq!(hex.len(), digits, "{text} has {digits} hex digits");
    Some(u64::from_str_radix(hex, 16).unwrap_or_else(|error| panic!("{text}: {error}")))
}

impl FromJson for f64 {
    fn from_json(number: &Json) -> Self {
        if let Some(bits) = float_bits(number, 16) {
            return f64::from_bits(bits);
        }
        number.as_f64().unwrap_or_else(|| panic!("{number} is not a number"))
    }
}

impl FromJson for f32 {
    fn from_json(number: &Json) -> Self {
        if let Some(bits) = float_bits(number, 8) {
            return f32::from_bits(u32::try_from(bits).expect("8 hex digits"));
        }
        let wide = f64::from_json(number);
        let narrow = wide as f32;
        assert_eq!(f64::from(narrow), wide, "{number} is not exactly an f32");
        narrow
    }
}

/// Values as bit patterns, so that NaN payloads and -0.0 compare as the values they are.
trait ToBits: Copy {
    fn to_bits_u64(self) -> u64;
}

macro_rules! integer_bits {
    ($($rust:ty),*) => {$(
        impl ToBits for $rust {
            fn to_bits_u64(self) -> u64 {
                self as u64
            }
        }
    )*};
}
integer_bits!(u8, u16, u32, u64, i8, i16, i32, i64);

impl ToBits for f32 {
    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl ToBits for f64 {
    fn to_bits_u64(self) -> u64 {
        self.to_bits()
    }
}

fn bits<T: ToBits>(values: &[T]) -> Vec<u64> {
    values.iter().map(|value| value.to_bits_u64()).collect()
}

/// A JSON array of numbers as values of `T`.
fn json_values<T: FromJson>(array: &Json) -> Vec<T> {
    array.as_array().unwrap_or_else(|| panic!("{array} is not an array")).iter().map(T::from_json).collect()
}

fn daphne() -> WriterOptions {
    WriterOptions::new().dialect(Dialect::Daphne)
}

/// The status named by corpus.json's "refused".
fn refusal_status(entry: &Json) -> Status {
    match text(entry, "refused") {
        "unsupported" => Status::Unsupported,
        "truncated" => Status::Truncated,
        other => panic!("unknown refusal {other:?}"),
    }
}

#[test]
fn every_corpus_file_reads_as_corpus_json_says_from_a_file_and_from_memory() {
    let mut checked = 0;
    for entry in corpus_entries() {
        let name = text(&entry, "file");
        let path = corpus_dir().join(name);
        let bytes = corpus_bytes(name);
        if entry.get("refused").is_some() {
            for result in [
                Reader::open_with(&path, Dialect::Daphne).err(),
                Reader::from_bytes_with(&bytes, Dialect::Daphne).err(),
            ] {
                let error = result.unwrap_or_else(|| panic!("{name}: expected a refusal"));
                assert_eq!(error.status(), refusal_status(&entry), "{name}: {error}");
            }
        } else {
            let mut reader =
                Reader::open_with(&path, Dialect::Daphne).unwrap_or_else(|error| panic!("{name}: {error}"));
            check_object(&mut reader, &entry);
            let mut reader = Reader::from_bytes_with(&bytes, Dialect::Daphne).unwrap();
            check_object(&mut reader, &entry);
        }
        checked += 1;
    }
    assert_eq!(checked, 48, "files described by corpus.json");
}

fn check_object(reader: &mut Reader<'_>, entry: &Json) {
    let name = text(entry, "file");
    let info = reader.info().unwrap();
    assert_eq!(reader.dialect().unwrap(), Dialect::Daphne, "{name}");
    assert_eq!(info.data_type.name(), text(entry, "data_type"), "{name}");
    assert_eq!((info.rows, info.cols), (number(entry, "rows"), number(entry, "cols")), "{name}");
    reader.validate().unwrap_or_else(|error| panic!("{name}: {error}"));
    match info.data_type {
        DataType::Frame => check_frame(reader, entry),
        DataType::Csr => check_csr(reader, entry),
        DataType::Dense | DataType::Scalar => {
            assert!(reader.labels_recoverable().unwrap(), "{name}: a matrix has no labels to lose");
            let value_type = value_type_named(text(entry, "value_type"));
            assert_eq!(info.value_type, Some(value_type), "{name}");
            with_value_type!(value_type, T => {
                assert_eq!(bits(&reader.read_dense::<T>().unwrap()), bits(&json_values::<T>(&entry["values"])), "{name}");
            });
            assert_eq!(reader.build_index().unwrap(), 1, "{name}: one block covers a matrix or a scalar");
            reader.rewind().unwrap();
            let block = reader.next_block().unwrap().expect("one block");
            assert_eq!(block.payload_layout().unwrap(), PayloadLayout::Spec, "{name}");
        }
    }
}

fn check_csr(reader: &mut Reader<'_>, entry: &Json) {
    let name = text(entry, "file");
    let value_type = value_type_named(text(entry, "value_type"));
    with_value_type!(value_type, T => {
        let csr = reader.read_csr::<T>().unwrap();
        assert_eq!(csr.row_offsets, json_values::<u64>(&entry["row_offsets"]), "{name}");
        assert_eq!(csr.col_indices, json_values::<u64>(&entry["col_indices"]), "{name}");
        assert_eq!(bits(&csr.values), bits(&json_values::<T>(&entry["values"])), "{name}");
    });
    assert_eq!(reader.build_index().unwrap(), 1, "{name}");
    reader.rewind().unwrap();
    let block = reader.next_block().unwrap().expect("one block");
    assert_eq!(block.payload_layout().unwrap(), PayloadLayout::DaphneCsr, "{name}");
    // The payload is the runtime's three arrays: rowOffsets, colIdxs, values.
    let rows = number(entry, "rows") as usize;
    let entries = json_values::<u64>(&entry["col_indices"]).len();
    assert_eq!(block.payload().unwrap().len(), 8 * (rows + 1) + entries * (8 + value_type.size()), "{name}");
}

fn check_frame(reader: &mut Reader<'_>, entry: &Json) {
    let name = text(entry, "file");
    assert_eq!(reader.labels_recoverable().unwrap(), entry["labels_recoverable"].as_bool().unwrap(), "{name}");
    let columns = entry["columns"].as_array().expect("frame columns");
    let mut row_width = 0;
    for (index, column) in columns.iter().enumerate() {
        let value_type = value_type_named(text(column, "value_type"));
        row_width += value_type.size() as u64;
        assert_eq!(reader.column_type(index as u64).unwrap(), value_type, "{name} column {index}");
        assert_eq!(reader.column_label(index as u64).unwrap(), text(column, "label"), "{name} column {index}");
        assert_eq!(reader.column_label(index as u64).unwrap(), format!("col_{index}"), "{name} column {index}");
        with_value_type!(value_type, T => {
            assert_eq!(
                bits(&reader.read_column::<T>(index as u64).unwrap()),
                bits(&json_values::<T>(&column["values"])),
                "{name}"
            );
        });
    }
    // One block per column, whose values lie a frame row apart; a frame without rows has no cells, so no blocks.
    let blocks = if number(entry, "rows") == 0 { 0 } else { columns.len() as u64 };
    assert_eq!(reader.build_index().unwrap(), blocks, "{name}");
    reader.rewind().unwrap();
    while let Some(block) = reader.next_block().unwrap() {
        let layout = block.payload_layout().unwrap();
        assert_eq!(layout, PayloadLayout::StridedColumn { value_stride: row_width }, "{name}");
    }
}

/// corpus.json's "invalid" files open, but reading their values fails with the status it names, and validation finds
/// exactly the violation it names (rule and byte offset).
#[test]
fn invalid_files_are_refused_with_their_rule() {
    let corpus: Json =
        serde_json::from_str(&std::fs::read_to_string(corpus_dir().join("corpus.json")).unwrap()).unwrap();
    let invalid = corpus["invalid"].as_array().expect("corpus.json lists its invalid files");
    assert_eq!(invalid.len(), 1);
    for entry in invalid {
        let name = text(entry, "file");
        assert_eq!(text(entry, "status"), "format", "{name}");
        let bytes = corpus_bytes(name);
        for mut reader in [
            Reader::open_with(corpus_dir().join(name), Dialect::Daphne).unwrap(),
            Reader::from_bytes_with(&bytes, Dialect::Daphne).unwrap(),
        ] {
            let error = reader.read_dense::<f64>().unwrap_err();
            assert_eq!(error.status(), Status::Format, "{name}: {error}");
            let violations = reader.violations().unwrap();
            assert_eq!(violations.len(), 1, "{name}: {violations:?}");
            assert_eq!(i64::from(violations[0].rule), entry["rule"].as_i64().unwrap(), "{name}");
            assert_eq!(violations[0].offset, number(entry, "offset"), "{name}");
        }
    }
}

#[test]
fn string_data_is_refused_with_the_reason() {
    let matrix = Reader::open_with(corpus_dir().join("dense_str_2x2.dbdf"), Dialect::Daphne).unwrap_err();
    assert_eq!(matrix.status(), Status::Unsupported);
    assert!(matrix.message().contains("std::string") && matrix.message().contains("cannot be recovered"), "{matrix}");
    let frame = Reader::from_bytes_with(&corpus_bytes("frame_strcol_partial.dbdf"), Dialect::Daphne).unwrap_err();
    assert_eq!(frame.status(), Status::Truncated);
    assert!(frame.message().contains("STR") && frame.message().contains("truncated"), "{frame}");
}

#[test]
fn the_spec_dialect_does_not_read_the_runtime_files() {
    for name in ["dense_f64_3x4.dbdf", "csr_f64_6x5.dbdf", "frame_mixed.dbdf", "value_f64_serialized.bin"] {
        let path = corpus_dir().join(name);
        let refused = match Reader::open(&path) {
            Err(_) => true,
            Ok(mut reader) => {
                assert_eq!(reader.dialect().unwrap(), Dialect::Spec, "{name}");
                reader.validate().is_err()
            }
        };
        assert!(refused, "{name} read in the spec dialect");
    }
}

/// Writes `entry`'s matrix or scalar in the daphne dialect through `writer`; the caller finishes. A scalar's value
/// is given as a 1 x 1 matrix's.
fn write_matrix(writer: &mut Writer<'_>, entry: &Json) {
    let data_type = match text(entry, "data_type") {
        "csr" => DataType::Csr,
        "scalar" => DataType::Scalar,
        _ => DataType::Dense,
    };
    let value_type = value_type_named(text(entry, "value_type"));
    writer.begin_matrix(data_type, value_type, number(entry, "rows"), number(entry, "cols")).unwrap();
    with_value_type!(value_type, T => {
        let values = json_values::<T>(&entry["values"]);
        if data_type == DataType::Csr {
            let row_offsets = json_values::<u64>(&entry["row_offsets"]);
            let col_indices = json_values::<u64>(&entry["col_indices"]);
            writer.write_csr(&row_offsets, &col_indices, &values, &WriteOptions::new()).unwrap();
        } else if !values.is_empty() {
            writer.write_dense(&values, 0, &WriteOptions::new()).unwrap();
        }
    });
}

fn reproducible_matrices() -> Vec<Json> {
    let entries: Vec<Json> = corpus_entries()
        .into_iter()
        .filter(|entry| entry["reproducible"].as_bool() == Some(true))
        .filter(|entry| matches!(entry["data_type"].as_str(), Some("dense" | "csr" | "scalar")))
        .collect();
    assert_eq!(entries.len(), 41, "reproducible dense, CSR and scalar files");
    entries
}

#[test]
fn memory_and_sink_writers_reproduce_every_reproducible_matrix_byte_for_byte() {
    for entry in reproducible_matrices() {
        let name = text(&entry, "file");
        let expected = corpus_bytes(name);

        let mut writer = Writer::in_memory_with(&daphne()).unwrap();
        assert_eq!(writer.dialect().unwrap(), Dialect::Daphne);
        write_matrix(&mut writer, &entry);
        writer.finish().unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(writer.memory().unwrap(), expected.as_slice(), "{name} from the memory writer");

        let mut output = Vec::new();
        let mut writer = Writer::to_sink_with(&mut output, &daphne()).unwrap();
        write_matrix(&mut writer, &entry);
        writer.finish().unwrap();
        drop(writer);
        assert_eq!(output, expected, "{name} from the sink writer");
    }
}

#[test]
fn file_writers_reproduce_every_reproducible_matrix_and_its_meta_sidecar() {
    let dir = scratch_dir("dialect-files");
    let mut sidecars = 0;
    for entry in reproducible_matrices() {
        let name = text(&entry, "file");
        let path = dir.join(name);
        let mut writer = Writer::create_with(&path, &daphne()).unwrap();
        write_matrix(&mut writer, &entry);
        writer.finish().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), corpus_bytes(name), "{name}");
        if entry["data_type"] == "scalar" {
            // The runtime writes no sidecar for a scalar, so there is none to write.
            assert!(!meta_path(&path).exists(), "{name}.meta");
            continue;
        }
        // Every matrix gets a sidecar; those the runtime wrote too must be identical.
        let meta = std::fs::read_to_string(meta_path(&path)).unwrap_or_else(|error| panic!("{name}.meta: {error}"));
        if let Some(corpus_meta) = entry["meta"].as_str() {
            assert_eq!(meta, corpus_text(corpus_meta), "{name}");
            sidecars += 1;
        }
    }
    assert_eq!(sidecars, 11, "corpus files with a .meta sidecar");
    std::fs::remove_dir_all(dir).unwrap();
}

fn meta_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".meta");
    PathBuf::from(name)
}

#[test]
fn the_meta_sidecar_follows_the_options_and_the_object() {
    let dir = scratch_dir("dialect-meta");
    let csr = entry_named("csr_f64_6x5.dbdf");
    let write_csr_file = |path: &Path, options: &WriterOptions| {
        let mut writer = Writer::create_with(path, options).unwrap();
        write_matrix(&mut writer, &csr);
        writer.finish().unwrap();
    };

    let with_meta = dir.join("with_meta.dbdf");
    write_csr_file(&with_meta, &daphne());
    assert_eq!(
        std::fs::read_to_string(meta_path(&with_meta)).unwrap(),
        r#"{"numCols":5,"numNonZeros":7,"numRows":6,"valueType":"f64"}"#
    );
    let without_meta = dir.join("without_meta.dbdf");
    write_csr_file(&without_meta, &daphne().write_meta(false));
    assert_eq!(std::fs::read(&without_meta).unwrap(), corpus_bytes("csr_f64_6x5.dbdf"));
    assert!(!meta_path(&without_meta).exists(), "write_meta(false) wrote a sidecar");
    // write_meta is ignored in the spec dialect: DaphneDSL could not read the file anyway.
    let spec_path = dir.join("spec.dbdf");
    let mut spec = Writer::create_with(&spec_path, &WriterOptions::new().write_meta(true)).unwrap();
    assert_eq!(spec.dialect().unwrap(), Dialect::Spec);
    write_matrix(&mut spec, &csr);
    spec.finish().unwrap();
    assert!(!meta_path(&spec_path).exists(), "a spec file got a sidecar");

    let frame_path = dir.join("frame.dbdf");
    let mut frame = Writer::create_with(&frame_path, &daphne()).unwrap();
    frame
        .begin_frame(2, &[FrameColumn::new("id", ValueType::I64), FrameColumn::new("say \"hi\"", ValueType::F32)])
        .unwrap();
    frame.write_column(0, &[1i64, 2], &WriteOptions::new()).unwrap();
    frame.write_column(1, &[0.5f32, -1.0], &WriteOptions::new()).unwrap();
    frame.finish().unwrap();
    assert_eq!(
        std::fs::read_to_string(meta_path(&frame_path)).unwrap(),
        r#"{"numCols":2,"numRows":2,"schema":[{"label":"id","valueType":"si64"},{"label":"say \"hi\"","valueType":"f32"}]}"#
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_frame_written_with_its_labels_is_the_runtimes_file_with_the_label_text_in_place() {
    let mut writer = Writer::in_memory_with(&daphne()).unwrap();
    let columns = [
        FrameColumn::new("id", ValueType::I64),
        FrameColumn::new("score", ValueType::F64),
        FrameColumn::new("w", ValueType::F32),
    ];
    writer.begin_frame(4, &columns).unwrap();
    writer.write_column(2, &[0.25f32, 0.5, 0.75, 1.0], &WriteOptions::new()).unwrap();
    writer.write_column(0, &[1000i64, 1001, 1002, 1003], &WriteOptions::new()).unwrap();
    writer.write_column(1, &[-1.0f64, 0.5, 2.0, 3.5], &WriteOptions::new()).unwrap();
    writer.finish().unwrap();

    // The runtime wrote memory bytes where the labels go (offsets 23-24, 27-31, 34); dbdf writes the text.
    let mut expected = corpus_bytes("frame_mixed.dbdf");
    expected[23..25].copy_from_slice(b"id");
    expected[27..32].copy_from_slice(b"score");
    expected[34..35].copy_from_slice(b"w");
    assert_eq!(writer.memory().unwrap(), expected.as_slice());

    // Read back in the daphne dialect, the labels are still DAPHNE's defaults: the dialect never trusts them.
    let mut reader = Reader::from_bytes_with(writer.memory().unwrap(), Dialect::Daphne).unwrap();
    assert!(!reader.labels_recoverable().unwrap());
    assert_eq!(reader.column_label(1).unwrap(), "col_1");
    assert_eq!(reader.read_column::<f64>(1).unwrap(), [-1.0, 0.5, 2.0, 3.5]);
}

#[test]
fn the_daphne_writer_refuses_what_the_runtime_cannot_express() {
    let mut sixteen_bits = Writer::in_memory_with(&daphne()).unwrap();
    let error = sixteen_bits.begin_matrix(DataType::Dense, ValueType::U16, 2, 2).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument);
    assert!(error.message().contains("u16"), "{error}");

    // A scalar is one value, and only the daphne dialect has scalars.
    let mut wide = Writer::in_memory_with(&daphne()).unwrap();
    let error = wide.begin_matrix(DataType::Scalar, ValueType::F64, 1, 2).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument, "{error}");
    let mut spec = Writer::in_memory().unwrap();
    let error = spec.begin_matrix(DataType::Scalar, ValueType::F64, 1, 1).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument, "{error}");
    assert!(error.message().contains("only in the daphne dialect"), "{error}");

    // A matrix is one block covering it: a partial block is refused, tile options are ignored.
    let mut partial = Writer::in_memory_with(&daphne()).unwrap();
    partial.begin_matrix(DataType::Dense, ValueType::F64, 4, 4).unwrap();
    let error = partial.add_dense(BlockPlacement::new(0, 0, 2, 2), &[1.0f64; 4], 0, &WriteOptions::new()).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument, "{error}");
    let mut tiled = Writer::in_memory_with(&daphne()).unwrap();
    tiled.begin_matrix(DataType::Dense, ValueType::F64, 4, 4).unwrap();
    tiled.write_dense(&[1.0f64; 16], 0, &WriteOptions::new().block_shape(2, 2)).unwrap();
    tiled.finish().unwrap();
    let mut reader = Reader::from_bytes_with(tiled.memory().unwrap(), Dialect::Daphne).unwrap();
    assert_eq!(reader.build_index().unwrap(), 1);
    assert_eq!(reader.read_dense::<f64>().unwrap(), [1.0; 16]);
}
