//! Every kind of failure gives an Error with the right status and the library's message: invalid arguments,
//! wrong call order, buffers too small, I/O, values out of range, failing sinks.

mod common;

use common::scratch_dir;
use dbdf::{
    BlockPlacement, DataType, Encoding, Error, FrameColumn, Reader, Status, ValueType, Window, WriteOptions, Writer,
};

fn status_of<T: std::fmt::Debug>(result: dbdf::Result<T>) -> Status {
    let error = result.expect_err("the call must fail");
    assert!(!error.message().is_empty(), "an error always says what went wrong: {error:?}");
    assert!(error.to_string().starts_with(error.status().name()), "{error}");
    error.status()
}

fn message_of<T: std::fmt::Debug>(result: dbdf::Result<T>) -> String {
    result.expect_err("the call must fail").message().to_string()
}

/// A finished 2 x 3 f64 matrix in memory: one dense block [1, 2.5, 3; 4, 5, 6].
fn small_matrix() -> Vec<u8> {
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, 2, 3).unwrap();
    let options = WriteOptions::new().encoding(Encoding::AsGiven);
    writer.add_dense(BlockPlacement::new(0, 0, 2, 3), &[1.0, 2.5, 3.0, 4.0, 5.0, 6.0], 0, &options).unwrap();
    writer.finish().unwrap();
    writer.memory().unwrap().to_vec()
}

#[test]
fn invalid_arguments_are_rejected_with_a_message() {
    let mut writer = Writer::in_memory().unwrap();
    assert_eq!(status_of(writer.begin_matrix(DataType::Frame, ValueType::F64, 2, 2)), Status::InvalidArgument);
    writer.begin_matrix(DataType::Dense, ValueType::F64, 4, 4).unwrap();
    let options = WriteOptions::new();
    let four = [1.0f64; 4];
    // Row stride smaller than the block's columns.
    assert_eq!(
        status_of(writer.add_dense(BlockPlacement::new(0, 0, 2, 2), &four, 1, &options)),
        Status::InvalidArgument
    );
    // Fewer values than the block needs.
    assert_eq!(
        status_of(writer.add_dense(BlockPlacement::new(0, 0, 2, 2), &four[..3], 0, &options)),
        Status::InvalidArgument
    );
    // Outside the object.
    let outside = message_of(writer.add_dense(BlockPlacement::new(3, 3, 2, 2), &four, 0, &options));
    assert!(!outside.is_empty());
    writer.add_dense(BlockPlacement::new(0, 0, 2, 2), &four, 0, &options).unwrap();
    // Overlapping the block just added.
    assert_eq!(
        status_of(writer.add_dense(BlockPlacement::new(1, 1, 2, 2), &four, 0, &options)),
        Status::InvalidArgument
    );
    // Malformed CSR arrays: columns not increasing.
    let csr = writer.add_csr(BlockPlacement::new(2, 0, 2, 2), &[0, 2, 2], &[1, 0], &[1.0f64, 2.0], &options);
    assert_eq!(status_of(csr), Status::InvalidArgument);
    // Slices whose lengths disagree are caught before the library could read past them.
    let short_offsets = writer.add_csr(BlockPlacement::new(2, 0, 2, 2), &[0, 1], &[0], &[1.0f64], &options);
    assert!(message_of(short_offsets).contains("row_offsets has 2 entries"));
    let coo = writer.add_coo(BlockPlacement::new(2, 0, 2, 2), &[0, 1], &[0], &[1.0f64], &options);
    assert_eq!(status_of(coo), Status::InvalidArgument);
    let whole_csr = writer.write_csr(&[0, 0], &[], &[] as &[f64], &options);
    assert_eq!(status_of(whole_csr), Status::InvalidArgument, "4 rows need 5 offsets");
    // Errors of these kinds leave the writer usable.
    writer.add_empty(BlockPlacement::new(0, 2, 4, 2)).unwrap();
    writer.add_empty(BlockPlacement::new(2, 0, 2, 2)).unwrap();
    writer.finish().unwrap();

    let mut frame_writer = Writer::in_memory().unwrap();
    let duplicate = [FrameColumn::new("x", ValueType::I32), FrameColumn::new("x", ValueType::F32)];
    let error = frame_writer.begin_frame(3, &duplicate).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument);
    assert!(error.message().contains("rule 16"), "{error}");

    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    assert_eq!(status_of(reader.column_label(0)), Status::InvalidArgument, "matrices have no labels");
    assert_eq!(status_of(reader.column_type(3)), Status::InvalidArgument);
    assert_eq!(status_of(reader.read_column::<f64>(3)), Status::InvalidArgument);
    assert_eq!(status_of(reader.seek_block(1)), Status::InvalidArgument);
    assert_eq!(status_of(reader.index_entry(7)), Status::InvalidArgument);
    assert_eq!(status_of(reader.read_dense_window::<f64>(Window::new(1, 1, 2, 2))), Status::InvalidArgument);
    let mut buffer = [0.0f64; 6];
    assert_eq!(status_of(reader.read_dense_into(&mut buffer, 2)), Status::InvalidArgument, "stride < cols");

    assert_eq!(status_of(ValueType::from_name("u7")), Status::InvalidArgument);
    assert_eq!(status_of(ValueType::from_name("f\0")), Status::InvalidArgument);
    assert_eq!(status_of(Reader::open("with\0nul.dbdf")), Status::InvalidArgument);
}

