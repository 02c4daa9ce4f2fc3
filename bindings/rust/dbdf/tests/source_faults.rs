//! Byte sources and sinks under faults: every golden vector read through a source of short reads (sized or not)
//! reads as from memory; a source failing at any byte gives a `Status::Io` error with the source's `io::Error` as
//! its `source()` (or, where the byte is never read, the same reading); a sink failing after any number of bytes
//! fails the writer with its `io::Error`; round trips through every kind of source and sink; and sources read
//! from several threads at once.

mod common;

use std::error::Error as _;
use std::io::{self, Cursor, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::vectors_dir;
use dbdf::{
    BlockPlacement, ConcurrentReadAt, DataType, Dialect, ReadAt, Reader, ReaderOptions, Status, ValueType, Writer,
};

/// Every golden vector, with the dialect it is read in.
fn every_vector() -> Vec<(PathBuf, Dialect)> {
    let mut found = Vec::new();
    let mut folders = vec![vectors_dir()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|extension| extension == "dbdf") {
                let daphne = folder.file_name().is_some_and(|name| name == "daphne-runtime");
                found.push((path, if daphne { Dialect::Daphne } else { Dialect::Spec }));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(found.len() > 100, "only {} golden vectors under {}", found.len(), vectors_dir().display());
    found
}

/// Bytes served `largest` at a time, failing with an `io::Error` for any read that covers byte `fail_at`.
struct FaultySource {
    bytes: Vec<u8>,
    largest: usize,
    fail_at: Option<u64>,
    sized: bool,
}

impl ReadAt for FaultySource {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        let start = (offset as usize).min(self.bytes.len());
        let count = buffer.len().min(self.largest).min(self.bytes.len() - start);
        if self.fail_at.is_some_and(|byte| byte >= offset && byte < offset + count as u64) {
            return Err(io::Error::new(io::ErrorKind::TimedOut, format!("injected failure at {offset}")));
        }
        buffer[..count].copy_from_slice(&self.bytes[start..start + count]);
        Ok(count)
    }

    fn size(&mut self) -> io::Result<Option<u64>> {
        Ok(self.sized.then_some(self.bytes.len() as u64))
    }
}

/// Everything a reader says about its object, in one text; the first I/O error ends it and is returned.
fn transcript(opened: dbdf::Result<Reader<'_>>) -> (String, Option<dbdf::Error>) {
    let mut reader = match opened {
        Ok(reader) => reader,
        Err(error) if error.status() == Status::Io => return ("open io".into(), Some(error)),
        Err(error) => return (format!("open {:?}", error.status()), None),
    };
    let mut text = format!("{:?}\n", reader.info());
    loop {
        let mut block = match reader.next_block() {
            Ok(Some(block)) => block,
            Ok(None) => break,
            Err(error) if error.status() == Status::Io => return (text, Some(error)),
            Err(error) => {
                text += &format!("end {:?}", error.status());
                break;
            }
        };
        text += &format!("{:?}: ", block.info());
        match block.payload() {
            Ok(payload) => text += &format!("{payload:?}"),
            Err(error) if error.status() == Status::Io => return (text, Some(error)),
            Err(error) => text += &format!("payload {:?}", error.status()),
        }
        if block.info().cells() <= 1 << 16 {
            match block.decode_dense::<f64>() {
                Ok(values) => text += &format!(" {:?}", values.iter().map(|value| value.to_bits()).collect::<Vec<_>>()),
                Err(error) if error.status() == Status::Io => return (text, Some(error)),
                Err(error) => text += &format!(" decode {:?}", error.status()),
            }
        }
        text += "\n";
    }
    match reader.violations() {
        Ok(violations) => text += &format!(" violations {}", violations.len()),
        Err(error) if error.status() == Status::Io => return (text, Some(error)),
        Err(error) => text += &format!(" validate {:?}", error.status()),
    }
    (text, None)
}

fn memory_transcript(bytes: &[u8], dialect: Dialect) -> String {
    let (text, error) = transcript(Reader::from_bytes_with(bytes, dialect));
    assert!(error.is_none(), "memory cannot fail with an I/O error");
    text
}

fn source_transcript(source: FaultySource, dialect: Dialect) -> (String, Option<dbdf::Error>) {
    transcript(Reader::from_source_with_options(source, &ReaderOptions::new().dialect(dialect), 0))
}

#[test]
fn every_golden_vector_reads_through_short_reads_as_from_memory() {
    for (path, dialect) in every_vector() {
        let bytes = std::fs::read(&path).unwrap();
        let expected = memory_transcript(&bytes, dialect);
        let largest = if bytes.len() <= 2048 { 1 } else { 7 };
        for sized in [true, false] {
            let source = FaultySource { bytes: bytes.clone(), largest, fail_at: None, sized };
            let (text, error) = source_transcript(source, dialect);
            assert!(error.is_none(), "{}: {error:?}", path.display());
            assert_eq!(text, expected, "{} (sized: {sized})", path.display());
        }
    }
}

#[test]
fn every_golden_vector_failing_at_every_byte_gives_io_errors_with_the_sources_error() {
    for (path, dialect) in every_vector() {
        let bytes = std::fs::read(&path).unwrap();
        let expected = memory_transcript(&bytes, dialect);
        for fail_at in 0..bytes.len() as u64 {
            let source =
                FaultySource { bytes: bytes.clone(), largest: usize::MAX, fail_at: Some(fail_at), sized: true };
            let (text, error) = source_transcript(source, dialect);
            let Some(error) = error else {
                // Only a byte the reader never needs may fail without an error.
                assert_eq!(text, expected, "{} failing at {fail_at}", path.display());
                continue;
            };
            assert!(error.message().contains("injected failure at"), "{}: {error}", path.display());
            let cause = error.source().and_then(|source| source.downcast_ref::<io::Error>());
            let cause = cause.unwrap_or_else(|| panic!("{} failing at {fail_at}: no io::Error source", path.display()));
            assert_eq!(cause.kind(), io::ErrorKind::TimedOut);
        }
    }
}

/// A sink that takes `capacity` bytes, then fails every write.
struct FillingSink {
    written: Arc<Mutex<Vec<u8>>>,
    capacity: usize,
}

impl Write for FillingSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut written = self.written.lock().unwrap();
        let room = self.capacity - written.len();
        if room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "the sink is full"));
        }
        let count = bytes.len().min(room);
        written.extend_from_slice(&bytes[..count]);
        Ok(count)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

