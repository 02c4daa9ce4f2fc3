//! Every golden file of tests/vectors, checked against what vectors.json says about it: header, frame columns,
//! blocks in file order (decoded as dense, CSR and COO, and their raw payloads), the whole object, the index, and
//! strict validation. Every invalid file must fail with its status, rule and byte offset at its step.

mod common;

use std::path::Path;

use common::{bits, dense_from_csr, value_type_named, vectors_dir, Cell};
use dbdf::{BlockType, DataType, Reader, Status, ValueType, Window};
use serde_json::Value as Json;

fn manifest() -> Json {
    let path = vectors_dir().join("vectors.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).expect("vectors.json is JSON")
}

fn entries(kind: &str) -> Vec<Json> {
    let entries = manifest()[kind].as_array().unwrap_or_else(|| panic!("vectors.json has no {kind:?} list")).clone();
    assert!(!entries.is_empty(), "no {kind} vectors");
    entries
}

fn text<'a>(entry: &'a Json, key: &str) -> &'a str {
    entry[key].as_str().unwrap_or_else(|| panic!("{key} of {entry}"))
}

fn number(entry: &Json, key: &str) -> u64 {
    entry[key].as_u64().unwrap_or_else(|| panic!("{key} of {entry}"))
}

fn optional_value_type(entry: &Json, key: &str) -> Option<ValueType> {
    entry[key].as_str().map(value_type_named)
}

/// The expected object: shape, the type of every column, and every cell as bits in its column's type.
struct Expected {
    rows: u64,
    cols: u64,
    column_types: Vec<ValueType>,
    cell_bits: Vec<u64>,
}

impl Expected {
    fn from_entry(entry: &Json) -> Expected {
        let rows = number(entry, "rows");
        let cols = number(entry, "cols");
        let column_types: Vec<ValueType> = match optional_value_type(entry, "value_type") {
            Some(value_type) => vec![value_type; cols as usize],
            None => entry["column_types"]
                .as_array()
                .expect("frame column types")
                .iter()
                .map(|name| value_type_named(name.as_str().expect("type name")))
                .collect(),
        };
        let cells = entry["values"].as_array().expect("values");
        assert_eq!(cells.len() as u64, rows, "rows of the values in vectors.json");
        let mut cell_bits = Vec::new();
        for row in cells {
            let row = row.as_array().expect("a row of values");
            assert_eq!(row.len() as u64, cols, "columns of a row in vectors.json");
            for (column, cell) in row.iter().enumerate() {
                let cell = cell.as_str().expect("cells are strings");
                cell_bits.push(with_value_type!(column_types[column], T => T::parse_cell(cell).bits()));
            }
        }
        Expected { rows, cols, column_types, cell_bits }
    }

    fn window(&self, window: Window) -> Vec<u64> {
        let mut selected = Vec::new();
        for row in window.row..window.row + window.rows {
            for col in window.col..window.col + window.cols {
                selected.push(self.cell_bits[(row * self.cols + col) as usize]);
            }
        }
        selected
    }
}

