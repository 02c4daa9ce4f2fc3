//! The `arrow` feature: every golden frame and matrix (and every file of DAPHNE's runtime) exported through
//! arrow-rs gives bit for bit the values the ordinary reads give, from a file reader and from bytes, borrowed or
//! owned; batches outlive their stream, reader and bytes in any order; record batches of every numeric Arrow type
//! round-trip through a .dbdf; unsupported columns and nulls are refused naming the column.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, BooleanArray, FixedSizeListArray, Float32Array, Float64Array, Int16Array, Int32Array, Int64Array,
    Int8Array, LargeListArray, RecordBatch, RecordBatchIterator, RecordBatchReader, StringArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};
use arrow_schema::{ArrowError, DataType as ArrowType, Field, Schema};
use common::{vectors_dir, Cell};
use dbdf::{
    ArrowExportOptions, ArrowImportOptions, ArrowStream, DataType, Dialect, FrameColumn, Reader, ReaderOptions, Status,
    ValueType, WriteOptions, Writer,
};

/// The Arrow type dbdf exports a value type as (docs/arrow.md).
fn arrow_type(value_type: ValueType) -> ArrowType {
    match value_type {
        ValueType::U8 => ArrowType::UInt8,
        ValueType::U16 => ArrowType::UInt16,
        ValueType::U32 => ArrowType::UInt32,
        ValueType::U64 => ArrowType::UInt64,
        ValueType::I8 => ArrowType::Int8,
        ValueType::I16 => ArrowType::Int16,
        ValueType::I32 => ArrowType::Int32,
        ValueType::I64 => ArrowType::Int64,
        ValueType::F32 => ArrowType::Float32,
        ValueType::F64 => ArrowType::Float64,
    }
}

/// A column as the ordinary reads give it: its Arrow type and its values' little-endian bytes.
#[derive(Debug, PartialEq, Clone)]
struct Column {
    arrow_type: ArrowType,
    bytes: Vec<u8>,
}

impl Column {
    fn of<T: Cell>(value_type: ValueType, values: impl IntoIterator<Item = T>) -> Column {
        Column { arrow_type: arrow_type(value_type), bytes: values.into_iter().flat_map(Cell::le_bytes).collect() }
    }
}

/// The bytes of a primitive array's values (offset and length applied), as Arrow holds them; no nulls allowed.
fn value_bytes(array: &dyn Array) -> Vec<u8> {
    assert_eq!(array.null_count(), 0, "an exported column has no nulls");
    let data = array.to_data();
    let width = data.data_type().primitive_width().expect("a primitive column");
    data.buffers()[0].as_slice()[data.offset() * width..(data.offset() + data.len()) * width].to_vec()
}

/// The columns the ordinary reads give for `reader`'s object in the shape export gives it.
fn expected_columns(reader: &mut Reader<'_>, dense_as_list: bool) -> dbdf::Result<Vec<Column>> {
    let info = reader.info()?;
    Ok(match info.data_type {
        DataType::Frame => (0..info.cols)
            .map(|column| {
                let value_type = reader.column_type(column)?;
                Ok(with_value_type!(value_type, T => Column::of(value_type, reader.read_column::<T>(column)?)))
            })
            .collect::<dbdf::Result<_>>()?,
        DataType::Dense | DataType::Scalar => {
            let value_type = info.value_type.expect("a matrix has a value type");
            with_value_type!(value_type, T => {
                let values = reader.read_dense::<T>()?;
                if dense_as_list {
                    vec![Column::of(value_type, values)]
                } else {
                    (0..info.cols as usize)
                        .map(|col| Column::of(value_type, values.iter().skip(col).step_by(info.cols as usize).copied()))
                        .collect()
                }
            })
        }
        DataType::Csr => {
            let value_type = info.value_type.expect("a matrix has a value type");
            with_value_type!(value_type, T => {
                let csr = reader.read_csr::<T>()?;
                let rows = csr.row_offsets.windows(2).enumerate().flat_map(|(row, range)| {
                    std::iter::repeat_n(row as u64, (range[1] - range[0]) as usize)
                });
                vec![
                    Column::of(ValueType::U64, rows),
                    Column::of(ValueType::U64, csr.col_indices.iter().copied()),
                    Column::of(value_type, csr.values.iter().copied()),
                ]
            })
        }
    })
}