const ROWS: u64 = 40;
const COLS: u64 = 12;
const COLS_U32: u32 = 12;

/// The value of cell `index` (row-major) of the test matrix: its odd bands of 10 rows hold one value in five.
fn cell(index: u64) -> f64 {
    let band_cell = index % (10 * COLS);
    let sparse_band = (index / (10 * COLS)) % 2 == 1;
    if sparse_band && !band_cell.is_multiple_of(5) {
        0.0
    } else {
        index as f64 * 0.25 - 3.0
    }
}

/// A 40 x 12 matrix in four blocks (two of them sparse enough to be stored as CSR), written into `output`.
fn write_matrix(output: impl Write + Send) -> dbdf::Result<()> {
    let mut writer = Writer::to_sink(output)?;
    writer.begin_matrix(DataType::Dense, ValueType::F64, ROWS, COLS)?;
    for band in 0..4u64 {
        let values: Vec<f64> = (0..10 * COLS).map(|i| cell(band * 10 * COLS + i)).collect();
        writer.add_dense(BlockPlacement::new(band * 10, 0, 10, COLS_U32), &values, 0, &Default::default())?;
    }
    writer.finish()
}

fn expected_matrix() -> Vec<f64> {
    (0..ROWS * COLS).map(cell).collect()
}

fn matrix_bytes() -> Vec<u8> {
    let written = Arc::new(Mutex::new(Vec::new()));
    write_matrix(FillingSink { written: Arc::clone(&written), capacity: usize::MAX }).unwrap();
    let bytes = written.lock().unwrap().clone();
    bytes
}

#[test]
fn a_sink_failing_after_any_number_of_bytes_fails_the_writer_with_its_error() {
    let complete = matrix_bytes();
    for capacity in 0..complete.len() {
        let written = Arc::new(Mutex::new(Vec::new()));
        let error = write_matrix(FillingSink { written: Arc::clone(&written), capacity })
            .expect_err(&format!("a sink of {capacity} bytes cannot hold {} bytes", complete.len()));
        assert_eq!(error.status(), Status::Sink, "capacity {capacity}: {error}");
        let cause = error.source().and_then(|source| source.downcast_ref::<io::Error>());
        assert_eq!(cause.map(io::Error::kind), Some(io::ErrorKind::StorageFull), "capacity {capacity}: {error}");
        assert_eq!(written.lock().unwrap()[..], complete[..capacity], "what reached the sink is the file's start");
    }
}

/// Positioned reads over shared bytes, callable from several threads, optionally failing from a byte on.
struct SharedBytes {
    bytes: Vec<u8>,
    fail_from: u64,
}

impl ConcurrentReadAt for SharedBytes {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        if offset + buffer.len() as u64 > self.fail_from {
            return Err(io::Error::new(io::ErrorKind::ConnectionAborted, format!("remote read at {offset} aborted")));
        }
        self.bytes.as_slice().read_at(offset, buffer)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        Ok(Some(self.bytes.len() as u64))
    }
}

