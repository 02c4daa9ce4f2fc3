//! The options readers and writers are opened with beyond the dialect: the threads of the whole-object reads and
//! of `write_dense` never change a value or a byte, a durable file write gives the same file as a default one and
//! leaves nothing else in its directory, and thread counts the C interface cannot take are refused.

mod common;

use std::num::NonZeroUsize;
use std::path::Path;

use common::{bits, scratch_dir};
use dbdf::{
    DataType, Dialect, FrameColumn, Reader, ReaderOptions, Status, ValueType, Window, WriteOptions, Writer,
    WriterOptions,
};

/// 1200 x 1800 f64, 17.3 MB: above the 16 MiB from which the automatic choice uses several threads.
const ROWS: u64 = 1200;
const COLS: u64 = 1800;
const TILE: u32 = 256;

/// Tiles of four kinds, so the automatic encoding analysed ahead on the helper thread differs from tile to tile:
/// empty, sparse, small integers (stored as i8) and floats that need all 64 bits.
fn cell(row: u64, col: u64) -> f64 {
    match (row / u64::from(TILE) + col / u64::from(TILE)) % 4 {
        0 => 0.0,
        1 if (row * 7 + col * 13).is_multiple_of(97) => row as f64 - col as f64 - 0.5,
        1 => 0.0,
        2 => ((row * 31 + col * 17) % 200) as f64 - 100.0,
        _ => (row as f64 * 0.37 + col as f64 * 1.0e-3).sin(),
    }
}

fn matrix() -> Vec<f64> {
    (0..ROWS).flat_map(|row| (0..COLS).map(move |col| cell(row, col))).collect()
}

fn threads(count: usize) -> Option<NonZeroUsize> {
    NonZeroUsize::new(count)
}

fn write_matrix(writer: &mut Writer<'_>, values: &[f64]) {
    writer.begin_matrix(DataType::Dense, ValueType::F64, ROWS, COLS).unwrap();
    writer.write_dense(values, 0, &WriteOptions::new().block_shape(TILE, TILE)).unwrap();
    writer.finish().unwrap();
}