/// The field names export gives `reader`'s object.
fn expected_names(reader: &Reader<'_>, dense_as_list: bool) -> Vec<String> {
    let info = reader.info().expect("info");
    match info.data_type {
        DataType::Frame => {
            (0..info.cols).map(|column| reader.column_label(column).expect("label").to_owned()).collect()
        }
        DataType::Csr => vec!["row".into(), "col".into(), "value".into()],
        _ if dense_as_list => vec!["values".into()],
        _ => (0..info.cols).map(|col| format!("c{col}")).collect(),
    }
}

/// Pulls every batch of `stream` and joins each field's values; checks the schema, row counts and list shapes.
fn exported_columns(
    stream: ArrowStream<'_>,
    rows: Option<u64>,
    list_size: Option<u64>,
) -> Result<(Vec<String>, Vec<Column>), ArrowError> {
    let schema = stream.schema();
    let names: Vec<String> = schema.fields().iter().map(|field| field.name().clone()).collect();
    assert!(schema.fields().iter().all(|field| !field.is_nullable()), "no field is nullable: {schema:?}");
    let mut columns: Vec<Column> = schema
        .fields()
        .iter()
        .map(|field| {
            let arrow_type = match field.data_type() {
                ArrowType::FixedSizeList(item, size) => {
                    assert_eq!(Some(*size as u64), list_size, "list size of {field:?}");
                    item.data_type().clone()
                }
                other => other.clone(),
            };
            Column { arrow_type, bytes: Vec::new() }
        })
        .collect();
    let mut rows_seen = 0u64;
    for batch in stream {
        let batch = batch?;
        assert_eq!(batch.schema(), schema, "every batch has the stream's schema");
        rows_seen += batch.num_rows() as u64;
        for (column, array) in columns.iter_mut().zip(batch.columns()) {
            match array.as_any().downcast_ref::<FixedSizeListArray>() {
                Some(list) => column.bytes.extend(value_bytes(list.values().as_ref())),
                None => column.bytes.extend(value_bytes(array.as_ref())),
            }
        }
    }
    if let Some(rows) = rows {
        assert_eq!(rows_seen, rows, "rows of all batches of {schema:?}");
    }
    Ok((names, columns))
}

/// Checks an export against the ordinary reads: the same names and values, or, where the reads fail, a failed
/// pull carrying the library's message.
fn assert_exported(
    exported: Result<(Vec<String>, Vec<Column>), ArrowError>,
    expected: &dbdf::Result<Vec<Column>>,
    names: &[String],
    context: &str,
) {
    match (exported, expected) {
        (Ok((exported_names, columns)), Ok(expected)) => {
            assert_eq!(exported_names, names, "{context}: names");
            assert_eq!(&columns, expected, "{context}: values");
        }
        (Err(error), Err(read_error)) => {
            assert!(error.to_string().contains(read_error.message()), "{context}: {error} lacks {read_error}")
        }
        (exported, expected) => panic!("{context}: exported {exported:?}, read {expected:?}"),
    }
}

