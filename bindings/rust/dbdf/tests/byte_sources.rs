//! Readers over `Read + Seek` and custom positioned reads, writers into `Write`: round trips, short reads, the
//! source's io::Error as the error's source, and panics that continue in the caller.

use std::error::Error as _;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use dbdf::{DataType, ReadAt, Reader, ReaderOptions, Status, ValueType, Writer};

fn matrix_bytes() -> (Vec<u8>, Vec<f64>) {
    let values: Vec<f64> = (0..200 * 30).map(|i| f64::from(i) * 0.5 - 7.0).collect();
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, 200, 30).unwrap();
    for band in 0..4u32 {
        let start = (band * 50 * 30) as usize;
        writer
            .add_dense(
                dbdf::BlockPlacement::new(u64::from(band) * 50, 0, 50, 30),
                &values[start..start + 50 * 30],
                0,
                &Default::default(),
            )
            .unwrap();
    }
    writer.finish().unwrap();
    (writer.memory().unwrap().to_vec(), values)
}

/// Positioned reads of at most one byte each, failing from `fail_from` to the end (past it: the end, 0 bytes).
struct Trickle {
    data: Vec<u8>,
    fail_from: u64,
    panic: bool,
    sized: bool,
}

impl ReadAt for Trickle {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        if offset >= self.fail_from && offset < self.data.len() as u64 {
            if self.panic {
                panic!("the source broke at {offset}");
            }
            return Err(io::Error::new(io::ErrorKind::ConnectionReset, format!("connection reset at {offset}")));
        }
        let Some(&byte) = self.data.get(offset as usize) else { return Ok(0) };
        buffer[0] = byte;
        Ok(1)
    }

    fn size(&mut self) -> io::Result<Option<u64>> {
        Ok(self.sized.then_some(self.data.len() as u64))
    }
}

#[test]
fn a_cursor_reads_as_the_bytes_do() {
    let (bytes, values) = matrix_bytes();
    let mut reader = Reader::from_source(Cursor::new(bytes.clone())).unwrap();
    assert_eq!(reader.info().unwrap().total_bytes, bytes.len() as u64);
    assert_eq!(reader.read_dense::<f64>().unwrap(), values);
}

#[test]
fn one_byte_reads_of_unknown_size_read_the_same() {
    let (bytes, values) = matrix_bytes();
    let mut reader =
        Reader::from_source(Trickle { data: bytes, fail_from: u64::MAX, panic: false, sized: false }).unwrap();
    assert_eq!(reader.read_dense::<f64>().unwrap(), values);
}

#[test]
fn the_sources_io_error_is_the_errors_source_and_the_reader_goes_on() {
    let (bytes, values) = matrix_bytes();
    let size = bytes.len() as u64;
    let source = Trickle { data: bytes, fail_from: size - 100, panic: false, sized: true };
    let mut reader = Reader::from_source_with_options(source, &ReaderOptions::new(), 16).unwrap();
    let error = reader.read_dense::<f64>().unwrap_err();
    assert_eq!(error.status(), Status::Io);
    assert!(error.message().contains("connection reset at"), "{error}");
    let source = error.source().expect("the io::Error").downcast_ref::<io::Error>().unwrap();
    assert_eq!(source.kind(), io::ErrorKind::ConnectionReset);
    drop(reader);
    let (bytes, _) = matrix_bytes();
    let mut again = Reader::from_source(Cursor::new(bytes)).unwrap();
    assert_eq!(again.read_dense::<f64>().unwrap(), values);
}

#[test]
fn a_panic_in_the_source_continues_in_the_caller() {
    let (bytes, _) = matrix_bytes();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        Reader::from_source(Trickle { data: bytes, fail_from: 0, panic: true, sized: false })
    }));
    let payload = outcome.expect_err("the panic continues");
    assert!(payload.downcast_ref::<String>().unwrap().contains("the source broke at"));
}

struct FullDisk;

impl Write for FullDisk {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::StorageFull, "quota exceeded"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_sink_is_the_errors_source() {
    let mut writer = Writer::to_sink(FullDisk).unwrap();
    let mut result = writer.begin_matrix(DataType::Dense, ValueType::F64, 1, 1);
    if result.is_ok() {
        result = writer.add_dense(dbdf::BlockPlacement::new(0, 0, 1, 1), &[1.5f64], 0, &Default::default());
    }
    if result.is_ok() {
        result = writer.finish();
    }
    let error = result.unwrap_err();
    assert_eq!(error.status(), Status::Sink);
    let source = error.source().expect("the io::Error").downcast_ref::<io::Error>().unwrap();
    assert_eq!(source.kind(), io::ErrorKind::StorageFull);
}

#[test]
fn a_file_written_through_a_sink_reads_back_through_a_source() {
    let (bytes, values) = matrix_bytes();
    let mut file = tempfile_in_target();
    file.write_all(&bytes).unwrap();
    file.seek(SeekFrom::Start(0)).unwrap();
    let mut check = Vec::new();
    file.read_to_end(&mut check).unwrap();
    assert_eq!(check, bytes);
    let mut reader = Reader::from_source(file).unwrap();
    assert_eq!(reader.read_dense::<f64>().unwrap(), values);
}

fn tempfile_in_target() -> std::fs::File {
    let path = std::env::temp_dir().join(format!("dbdf-rust-source-{}.dbdf", std::process::id()));
    let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    file
}