#[test]
fn calls_in_the_wrong_order_fail_with_call_order() {
    let options = WriteOptions::new();
    let block = BlockPlacement::new(0, 0, 1, 2);
    let mut writer = Writer::in_memory().unwrap();
    assert_eq!(status_of(writer.add_dense(block, &[1u8, 2], 0, &options)), Status::CallOrder, "add before begin");
    assert_eq!(status_of(writer.add_empty(block)), Status::CallOrder);
    assert_eq!(status_of(writer.write_csr(&[0], &[], &[] as &[u8], &options)), Status::CallOrder);
    assert_eq!(status_of(writer.finish()), Status::CallOrder, "finish before begin");
    assert_eq!(status_of(writer.memory()), Status::CallOrder, "memory before finish");
    writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2).unwrap();
    assert_eq!(status_of(writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2)), Status::CallOrder, "begin twice");
    writer.add_dense(BlockPlacement::new(0, 0, 1, 1), &[1u8], 0, &options).unwrap();
    assert_eq!(status_of(writer.write_dense(&[1u8, 2], 0, &options)), Status::CallOrder, "write_dense after add");
    writer.add_dense(BlockPlacement::new(0, 1, 1, 1), &[2u8], 0, &options).unwrap();
    writer.finish().unwrap();
    assert_eq!(status_of(writer.finish()), Status::CallOrder, "finish twice");
    assert_eq!(status_of(writer.add_empty(block)), Status::CallOrder, "add after finish");
    assert_eq!(writer.memory().unwrap().len() as u64, writer.bytes_written().unwrap());

    let dir = scratch_dir("call-order");
    let mut file_writer = Writer::create(dir.join("m.dbdf")).unwrap();
    file_writer.begin_matrix(DataType::Dense, ValueType::U8, 0, 0).unwrap();
    file_writer.finish().unwrap();
    assert_eq!(status_of(file_writer.memory()), Status::CallOrder, "a file writer has no memory");
    assert_eq!(status_of(file_writer.copy_memory(&mut [0u8; 64])), Status::CallOrder);
    std::fs::remove_dir_all(dir).unwrap();

    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    assert_eq!(
        status_of(reader.current_block().map(|block| *block.info())),
        Status::CallOrder,
        "before the first block"
    );
    assert!(reader.next_block().unwrap().is_some());
    assert!(reader.next_block().unwrap().is_none());
    assert_eq!(status_of(reader.current_block().map(|block| *block.info())), Status::CallOrder, "past the last block");
}

#[test]
fn finishing_with_uncovered_cells_fails_and_the_writer_stays_open() {
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Csr, ValueType::I32, 2, 2).unwrap();
    writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[1i32, 2], 0, &WriteOptions::new()).unwrap();
    let error = writer.finish().unwrap_err();
    assert_eq!(error.status(), Status::Format);
    assert!(error.message().contains("rule 1"), "{error}");
    writer.add_empty(BlockPlacement::new(1, 0, 1, 2)).unwrap();
    writer.finish().unwrap();
    assert_eq!(Reader::from_bytes(writer.memory().unwrap()).unwrap().read_dense::<i32>().unwrap(), vec![1, 2, 0, 0]);
}