/// Exports the object `open` opens (whose bytes are `bytes`) in every way that applies, from a file reader and from
/// bytes, borrowed and owned, and compares with the ordinary reads. False if the ordinary reads fail (and the
/// exports failed with their message).
fn check_exports(name: &str, open: &dyn Fn() -> Reader<'static>, bytes: &Arc<[u8]>, dialect: Dialect) -> bool {
    let info = open().info().expect("info");
    let list_options: &[bool] = if info.data_type == DataType::Dense { &[false, true] } else { &[false] };
    let mut reads_succeed = true;
    for &dense_as_list in list_options {
        let options = ArrowExportOptions::new().dense_as_list(dense_as_list);
        let mut expected_reader = open();
        let expected = expected_columns(&mut expected_reader, dense_as_list);
        reads_succeed &= expected.is_ok();
        let names = expected_names(&expected_reader, dense_as_list);
        // The batches' rows: a CSR table has one per stored entry, anything else the object's rows (also an object
        // without columns: batches without values carry them).
        let rows = (info.data_type != DataType::Csr).then_some(info.rows);
        let list_size = dense_as_list.then_some(info.cols);
        let context = format!("{name} (dense_as_list {dense_as_list})");

        let mut file_reader = open();
        let borrowed_file = exported_columns(file_reader.arrow_stream(&options).expect("export"), rows, list_size);
        assert_exported(borrowed_file, &expected, &names, &format!("{context}: file reader, borrowed"));
        // The reader is usable again once the stream is dropped.
        assert_eq!(file_reader.info().expect("info"), info, "{context}");

        let owned_file = exported_columns(open().into_arrow_stream(&options).expect("export"), rows, list_size);
        assert_exported(owned_file, &expected, &names, &format!("{context}: file reader, owned"));

        let reader_options = ReaderOptions::new().dialect(dialect);
        let mut bytes_reader = Reader::from_bytes_with_options(bytes, &reader_options).expect("from_bytes");
        let borrowed_bytes = exported_columns(bytes_reader.arrow_stream(&options).expect("export"), rows, list_size);
        assert_exported(borrowed_bytes, &expected, &names, &format!("{context}: bytes reader, borrowed"));

        let stream = ArrowStream::from_bytes(Arc::clone(bytes), &reader_options, &options).expect("export");
        let owned_bytes = exported_columns(stream, rows, list_size);
        assert_exported(owned_bytes, &expected, &names, &format!("{context}: bytes, owned"));
    }
    reads_succeed
}

fn files_in(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extensions.iter().any(|wanted| extension == *wanted)))
        .collect();
    files.sort();
    files
}

/// The CSR arrays of every band `stream` gives, joined into the object's: row offsets, columns, value bytes.
fn joined_csr_arrays(stream: ArrowStream<'_>, rows: u64) -> (Vec<u64>, Vec<u64>, Vec<u8>) {
    let names: Vec<String> = stream.schema().fields().iter().map(|field| field.name().clone()).collect();
    assert_eq!(names, ["row_begin", "row_offsets", "col", "value"]);
    let (mut offsets, mut cols, mut values) = (vec![0u64], Vec::new(), Vec::new());
    for batch in stream {
        let batch = batch.expect("a band");
        assert_eq!(batch.num_rows(), 1, "one row per band");
        let row_begin = batch.column(0).as_any().downcast_ref::<UInt64Array>().expect("row_begin").value(0);
        assert_eq!(row_begin, offsets.len() as u64 - 1, "bands follow each other");
        let list =
            |field: usize| batch.column(field).as_any().downcast_ref::<LargeListArray>().expect("a list").value(0);
        let first_entry = *offsets.last().expect("an offset");
        let band_offsets = list(1);
        let band_offsets = band_offsets.as_any().downcast_ref::<UInt64Array>().expect("u64 offsets");
        assert_eq!(band_offsets.value(0), 0, "a band's offsets start at 0");
        offsets.extend(band_offsets.values().iter().skip(1).map(|offset| first_entry + offset));
        cols.extend(list(2).as_any().downcast_ref::<UInt64Array>().expect("u64 columns").values().iter());
        values.extend(value_bytes(list(3).as_ref()));
    }
    assert_eq!(offsets.len() as u64, rows + 1, "every row has its offset");
    (offsets, cols, values)
}