fn in_memory(values: &[f64], options: &WriterOptions) -> Vec<u8> {
    let mut writer = Writer::in_memory_with(options).unwrap();
    write_matrix(&mut writer, values);
    writer.memory().unwrap().to_vec()
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn write_dense_writes_the_same_bytes_on_one_or_two_threads() {
    let values = matrix();
    let one = in_memory(&values, &WriterOptions::new().threads(NonZeroUsize::MIN));
    let two = in_memory(&values, &WriterOptions::new().threads(threads(2)));
    let automatic = in_memory(&values, &WriterOptions::new());
    assert!(one == two, "threads 1 and 2 wrote different bytes ({} and {} bytes)", one.len(), two.len());
    assert!(one == automatic, "threads 1 and automatic wrote different bytes");

    let mut blocks = Reader::from_bytes(&one).unwrap();
    let block_types: std::collections::BTreeSet<String> =
        blocks.blocks().map(|info| info.unwrap().block_type.to_string()).collect();
    assert!(block_types.len() >= 3, "the tiles should take several encodings, got {block_types:?}");

    // A sink writer and a file writer on two threads write the same bytes as the memory writer on one.
    let mut through_sink = Vec::new();
    let mut writer = Writer::to_sink_with(&mut through_sink, &WriterOptions::new().threads(threads(2))).unwrap();
    write_matrix(&mut writer, &values);
    drop(writer);
    assert!(through_sink == one, "the sink writer on two threads wrote different bytes");
    let dir = scratch_dir("threads-file");
    let path = dir.join("m.dbdf");
    write_matrix(&mut Writer::create_with(&path, &WriterOptions::new().threads(threads(2))).unwrap(), &values);
    assert!(std::fs::read(&path).unwrap() == one, "the file writer on two threads wrote different bytes");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn whole_object_reads_give_the_same_values_on_any_number_of_threads() {
    let values = matrix();
    let bytes = in_memory(&values, &WriterOptions::new());
    let window = Window::new(100, 200, 700, 900);
    let window_values: Vec<f64> = (window.row..window.row + window.rows)
        .flat_map(|row| (window.col..window.col + window.cols).map(move |col| cell(row, col)))
        .collect();
    let dir = scratch_dir("threads-read");
    let path = dir.join("m.dbdf");
    std::fs::write(&path, &bytes).unwrap();

    for count in [1, 2, 0] {
        let options = ReaderOptions::new().threads(threads(count));
        let mut from_bytes = Reader::from_bytes_with_options(&bytes, &options).unwrap();
        assert_eq!(bits(&from_bytes.read_dense::<f64>().unwrap()), bits(&values), "{count} threads, from bytes");
        let window_read = from_bytes.read_dense_window::<f64>(window).unwrap();
        assert_eq!(bits(&window_read), bits(&window_values), "{count} threads, window");
        let column_read = from_bytes.read_column::<f64>(3 * u64::from(TILE) + 5).unwrap();
        let column: Vec<f64> = (0..ROWS).map(|row| cell(row, 3 * u64::from(TILE) + 5)).collect();
        assert_eq!(bits(&column_read), bits(&column), "{count} threads, matrix column");

        // Into a caller's buffer with a row stride: the padding between rows stays untouched.
        let stride = COLS + 3;
        let mut strided = vec![-1.0f64; (ROWS * stride) as usize];
        let mut from_file = Reader::open_with_options(&path, &options).unwrap();
        from_file.read_dense_into(&mut strided, stride).unwrap();
        for row in 0..ROWS as usize {
            let stored = &strided[row * stride as usize..][..stride as usize];
            assert_eq!(bits(&stored[..COLS as usize]), bits(&values[row * COLS as usize..][..COLS as usize]));
            assert_eq!(stored[COLS as usize..], [-1.0; 3], "{count} threads: row {row}'s padding was written");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn frame_columns_read_the_same_on_any_number_of_threads() {
    const FRAME_ROWS: u64 = 700_000;
    let ids: Vec<i64> = (0..FRAME_ROWS as i64).map(|row| row * 3 - 1_000_000).collect();
    let scores: Vec<f64> = (0..FRAME_ROWS).map(|row| (row as f64).sqrt() / 7.0).collect();
    let mut writer = Writer::in_memory().unwrap();
    writer
        .begin_frame(FRAME_ROWS, &[FrameColumn::new("id", ValueType::I64), FrameColumn::new("score", ValueType::F64)])
        .unwrap();
    let row_blocks = WriteOptions::new().block_shape(100_000, 0);
    writer.write_column(0, &ids, &row_blocks).unwrap();
    writer.write_column(1, &scores, &row_blocks).unwrap();
    writer.finish().unwrap();
    let bytes = writer.memory().unwrap();

    for count in [1, 2, 0] {
        let mut reader = Reader::from_bytes_with_options(bytes, &ReaderOptions::new().threads(threads(count))).unwrap();
        assert_eq!(reader.read_column::<i64>(0).unwrap(), ids, "{count} threads");
        assert_eq!(bits(&reader.read_column::<f64>(1).unwrap()), bits(&scores), "{count} threads");
    }
}

#[test]
fn the_dialect_and_the_threads_are_chosen_together() {
    let values: Vec<f64> = (0..300 * 400).map(|i| f64::from(i % 1000) * 0.25).collect();
    let mut writer =
        Writer::in_memory_with(&WriterOptions::new().dialect(Dialect::Daphne).threads(threads(2))).unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, 300, 400).unwrap();
    writer.write_dense(&values, 0, &WriteOptions::new()).unwrap();
    writer.finish().unwrap();
    let bytes = writer.memory().unwrap();

    let options = ReaderOptions::new().dialect(Dialect::Daphne).threads(threads(2));
    let mut reader = Reader::from_bytes_with_options(bytes, &options).unwrap();
    assert_eq!(reader.dialect().unwrap(), Dialect::Daphne);
    assert_eq!(reader.read_dense::<f64>().unwrap(), values);
    // The spec dialect (the options' default) does not read the runtime's layout.
    let spec = Reader::from_bytes_with_options(bytes, &ReaderOptions::new().threads(threads(2)))
        .and_then(|mut reader| reader.read_dense::<f64>());
    assert!(spec.is_err(), "the spec dialect read the runtime's layout");
}

#[test]
fn a_durable_write_gives_the_same_file_and_leaves_nothing_else() {
    let values: Vec<i32> = (0..300 * 500).map(|i| if i % 11 == 0 { 0 } else { i * 37 - 90_000 }).collect();
    let write = |path: &Path, options: &WriterOptions| {
        let mut writer = Writer::create_with(path, options).unwrap();
        writer.begin_matrix(DataType::Dense, ValueType::I32, 300, 500).unwrap();
        writer.write_dense(&values, 0, &WriteOptions::new().block_shape(128, 128)).unwrap();
        writer.finish().unwrap();
    };
    let default_dir = scratch_dir("durable-default");
    let durable_dir = scratch_dir("durable");
    write(&default_dir.join("m.dbdf"), &WriterOptions::new());
    write(&durable_dir.join("m.dbdf"), &WriterOptions::new().durable(true));
    let expected = std::fs::read(default_dir.join("m.dbdf")).unwrap();
    assert!(std::fs::read(durable_dir.join("m.dbdf")).unwrap() == expected);
    assert_eq!(file_names(&durable_dir), ["m.dbdf"]);

    // Replacing an existing file durably.
    std::fs::write(durable_dir.join("m.dbdf"), b"old contents").unwrap();
    write(&durable_dir.join("m.dbdf"), &WriterOptions::new().durable(true).threads(threads(2)));
    assert!(std::fs::read(durable_dir.join("m.dbdf")).unwrap() == expected);
    assert_eq!(file_names(&durable_dir), ["m.dbdf"]);
    let mut reader = Reader::open(durable_dir.join("m.dbdf")).unwrap();
    assert_eq!(reader.read_dense::<i32>().unwrap(), values);

    // A durable writer dropped before finish leaves the old file and no temporary file.
    let mut unfinished = Writer::create_with(durable_dir.join("m.dbdf"), &WriterOptions::new().durable(true)).unwrap();
    unfinished.begin_matrix(DataType::Dense, ValueType::I32, 300, 500).unwrap();
    drop(unfinished);
    assert!(std::fs::read(durable_dir.join("m.dbdf")).unwrap() == expected);
    assert_eq!(file_names(&durable_dir), ["m.dbdf"]);

    // The daphne dialect's .meta sidecar is written durably too, with the same contents.
    let daphne = WriterOptions::new().dialect(Dialect::Daphne);
    write(&default_dir.join("d.dbdf"), &daphne);
    write(&durable_dir.join("d.dbdf"), &daphne.durable(true));
    for name in ["d.dbdf", "d.dbdf.meta"] {
        let default_bytes = std::fs::read(default_dir.join(name)).unwrap();
        assert!(std::fs::read(durable_dir.join(name)).unwrap() == default_bytes, "{name} differs");
    }
    assert_eq!(file_names(&durable_dir), ["d.dbdf", "d.dbdf.meta", "m.dbdf"]);

    // Memory writers have nothing to sync: the option changes nothing there.
    let mut memory = Writer::in_memory_with(&WriterOptions::new().durable(true)).unwrap();
    memory.begin_matrix(DataType::Dense, ValueType::I32, 300, 500).unwrap();
    memory.write_dense(&values, 0, &WriteOptions::new().block_shape(128, 128)).unwrap();
    memory.finish().unwrap();
    assert!(memory.memory().unwrap() == expected);

    std::fs::remove_dir_all(default_dir).unwrap();
    std::fs::remove_dir_all(durable_dir).unwrap();
}

#[test]
#[cfg(target_pointer_width = "64")]
fn thread_counts_the_library_cannot_take_are_refused_when_opening() {
    let too_many = threads(u32::MAX as usize + 1);
    let valid = {
        let mut writer = Writer::in_memory().unwrap();
        writer.begin_matrix(DataType::Dense, ValueType::F64, 2, 2).unwrap();
        writer.write_dense(&[1.0, 2.0, 3.0, 4.0], 0, &WriteOptions::new()).unwrap();
        writer.finish().unwrap();
        writer.memory().unwrap().to_vec()
    };
    let error = Reader::from_bytes_with_options(&valid, &ReaderOptions::new().threads(too_many)).err().unwrap();
    assert_eq!(error.status(), Status::InvalidArgument);
    assert!(error.message().contains("threads"), "{}", error.message());

    let dir = scratch_dir("threads-refused");
    let error = Reader::open_with_options(dir.join("absent.dbdf"), &ReaderOptions::new().threads(too_many)).err();
    assert_eq!(error.unwrap().status(), Status::InvalidArgument);
    let error = Writer::create_with(dir.join("m.dbdf"), &WriterOptions::new().threads(too_many)).err().unwrap();
    assert_eq!(error.status(), Status::InvalidArgument);
    assert!(file_names(&dir).is_empty(), "a refused writer created {:?}", file_names(&dir));
    assert_eq!(
        Writer::in_memory_with(&WriterOptions::new().threads(too_many)).err().unwrap().status(),
        Status::InvalidArgument
    );
    std::fs::remove_dir_all(dir).unwrap();

    // The largest count the library takes is accepted; it never starts more threads than the work has pieces.
    let most = ReaderOptions::new().threads(threads(u32::MAX as usize));
    assert_eq!(
        Reader::from_bytes_with_options(&valid, &most).unwrap().read_dense::<f64>().unwrap(),
        [1.0, 2.0, 3.0, 4.0]
    );
}