#[test]
fn buffers_that_are_too_small_are_left_untouched() {
    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    let mut five = [-1.0f64; 5];
    assert_eq!(status_of(reader.read_dense_into(&mut five, 0)), Status::BufferTooSmall);
    assert_eq!(five, [-1.0; 5]);
    assert_eq!(status_of(reader.read_column_into(0, &mut [0.0f64; 1])), Status::BufferTooSmall);
    let (mut offsets, mut columns, mut values) = ([7u64; 3], [7u64; 5], [7.0f64; 5]);
    assert_eq!(status_of(reader.read_csr_into(&mut offsets, &mut columns, &mut values)), Status::BufferTooSmall);
    assert_eq!((offsets, columns, values), ([7; 3], [7; 5], [7.0; 5]));
    assert_eq!(
        status_of(reader.read_csr_into(&mut [0u64; 2], &mut [0u64; 6], &mut [0.0f64; 6])),
        Status::BufferTooSmall
    );

    let mut block = reader.next_block().unwrap().unwrap();
    let mut short = [9.0f64; 5];
    assert_eq!(status_of(block.decode_dense_into(&mut short, 0)), Status::BufferTooSmall);
    assert_eq!(short, [9.0; 5]);
    assert_eq!(status_of(block.decode_dense_into(&mut [0.0f64; 6], 4)), Status::BufferTooSmall, "stride 4 needs 4 + 3");
    block.decode_dense_into(&mut [0.0f64; 7], 4).unwrap();
    let (mut offsets, mut columns, mut values) = ([5u64; 3], [5u32; 5], [5.0f64; 5]);
    assert_eq!(status_of(block.decode_csr_into(&mut offsets, &mut columns, &mut values)), Status::BufferTooSmall);
    assert_eq!((offsets, columns, values), ([5; 3], [5; 5], [5.0; 5]));
    let (mut rows, mut columns, mut values) = ([3u32; 6], [3u32; 6], [3.0f64; 5]);
    assert_eq!(status_of(block.decode_coo_into(&mut rows, &mut columns, &mut values)), Status::BufferTooSmall);
    assert_eq!(values, [3.0; 5]);
    // The exact sizes work.
    assert_eq!(block.decode_coo_into(&mut rows, &mut columns, &mut [0.0f64; 6]).unwrap(), 6);

    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U8, 0, 0).unwrap();
    writer.finish().unwrap();
    let size = writer.memory().unwrap().len();
    let mut copy = vec![0xaau8; size - 1];
    assert_eq!(status_of(writer.copy_memory(&mut copy)), Status::BufferTooSmall);
    assert!(copy.iter().all(|&byte| byte == 0xaa));
}

#[test]
fn values_that_do_not_fit_fail_with_range() {
    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    // 2.5 is no integer.
    let error = reader.read_dense::<i32>().unwrap_err();
    assert_eq!(error.status(), Status::Range, "{error}");
    let mut block = reader.next_block().unwrap().unwrap();
    assert_eq!(status_of(block.decode_dense::<u8>()), Status::Range);
    assert_eq!(block.decode_dense::<f32>().unwrap(), vec![1.0, 2.5, 3.0, 4.0, 5.0, 6.0]);

    // Rule 8: a value not representable in the object's declared type.
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2).unwrap();
    let error = writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[1i32, 300], 0, &WriteOptions::new()).unwrap_err();
    assert_eq!(error.status(), Status::Range);
    assert!(error.message().contains("rule 8"), "{error}");
    writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[1i32, 255], 0, &WriteOptions::new()).unwrap();
    writer.finish().unwrap();
}