#[test]
fn round_trips_through_every_kind_of_source_and_sink() {
    let expected = expected_matrix();
    let bytes = matrix_bytes();
    // Sinks: a Vec, a Cursor, a file; each output read back through a Cursor, a file, one-byte reads and the
    // concurrent sources.
    let mut vec_output = Vec::new();
    write_matrix(&mut vec_output).unwrap();
    assert_eq!(vec_output, bytes);
    let mut cursor_output = Cursor::new(Vec::new());
    write_matrix(&mut cursor_output).unwrap();
    assert_eq!(cursor_output.get_ref(), &bytes);
    let path = common::scratch_dir("source-faults").join("matrix.dbdf");
    write_matrix(std::fs::File::create(&path).unwrap()).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    let threads = ReaderOptions::new().threads(std::num::NonZeroUsize::new(3));
    let readings: Vec<(&str, Reader<'_>)> = vec![
        ("cursor", Reader::from_source(Cursor::new(bytes.clone())).unwrap()),
        ("file", Reader::from_source(std::fs::File::open(&path).unwrap()).unwrap()),
        (
            "one-byte reads",
            Reader::from_source(FaultySource { bytes: bytes.clone(), largest: 1, fail_at: None, sized: false })
                .unwrap(),
        ),
        ("concurrent vec", Reader::from_concurrent_source_with_options(bytes.clone(), &threads, 0).unwrap()),
        ("concurrent slice", Reader::from_concurrent_source(bytes.as_slice()).unwrap()),
        (
            "concurrent file",
            Reader::from_concurrent_source_with_options(std::fs::File::open(&path).unwrap(), &threads, 0).unwrap(),
        ),
        (
            "concurrent Arc",
            Reader::from_concurrent_source(Arc::new(SharedBytes { bytes: bytes.clone(), fail_from: u64::MAX }))
                .unwrap(),
        ),
    ];
    for (name, mut reader) in readings {
        assert_eq!(reader.read_dense::<f64>().unwrap(), expected, "{name}");
        assert_eq!(
            reader.read_column::<f64>(5).unwrap(),
            (0..ROWS).map(|row| expected[(row * COLS + 5) as usize]).collect::<Vec<_>>(),
            "{name}"
        );
    }
}

/// Bytes whose reads fail (or panic) on any thread but the test's while `failing` is set; the test's own reads
/// then wait (up to two seconds) for a decode thread's, so that the failure surely happens off the calling thread.
struct FailingOffThread {
    bytes: Vec<u8>,
    test_thread: std::thread::ThreadId,
    failing: AtomicBool,
    panicking: bool,
    failed_off_thread: AtomicBool,
}

impl ConcurrentReadAt for FailingOffThread {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        if self.failing.load(Ordering::SeqCst) {
            if std::thread::current().id() != self.test_thread {
                self.failed_off_thread.store(true, Ordering::SeqCst);
                if self.panicking {
                    panic!("the remote client broke at {offset}");
                }
                return Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    format!("remote read at {offset} aborted"),
                ));
            }
            let give_up = Instant::now() + Duration::from_secs(2);
            while !self.failed_off_thread.load(Ordering::SeqCst) && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.bytes.as_slice().read_at(offset, buffer)
    }
}

fn reader_failing_off_thread(panicking: bool) -> (Reader<'static>, Arc<FailingOffThread>) {
    let source = Arc::new(FailingOffThread {
        bytes: matrix_bytes(),
        test_thread: std::thread::current().id(),
        failing: AtomicBool::new(false),
        panicking,
        failed_off_thread: AtomicBool::new(false),
    });
    let options = ReaderOptions::new().threads(std::num::NonZeroUsize::new(4));
    // A window of 16 bytes: every payload read goes to the source directly, on the thread decoding it.
    let mut reader = Reader::from_concurrent_source_with_options(Arc::clone(&source), &options, 16).unwrap();
    reader.build_index().unwrap();
    source.failing.store(true, Ordering::SeqCst);
    (reader, source)
}

#[test]
fn a_concurrent_sources_failure_on_a_decode_thread_is_the_errors_source_and_the_reader_goes_on() {
    let (mut reader, source) = reader_failing_off_thread(false);
    let error = reader.read_dense::<f64>().unwrap_err();
    assert!(source.failed_off_thread.load(Ordering::SeqCst));
    assert_eq!(error.status(), Status::Io);
    assert!(error.message().contains("aborted"), "{error}");
    let cause = error.source().and_then(|source| source.downcast_ref::<io::Error>()).expect("the io::Error");
    assert_eq!(cause.kind(), io::ErrorKind::ConnectionAborted);
    source.failing.store(false, Ordering::SeqCst);
    assert_eq!(reader.read_dense::<f64>().unwrap(), expected_matrix());
}

#[test]
fn a_panic_on_a_decode_thread_continues_in_the_caller() {
    let (mut reader, _source) = reader_failing_off_thread(true);
    let outcome = catch_unwind(AssertUnwindSafe(|| reader.read_dense::<f64>()));
    let payload = outcome.expect_err("the panic continues in the caller");
    assert!(payload.downcast_ref::<String>().unwrap().contains("the remote client broke at"));
}