#[test]
fn every_valid_vector_reads_as_listed_from_file_and_from_memory() {
    for entry in entries("valid") {
        let path = vectors_dir().join(text(&entry, "file"));
        let expected = Expected::from_entry(&entry);
        let mut reader = Reader::open(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        check_object(&mut reader, &entry, &expected, &path);
        let bytes = std::fs::read(&path).expect("read the vector");
        let mut reader = Reader::from_bytes(&bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        check_object(&mut reader, &entry, &expected, &path);
    }
}

fn check_object(reader: &mut Reader<'_>, entry: &Json, expected: &Expected, path: &Path) {
    let file = path.display().to_string();
    let info = reader.info().unwrap();
    let data_type = text(entry, "data_type");
    assert_eq!(info.data_type.name(), data_type, "{file}");
    assert_eq!((info.rows, info.cols), (expected.rows, expected.cols), "{file}");
    assert_eq!(info.value_type, optional_value_type(entry, "value_type"), "{file}");
    assert_eq!(info.total_bytes, std::fs::metadata(path).unwrap().len(), "{file}");
    assert!(info.header_bytes >= 19 && info.header_bytes <= info.total_bytes, "{file}: header size");
    for (column, column_type) in expected.column_types.iter().enumerate() {
        assert_eq!(reader.column_type(column as u64).unwrap(), *column_type, "{file} column {column}");
    }
    if info.data_type == DataType::Frame {
        for (column, label) in entry["labels"].as_array().expect("labels").iter().enumerate() {
            let label = label.as_str().expect("label text");
            assert_eq!(reader.column_label(column as u64).unwrap(), label, "{file} label {column}");
            assert_eq!(reader.column_label_bytes(column as u64).unwrap(), label.as_bytes(), "{file} label {column}");
        }
    } else {
        assert_eq!(reader.column_label(0).map_err(|error| error.status()), Err(Status::InvalidArgument), "{file}");
    }

    let listed = entry["blocks"].as_array().expect("blocks");
    let mut seen = Vec::new();
    while let Some(mut block) = reader.next_block().unwrap_or_else(|error| panic!("{file}: {error}")) {
        let info = *block.info();
        let where_ = format!("{file} block {}", info.index);
        let listed = listed.get(seen.len()).unwrap_or_else(|| panic!("{where_}: more blocks than listed"));
        assert_eq!(info.index, seen.len() as u64, "{where_}");
        assert_eq!((info.row, info.col), (number(listed, "row"), number(listed, "col")), "{where_}");
        assert_eq!(
            (u64::from(info.rows), u64::from(info.cols)),
            (number(listed, "rows"), number(listed, "cols")),
            "{where_}"
        );
        assert_eq!(info.block_type.name(), text(listed, "block_type"), "{where_}");
        assert_eq!(info.value_type, optional_value_type(listed, "value_type"), "{where_}");
        assert_eq!(info.stored_values, number(listed, "stored_values"), "{where_}");
        check_block(&mut block, expected, &where_);
        seen.push(info);
    }
    assert_eq!(seen.len(), listed.len(), "{file}: number of blocks");
    assert!(reader.next_block().unwrap().is_none(), "{file}: stays past the end");

    // The header walk as an iterator gives the same blocks.
    reader.rewind().unwrap();
    let iterated: Vec<_> = reader.blocks().collect::<dbdf::Result<_>>().unwrap();
    assert_eq!(iterated, seen, "{file}: blocks()");

    // The index gives the same blocks, by number.
    assert_eq!(reader.build_index().unwrap(), seen.len() as u64, "{file}: index");
    for (index, info) in seen.iter().enumerate() {
        assert_eq!(reader.index_entry(index as u64).unwrap(), *info, "{file}: index entry {index}");
    }
    if let Some(last) = seen.last() {
        assert_eq!(reader.seek_block(last.index).unwrap().info(), last, "{file}: seek");
        assert!(reader.next_block().unwrap().is_none(), "{file}: after the last block");
    }

    check_whole_object(reader, expected, info.data_type, &file);
    reader.validate().unwrap_or_else(|error| panic!("{file}: {error}"));
    assert_eq!(reader.violations().unwrap(), vec![], "{file}");
}

fn check_block(block: &mut dbdf::Block<'_>, expected: &Expected, where_: &str) {
    let info = *block.info();
    let window = Window::new(info.row, info.col, u64::from(info.rows), u64::from(info.cols));
    let expected_cells = expected.window(window);
    // Zero-area blocks may sit past the last column of an object without columns.
    let column_type = expected.column_types.get(info.col as usize).copied().unwrap_or(ValueType::F64);
    let bit_non_zero = expected_cells.iter().filter(|&&cell| cell != 0).count() as u64;

    let payload_len = block.payload().unwrap().len() as u64;
    match info.block_type {
        BlockType::Empty => assert_eq!(payload_len, 0, "{where_}: empty payload"),
        BlockType::Dense => {
            let stored_type = info.value_type.expect("dense blocks store a value type");
            assert_eq!(payload_len, info.cells() * stored_type.size() as u64, "{where_}: dense payload");
        }
        BlockType::Csr | BlockType::Coo => assert!(payload_len > 0 || info.stored_values == 0, "{where_}"),
    }
    let entries = block.count_entries().unwrap();
    match info.block_type {
        BlockType::Empty | BlockType::Dense => assert_eq!(entries, bit_non_zero, "{where_}: entries"),
        BlockType::Csr | BlockType::Coo => assert_eq!(entries, info.stored_values, "{where_}: entries"),
    }

    with_value_type!(column_type, T => {
        // Raw payload of a dense block stored in its column's type: the expected values, little-endian.
        if info.block_type == BlockType::Dense && info.value_type == Some(column_type) {
            let stored: Vec<u8> = block.decode_dense::<T>().unwrap().iter().flat_map(|value| value.le_bytes()).collect();
            assert_eq!(block.payload().unwrap(), stored.as_slice(), "{where_}: payload bytes");
        }
        let dense: Vec<T> = block.decode_dense().unwrap_or_else(|error| panic!("{where_}: {error}"));
        assert_eq!(bits(&dense), expected_cells, "{where_}: dense values");

        let csr = block.decode_csr::<T>().unwrap_or_else(|error| panic!("{where_}: {error}"));
        assert_eq!(csr.values.len() as u64, entries, "{where_}: CSR entries");
        let from_csr = dense_from_csr(info.rows as usize, info.cols as usize, &csr.row_offsets, &csr.col_indices, &csr.values);
        assert_eq!(bits(&from_csr), expected_cells, "{where_}: CSR values");

        let coo = block.decode_coo::<T>().unwrap_or_else(|error| panic!("{where_}: {error}"));
        let mut from_coo = vec![T::default(); info.cells() as usize];
        for ((&row, &col), &value) in coo.row_indices.iter().zip(&coo.col_indices).zip(&coo.values) {
            from_coo[row as usize * info.cols as usize + col as usize] = value;
        }
        assert_eq!(bits(&from_coo), expected_cells, "{where_}: COO values");
        assert_eq!(coo.col_indices, csr.col_indices, "{where_}: COO and CSR agree");
    });
}

fn check_whole_object(reader: &mut Reader<'_>, expected: &Expected, data_type: DataType, file: &str) {
    let (rows, cols) = (expected.rows, expected.cols);
    if data_type == DataType::Frame {
        for (column, column_type) in expected.column_types.iter().enumerate() {
            let column_window = expected.window(Window::new(0, column as u64, rows, 1));
            with_value_type!(*column_type, T => {
                let values: Vec<T> = reader.read_column(column as u64).unwrap();
                assert_eq!(bits(&values), column_window, "{file}: column {column}");
            });
        }
        return;
    }
    let Some(&object_type) = expected.column_types.first() else {
        assert_eq!(reader.read_dense::<f64>().unwrap(), Vec::<f64>::new(), "{file}: no cells");
        return;
    };
    with_value_type!(object_type, T => {
        let dense: Vec<T> = reader.read_dense().unwrap();
        assert_eq!(bits(&dense), expected.cell_bits, "{file}: whole object");
        let csr = reader.read_csr::<T>().unwrap();
        let from_csr = dense_from_csr(rows as usize, cols as usize, &csr.row_offsets, &csr.col_indices, &csr.values);
        assert_eq!(bits(&from_csr), expected.cell_bits, "{file}: whole object as CSR");
        assert_eq!(reader.count_entries().unwrap(), csr.values.len() as u64, "{file}: entries");
        if rows > 1 && cols > 1 {
            let window = Window::new(1, 1, rows - 1, cols - 1);
            let values: Vec<T> = reader.read_dense_window(window).unwrap();
            assert_eq!(bits(&values), expected.window(window), "{file}: window");
        }
    });
}

#[test]
fn every_invalid_vector_fails_with_its_status_rule_and_offset_at_its_step() {
    for entry in entries("invalid") {
        let path = vectors_dir().join(text(&entry, "file"));
        let file = path.display().to_string();
        let status = text(&entry, "status");
        let rule = number(&entry, "rule") as i32;
        let offset = number(&entry, "offset");
        let check_error = |error: &dbdf::Error, step: &str| {
            assert_eq!(error.status().name(), status, "{file} ({step}): {error}");
            assert!(error.status().is_invalid_data(), "{file}");
            let expected_rule = u32::try_from(rule).ok().filter(|&rule| rule != 0);
            assert_eq!((error.rule(), error.offset()), (expected_rule, Some(offset)), "{file} ({step}): {error}");
            assert_eq!(error.to_string(), format!("{status}: {}", error.message()), "{file} ({step})");
            let rule_text = if rule == 0 { "(spec".to_string() } else { format!("(rule {rule})") };
            assert!(error.message().contains(&rule_text), "{file} ({step}): {error} does not name {rule_text}");
            assert!(
                error.message().contains(&format!("byte {offset}")),
                "{file} ({step}): {error} does not name byte {offset}"
            );
        };
        match text(&entry, "fails_on") {
            "open" => {
                let error = Reader::open(&path).expect_err(&file);
                check_error(&error, "open");
                let bytes = std::fs::read(&path).unwrap();
                check_error(&Reader::from_bytes(&bytes).expect_err(&file), "open from memory");
            }
            "iterate" => {
                let mut reader = Reader::open(&path).unwrap_or_else(|error| panic!("{file}: {error}"));
                let error = loop {
                    match reader.next_block() {
                        Ok(Some(_)) => continue,
                        Ok(None) => panic!("{file}: iterating did not fail"),
                        Err(error) => break error,
                    }
                };
                check_error(&error, "iterate");
                // The reader stays on the previous block and repeats the error.
                check_error(&reader.next_block().expect_err("the error repeats"), "iterate again");
                check_error(&reader.validate().expect_err(&file), "validate");
                check_error(&reader.build_index().expect_err(&file), "index");
                reader.rewind().unwrap();
                let last = reader.blocks().last().expect("at least the error");
                check_error(&last.expect_err(&file), "blocks()");
            }
            "decode" => {
                let mut reader = Reader::open(&path).unwrap_or_else(|error| panic!("{file}: {error}"));
                let mut decode_error = None;
                while let Some(mut block) = reader.next_block().unwrap_or_else(|error| panic!("{file}: {error}")) {
                    if let Err(error) = block.decode_dense::<f64>() {
                        decode_error.get_or_insert(error);
                    }
                }
                let object_type = reader.info().unwrap().value_type.expect("a matrix");
                let error = decode_error.expect("decoding fails");
                // Decoding into f64 can only fail for the file's own reason, never for the requested type.
                check_error(&error, "decode");
                let read_error = with_value_type!(object_type, T => reader.read_dense::<T>().map(|_| ()));
                check_error(&read_error.expect_err(&file), "read_dense");
                check_error(&reader.validate().expect_err(&file), "validate");
                let violations = reader.violations().unwrap();
                assert!(!violations.is_empty(), "{file}: violations");
                assert_eq!((violations[0].rule, violations[0].offset), (rule, offset), "{file}: {violations:?}");
            }
            other => panic!("{file}: unknown step {other}"),
        }
    }
}

#[test]
fn vectors_json_lists_every_file_of_the_folder() {
    let listed: std::collections::BTreeSet<String> =
        entries("valid").iter().chain(entries("invalid").iter()).map(|entry| text(entry, "file").to_string()).collect();
    for folder in [vectors_dir(), vectors_dir().join("invalid")] {
        for file in std::fs::read_dir(&folder).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|extension| extension == "dbdf") {
                let relative = path.strip_prefix(vectors_dir()).unwrap().to_string_lossy().into_owned();
                assert!(listed.contains(&relative), "{relative} is not in vectors.json");
            }
        }
    }
}