#[test]
fn csr_matrices_export_as_csr_arrays_per_band_on_request() {
    let mut checked = 0;
    for path in files_in(&vectors_dir(), &["dbdf"]) {
        let mut reader = Reader::open(&path).expect("open");
        let info = reader.info().expect("info");
        if info.data_type != DataType::Csr {
            continue;
        }
        let value_type = info.value_type.expect("a matrix has a value type");
        let Ok(expected) = with_value_type!(value_type, T => reader.read_csr::<T>().map(|csr| {
            (csr.row_offsets, csr.col_indices, Column::of(value_type, csr.values).bytes)
        })) else {
            continue; // an invalid vector: the triplet test checks its refusal
        };
        let options = ArrowExportOptions::new().csr_as_arrays(true);
        let exported = joined_csr_arrays(reader.arrow_stream(&options).expect("export"), info.rows);
        assert_eq!(exported, expected, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10, "CSR vectors checked: {checked}");
}

#[test]
fn every_golden_frame_and_matrix_exports_the_values_the_reads_give() {
    let files = files_in(&vectors_dir(), &["dbdf"]);
    assert!(files.len() >= 40, "golden vectors found: {}", files.len());
    let mut data_types = Vec::new();
    for path in &files {
        let bytes: Arc<[u8]> = std::fs::read(path).expect("read the vector").into();
        let open = || Reader::open(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        data_types.push(open().info().expect("info").data_type);
        assert!(check_exports(&path.display().to_string(), &open, &bytes, Dialect::Spec), "{}", path.display());
    }
    for data_type in [DataType::Frame, DataType::Dense, DataType::Csr] {
        assert!(data_types.contains(&data_type), "no golden {data_type:?}");
    }
}

#[test]
fn every_file_of_daphnes_runtime_exports_the_values_the_reads_give() {
    let dir = vectors_dir().join("daphne-runtime");
    let mut exported = 0;
    let mut reads_failed = Vec::new();
    for path in files_in(&dir, &["dbdf", "bin"]) {
        let daphne = ReaderOptions::new().dialect(Dialect::Daphne);
        match Reader::open_with_options(&path, &daphne) {
            Ok(_) => {
                let bytes: Arc<[u8]> = std::fs::read(&path).expect("read the file").into();
                let open = || Reader::open_with_options(&path, &daphne).expect("open");
                if !check_exports(&path.display().to_string(), &open, &bytes, Dialect::Daphne) {
                    reads_failed.push(path.file_name().expect("a file name").to_string_lossy().into_owned());
                }
                exported += 1;
            }
            // String data, which the format has no value type for, is refused when the reader opens.
            Err(error) => assert!(
                matches!(error.status(), Status::Unsupported | Status::Truncated),
                "{}: {error}",
                path.display()
            ),
        }
    }
    assert!(exported >= 40, "runtime files exported: {exported}");
    // The runtime's CSR with a column stored twice in a row breaks rule 12: reading it and pulling its batch fail.
    assert_eq!(reads_failed, ["csr_dup_f64_20x10.dbdf"]);
}

/// A frame of `rows` rows in bands of 3 rows: an f64 column and a u8 column, each band of each column one dense
/// block of the column's type, so an owning stream lends those whose values are aligned (a u8 block always is).
fn banded_frame(rows: u64) -> (Vec<u8>, Vec<f64>, Vec<u8>) {
    let doubles: Vec<f64> = (0..rows).map(|row| row as f64 * 1.5 - 7.0).collect();
    let small: Vec<u8> = (0..rows).map(|row| (row * 37 % 251) as u8).collect();
    let mut writer = Writer::in_memory().expect("writer");
    let columns = [FrameColumn::new("x", ValueType::F64), FrameColumn::new("n", ValueType::U8)];
    writer.begin_frame(rows, &columns).expect("begin");
    let options = WriteOptions::new().block_shape(3, 1).encoding(dbdf::Encoding::AsGiven);
    writer.write_column(0, &doubles, &options).expect("column x");
    writer.write_column(1, &small, &options).expect("column n");
    writer.finish().expect("finish");
    (writer.memory().expect("bytes").to_vec(), doubles, small)
}

fn le_bytes<T: Cell>(values: &[T]) -> Vec<u8> {
    values.iter().flat_map(|value| value.le_bytes()).collect()
}

#[test]
fn lent_batches_outlive_the_stream_and_the_bytes_in_any_order_and_on_other_threads() {
    let (bytes, doubles, small) = banded_frame(10);
    let bytes: Arc<[u8]> = bytes.into();
    let range = bytes.as_ptr_range();
    let stream =
        ArrowStream::from_bytes(Arc::clone(&bytes), &ReaderOptions::new(), &ArrowExportOptions::new()).expect("export");
    let batches: Vec<RecordBatch> = stream.collect::<Result<_, ArrowError>>().expect("batches");
    assert_eq!(batches.iter().map(RecordBatch::num_rows).collect::<Vec<_>>(), [3, 3, 3, 1]);
    // Lent, not copied: the u8 columns point into the bytes.
    for batch in &batches {
        let pointer = batch.column(1).to_data().buffers()[0].as_ptr();
        assert!(range.contains(&pointer), "the u8 column of a band is lent");
    }
    drop(bytes); // the stream's release hook keeps its own share
    let mut columns: Vec<ArrayRef> = batches.iter().map(|batch| Arc::clone(batch.column(1))).collect();
    let mut batches = batches;
    let last = batches.pop().expect("a batch");
    let moved = std::thread::spawn(move || value_bytes(last.column(0).as_ref())).join().expect("thread");
    assert_eq!(moved, le_bytes(&doubles[9..]));
    // The remaining batches released out of order: the middle one first.
    let middle = batches.remove(1);
    assert_eq!(value_bytes(middle.column(0).as_ref()), le_bytes(&doubles[3..6]));
    drop(middle);
    let read: Vec<u8> = batches.iter().flat_map(|batch| value_bytes(batch.column(0).as_ref())).collect();
    assert_eq!(read, [le_bytes(&doubles[0..3]), le_bytes(&doubles[6..9])].concat());
    drop(batches);
    // Columns moved out of their batches, released last, on another thread and out of order.
    let last_column = columns.pop().expect("a column");
    let read: Vec<u8> = columns.iter().chain([&last_column]).flat_map(|array| value_bytes(array.as_ref())).collect();
    assert_eq!(read, small);
    std::thread::spawn(move || drop(last_column)).join().expect("thread");
    columns.reverse();
    drop(columns);
}

#[test]
fn decoded_batches_outlive_a_borrowed_reader_and_its_bytes() {
    let (bytes, doubles, _) = banded_frame(7);
    let batches: Vec<RecordBatch> = {
        let mut reader = Reader::from_bytes(&bytes).expect("reader");
        let stream = reader.arrow_stream(&ArrowExportOptions::new()).expect("export");
        let mut pulled: Vec<RecordBatch> = Vec::new();
        for batch in stream {
            pulled.push(batch.expect("a batch"));
        }
        pulled
    };
    drop(bytes);
    let read: Vec<u8> = batches.iter().flat_map(|batch| value_bytes(batch.column(0).as_ref())).collect();
    assert_eq!(read, doubles.iter().flat_map(|value| value.to_le_bytes()).collect::<Vec<u8>>());
}

/// The library's error behind a failed pull, checked against the error `read` meets on the same object: the same
/// message, rule and byte offset, and the status the stream's errno stands for.
fn assert_pull_failed_as_read(pulled: ArrowError, read: &dbdf::Error, status: Status) {
    assert!(pulled.to_string().ends_with(read.message()), "{pulled} does not end with {:?}", read.message());
    let library = dbdf::Error::from_arrow_error(&pulled).expect("the library's error is inside");
    assert_eq!(library.status(), status, "{library}");
    assert_eq!((library.message(), library.rule(), library.offset()), (read.message(), read.rule(), read.offset()));
}

#[test]
fn a_broken_block_fails_the_pull_with_the_librarys_error() {
    let path = vectors_dir().join("invalid/not_representable_u16_in_u8.dbdf");
    let read_error = Reader::open(&path).expect("open").read_dense::<u8>().expect_err("a value above 255");
    assert!(read_error.rule().is_some() && read_error.offset().is_some(), "{read_error:?}");
    let mut reader = Reader::open(&path).expect("open");
    let pulled: Result<Vec<RecordBatch>, ArrowError> =
        reader.arrow_stream(&ArrowExportOptions::new()).expect("the header is fine").collect();
    // EINVAL: the stream cannot tell a value out of range from another breach of the format.
    assert_pull_failed_as_read(pulled.expect_err("the broken block"), &read_error, Status::Format);
}

#[test]
fn a_truncated_object_fails_the_pull_at_the_byte_where_it_ends() {
    let whole = std::fs::read(vectors_dir().join("dense_f64.dbdf")).expect("golden vector");
    let cut = whole[..whole.len() - 3].to_vec();
    let read_error = Reader::from_bytes(&cut).expect("the header is whole").read_dense::<f64>().expect_err("cut");
    assert_eq!((read_error.status(), read_error.offset().is_some()), (Status::Truncated, true), "{read_error:?}");
    let stream = ArrowStream::from_bytes(cut, &ReaderOptions::new(), &ArrowExportOptions::new()).expect("header");
    let pulled: Result<Vec<RecordBatch>, ArrowError> = stream.collect();
    assert_pull_failed_as_read(pulled.expect_err("the cut block"), &read_error, Status::Format);
}

/// The bytes of an object, failing the first read that covers byte `fail_at` and serving every read after it.
struct FailingOnce {
    bytes: Vec<u8>,
    fail_at: u64,
    failed: bool,
}

impl dbdf::ReadAt for FailingOnce {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> std::io::Result<usize> {
        let start = usize::try_from(offset).unwrap().min(self.bytes.len());
        let count = buffer.len().min(self.bytes.len() - start);
        if !self.failed && (offset..offset + count as u64).contains(&self.fail_at) {
            self.failed = true;
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the disk went away"));
        }
        buffer[..count].copy_from_slice(&self.bytes[start..start + count]);
        Ok(count)
    }

    fn size(&mut self) -> std::io::Result<Option<u64>> {
        Ok(Some(self.bytes.len() as u64))
    }
}

#[test]
fn a_pull_that_failed_to_read_is_an_io_error_and_the_next_pull_tries_again() {
    // Enough blocks that opening the reader reads only the start: 50 bands of 1000 rows, one block per column.
    let doubles: Vec<f64> = (0..50_000).map(|row| f64::from(row) * 0.25).collect();
    let mut writer = Writer::in_memory().expect("writer");
    writer.begin_frame(50_000, &[FrameColumn::new("x", ValueType::F64)]).expect("begin");
    writer.write_column(0, &doubles, &WriteOptions::new().block_shape(1000, 1)).expect("column");
    writer.finish().expect("finish");
    let bytes = writer.memory().expect("bytes").to_vec();
    let expected: Vec<RecordBatch> = ArrowStream::from_bytes(bytes.clone(), &ReaderOptions::new(), &Default::default())
        .expect("export")
        .collect::<Result<_, _>>()
        .expect("pull");
    let last_byte = bytes.len() as u64 - 1; // in the last block's values, read by a pull, not by the opening
    let source = FailingOnce { bytes, fail_at: last_byte, failed: false };
    let reader = Reader::from_source(source).expect("the header reads");
    let mut stream = reader.into_arrow_stream(&ArrowExportOptions::new()).expect("export");
    let mut pulled = Vec::new();
    let failure = loop {
        match stream.next().expect("a batch or the failure before the end") {
            Ok(batch) => pulled.push(batch),
            Err(failure) => break failure,
        }
    };
    let library = dbdf::Error::from_arrow_error(&failure).expect("the library's error is inside");
    assert_eq!((library.status(), library.rule(), library.offset()), (Status::Io, None, None), "{library}");
    assert!(failure.to_string().ends_with(library.message()), "{failure}");
    let rest: Vec<RecordBatch> = stream.collect::<Result<_, _>>().expect("the source reads now");
    pulled.extend(rest);
    assert_eq!(pulled, expected, "the batches of a clean export");
}

#[test]
fn an_arrow_error_of_another_origin_holds_no_library_error() {
    assert!(dbdf::Error::from_arrow_error(&ArrowError::ComputeError("elsewhere".into())).is_none());
    let foreign = ArrowError::ExternalError(Box::new(std::io::Error::other("not dbdf's")));
    assert!(dbdf::Error::from_arrow_error(&foreign).is_none());
}

/// Extremes of every numeric type dbdf has: minimum, maximum, zero, and for floats -0.0, NaN with a payload, the
/// smallest subnormal and infinity.
fn every_numeric_column() -> Vec<(&'static str, ArrayRef)> {
    vec![
        ("u8", Arc::new(UInt8Array::from(vec![0, 1, u8::MAX, 7])) as ArrayRef),
        ("u16", Arc::new(UInt16Array::from(vec![0, 1, u16::MAX, 300]))),
        ("u32", Arc::new(UInt32Array::from(vec![0, 1, u32::MAX, 70_000]))),
        ("u64", Arc::new(UInt64Array::from(vec![0, 1, u64::MAX, 1 << 40]))),
        ("i8", Arc::new(Int8Array::from(vec![i8::MIN, -1, i8::MAX, 0]))),
        ("i16", Arc::new(Int16Array::from(vec![i16::MIN, -1, i16::MAX, 0]))),
        ("i32", Arc::new(Int32Array::from(vec![i32::MIN, -1, i32::MAX, 0]))),
        ("i64", Arc::new(Int64Array::from(vec![i64::MIN, -1, i64::MAX, 0]))),
        (
            "f32",
            Arc::new(Float32Array::from(vec![-0.0, f32::from_bits(0x7fc0_1234), f32::from_bits(1), f32::INFINITY])),
        ),
        (
            "f64",
            Arc::new(Float64Array::from(vec![
                -0.0,
                f64::from_bits(0x7ff8_0000_dead_beef),
                f64::from_bits(1),
                f64::MIN,
            ])),
        ),
    ]
}

fn in_memory(batches: &[RecordBatch], options: &ArrowImportOptions) -> dbdf::Result<Vec<u8>> {
    let mut writer = Writer::in_memory()?;
    writer.write_record_batches(batches[0].schema(), batches, options)?;
    writer.finish()?;
    Ok(writer.memory()?.to_vec())
}

fn read_back(bytes: Vec<u8>) -> Vec<RecordBatch> {
    let stream = ArrowStream::from_bytes(bytes, &ReaderOptions::new(), &ArrowExportOptions::new()).expect("export");
    stream.collect::<Result<_, ArrowError>>().expect("batches")
}

#[test]
fn record_batches_of_every_numeric_type_round_trip_bit_for_bit() {
    let batch = RecordBatch::try_from_iter(every_numeric_column()).expect("batch");
    // Two batches of one schema, so that the writer pulls more than one.
    let bytes = in_memory(&[batch.clone(), batch.slice(1, 2)], &ArrowImportOptions::new()).expect("write");
    let reader = Reader::from_bytes(&bytes).expect("reader");
    assert_eq!(reader.info().expect("info").rows, 6);
    let expected: Vec<ValueType> =
        every_numeric_column().iter().map(|(name, _)| common::value_type_named(name)).collect();
    let column_types: Vec<ValueType> = (0..10).map(|column| reader.column_type(column).expect("type")).collect();
    assert_eq!(column_types, expected, "each column keeps its type");
    drop(reader);
    let read = read_back(bytes);
    let schema = read[0].schema();
    for (column, (name, array)) in every_numeric_column().into_iter().enumerate() {
        assert_eq!(schema.field(column).name(), name);
        assert_eq!(schema.field(column).data_type(), array.data_type(), "{name}");
        let mut expected = value_bytes(array.as_ref());
        expected.extend(value_bytes(array.slice(1, 2).as_ref()));
        assert_eq!(column_bytes(&read, column), expected, "{name}");
    }
}

/// The values of column `column` of every batch, joined.
fn column_bytes(batches: &[RecordBatch], column: usize) -> Vec<u8> {
    batches.iter().flat_map(|batch| value_bytes(batch.column(column).as_ref())).collect()
}

#[test]
fn columns_of_one_type_round_trip_as_a_dense_matrix() {
    let first: ArrayRef = Arc::new(Float64Array::from(vec![1.0, -0.0, 3.5]));
    let second: ArrayRef = Arc::new(Float64Array::from(vec![f64::NAN, 5.0, -6.25]));
    let batch = RecordBatch::try_from_iter([("a", first), ("b", second)]).expect("batch");
    let bytes = in_memory(&[batch], &ArrowImportOptions::new().as_matrix(true)).expect("write");
    let mut reader = Reader::from_bytes(&bytes).expect("reader");
    let info = reader.info().expect("info");
    assert_eq!((info.data_type, info.value_type, info.rows, info.cols), (DataType::Dense, Some(ValueType::F64), 3, 2));
    let values: Vec<u64> = reader.read_dense::<f64>().expect("values").iter().map(|value| value.to_bits()).collect();
    let expected: Vec<u64> = [1.0, f64::NAN, -0.0, 5.0, 3.5, -6.25].iter().map(|value: &f64| value.to_bits()).collect();
    assert_eq!(values, expected);
}

#[test]
fn booleans_become_u8_only_when_asked() {
    let flags: ArrayRef = Arc::new(BooleanArray::from(vec![true, false, true]));
    let batch = RecordBatch::try_from_iter([("flag", flags)]).expect("batch");
    let refused = in_memory(std::slice::from_ref(&batch), &ArrowImportOptions::new()).expect_err("booleans refused");
    assert_eq!(refused.status(), Status::Unsupported, "{refused}");
    assert!(refused.message().contains("flag"), "names the column: {refused}");
    let bytes = in_memory(&[batch], &ArrowImportOptions::new().booleans_as_u8(true)).expect("write");
    let mut reader = Reader::from_bytes(&bytes).expect("reader");
    assert_eq!(reader.column_type(0).expect("type"), ValueType::U8);
    assert_eq!(reader.read_column::<u8>(0).expect("values"), [1, 0, 1]);
}

#[test]
fn strings_and_nulls_are_refused_naming_the_column() {
    let numbers: ArrayRef = Arc::new(Int32Array::from(vec![1, 2]));
    let names: ArrayRef = Arc::new(StringArray::from(vec!["a", "b"]));
    let batch = RecordBatch::try_from_iter([("number", numbers), ("name", names)]).expect("batch");
    let error = in_memory(&[batch], &ArrowImportOptions::new()).expect_err("strings refused");
    assert_eq!(error.status(), Status::Unsupported, "{error}");
    assert!(error.message().contains("name"), "names the column: {error}");

    let with_null: ArrayRef = Arc::new(Float64Array::from(vec![Some(1.0), None, Some(3.0)]));
    let batch = RecordBatch::try_from_iter([("measured", with_null)]).expect("batch");
    let error = in_memory(&[batch], &ArrowImportOptions::new()).expect_err("a null refused");
    assert_eq!(error.status(), Status::Format, "{error}");
    assert!(error.message().contains("measured"), "names the column: {error}");
}

#[test]
fn a_failing_producer_and_a_wrong_row_count_fail_the_write() {
    let schema = Arc::new(Schema::new(vec![Field::new("v", ArrowType::Int64, false)]));
    let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(Int64Array::from(vec![1, 2]))]).expect("batch");
    let failing = RecordBatchIterator::new(
        vec![Ok(batch.clone()), Err(ArrowError::ComputeError("the producer gave up".into()))],
        Arc::clone(&schema),
    );
    let mut writer = Writer::in_memory().expect("writer");
    let error = writer.write_arrow(failing, 4, &ArrowImportOptions::new()).expect_err("the producer's error");
    assert_eq!(error.status(), Status::Io, "{error}");
    assert!(error.message().contains("the producer gave up"), "{error}");

    let mut writer = Writer::in_memory().expect("writer");
    let short = RecordBatchIterator::new(vec![Ok(batch)], schema);
    let error = writer.write_arrow(short, 3, &ArrowImportOptions::new()).expect_err("2 rows of 3");
    assert_eq!(error.status(), Status::Format, "{error}");
}

#[test]
fn save_arrow_writes_a_file_that_loads_back() {
    let dir = common::scratch_dir("arrow");
    let path = dir.join("frame.dbdf");
    let batch = RecordBatch::try_from_iter(every_numeric_column()).expect("batch");
    dbdf::save_arrow(&path, batch.schema(), std::slice::from_ref(&batch), &ArrowImportOptions::new()).expect("save");
    let mut reader = Reader::open(&path).expect("open");
    assert_eq!(reader.read_column::<i64>(7).expect("i64 column"), [i64::MIN, -1, i64::MAX, 0]);
    let read: Vec<RecordBatch> = reader
        .into_arrow_stream(&ArrowExportOptions::new())
        .expect("export")
        .map(|batch| batch.expect("batch"))
        .collect();
    for (column, array) in batch.columns().iter().enumerate() {
        assert_eq!(read[0].schema().field(column).data_type(), array.data_type());
        assert_eq!(column_bytes(&read, column), value_bytes(array.as_ref()), "column {column}");
    }
    std::fs::remove_dir_all(dir).expect("clean up");
}