#[test]
fn files_that_cannot_be_opened_or_created_fail_with_io() {
    let dir = scratch_dir("io");
    let missing = dir.join("missing.dbdf");
    let error = Reader::open(&missing).unwrap_err();
    assert_eq!(error.status(), Status::Io);
    assert!(error.message().contains("missing.dbdf"), "{error}");
    assert_eq!(status_of(Writer::create(dir.join("no-such-dir").join("m.dbdf"))), Status::Io);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_missing_file_or_folder_is_an_io_error_of_kind_not_found() {
    let dir = scratch_dir("not-found");
    let error = Reader::open(dir.join("missing.dbdf")).unwrap_err();
    assert_eq!((error.status(), error.kind()), (Status::Io, std::io::ErrorKind::NotFound), "{error}");
    let error = Writer::create(dir.join("no-such-dir").join("m.dbdf")).unwrap_err();
    assert_eq!((error.status(), error.kind()), (Status::Io, std::io::ErrorKind::NotFound), "{error}");

    // `?` in a function returning io::Result: the kind survives, and the dbdf error is inside.
    fn open_as_io(path: &std::path::Path) -> std::io::Result<Reader<'static>> {
        Ok(Reader::open(path)?)
    }
    let io_error = open_as_io(&dir.join("missing.dbdf")).unwrap_err();
    assert_eq!(io_error.kind(), std::io::ErrorKind::NotFound);
    let inner = io_error.get_ref().and_then(|inner| inner.downcast_ref::<Error>()).expect("the dbdf error inside");
    assert_eq!(inner.status(), Status::Io);
    assert!(inner.message().contains("missing.dbdf"), "{inner}");

    // An existing file that fails to open for another reason keeps the library's status-based kind.
    let not_dbdf = dir.join("text.dbdf");
    std::fs::write(&not_dbdf, b"definitely not a dbdf file").unwrap();
    let error = Reader::open(&not_dbdf).unwrap_err();
    assert_eq!((error.status(), error.kind()), (Status::Format, std::io::ErrorKind::InvalidData), "{error}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn each_status_has_the_io_error_kind_callers_expect() {
    assert_eq!(Reader::from_bytes(&[]).unwrap_err().kind(), std::io::ErrorKind::UnexpectedEof);
    assert_eq!(Reader::from_bytes(b"definitely not a dbdf file").unwrap_err().kind(), std::io::ErrorKind::InvalidData);
    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    assert_eq!(reader.read_dense::<u8>().unwrap_err().kind(), std::io::ErrorKind::InvalidData); // 2.5: Range
    assert_eq!(reader.seek_block(7).map(|_| ()).unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
    let mut writer = Writer::in_memory().unwrap();
    let error = writer.finish().unwrap_err();
    assert_eq!((error.status(), error.kind()), (Status::CallOrder, std::io::ErrorKind::Other));
    assert_eq!(std::io::Error::from(error).kind(), std::io::ErrorKind::Other);
}

#[test]
fn bytes_that_are_no_dbdf_object_fail_to_open() {
    assert_eq!(status_of(Reader::from_bytes(&[])), Status::Truncated);
    assert_eq!(status_of(Reader::from_bytes(b"definitely not a dbdf file")), Status::Format);
}

#[test]
fn absurd_headers_fail_with_the_file_error_before_anything_is_allocated() {
    let invalid = common::vectors_dir().join("invalid");
    // The header announces 2^63 x 1 cells; one 1 x 1 block is all there is.
    let mut reader = Reader::open(invalid.join("absurd_rows.dbdf")).unwrap();
    assert_eq!(reader.info().unwrap().rows, 1 << 63);
    for error in [
        reader.read_dense::<u8>().unwrap_err(),
        reader.read_csr::<u8>().map(|csr| csr.values.len()).unwrap_err(),
        reader.read_column::<f64>(0).unwrap_err(),
        reader.read_dense_window::<u8>(Window::new(0, 0, 1 << 62, 1)).unwrap_err(),
    ] {
        assert_eq!(error.status(), Status::Format, "{error}");
        assert!(error.message().contains("rule 1"), "{error}");
    }
    // Headers announcing 2^64 - 1 squared cells whose first block is truncated.
    for file in ["absurd_dense_block.dbdf", "absurd_csr_entries.dbdf"] {
        let mut reader = Reader::open(invalid.join(file)).unwrap();
        assert_eq!(reader.read_dense::<f64>().unwrap_err().status(), Status::Truncated, "{file}");
    }
}

/// A sink that accepts `budget` bytes and then fails.
struct FailingSink {
    budget: usize,
}

impl std::io::Write for FailingSink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if data.len() > self.budget {
            return Err(std::io::Error::other("disk full"));
        }
        self.budget -= data.len();
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_sink_fails_the_writer_with_its_error() {
    let mut writer = Writer::to_sink(FailingSink { budget: 4 }).unwrap();
    let result = writer
        .begin_matrix(DataType::Dense, ValueType::F64, 10, 10)
        .and_then(|()| writer.write_dense(&[1.5f64; 100], 0, &WriteOptions::new()))
        .and_then(|()| writer.finish());
    let error: Error = result.unwrap_err();
    assert_eq!(error.status(), Status::Sink);
    assert!(error.message().contains("disk full"), "{error}");
    // A failed writer accepts nothing more.
    assert!(writer.finish().is_err());
}

struct PanickingSink;

impl std::io::Write for PanickingSink {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        panic!("the sink panicked");
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_panicking_sink_panics_in_the_caller_not_across_the_library() {
    let outcome = std::panic::catch_unwind(|| {
        let mut writer = Writer::to_sink(PanickingSink).unwrap();
        let _ = writer.begin_matrix(DataType::Dense, ValueType::F64, 1, 1);
        let _ = writer.add_dense(BlockPlacement::new(0, 0, 1, 1), &[1.0f64], 0, &WriteOptions::new());
        let _ = writer.finish();
    });
    let payload = outcome.expect_err("the panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"the sink panicked"));
}

#[test]
fn the_error_keeps_the_message_of_its_own_call() {
    let bytes = small_matrix();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    let error = reader.column_type(99).unwrap_err();
    let message = error.message().to_string();
    // Later calls, failing or not, change nothing in an error already returned.
    reader.info().unwrap();
    let other = reader.seek_block(42).unwrap_err();
    assert_eq!(error.message(), message);
    assert_ne!(other.message(), message);
    assert!(message.contains("99"), "{message}");
}
