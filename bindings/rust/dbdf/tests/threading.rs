//! What may cross threads: readers, writers, blocks and block iterators are Send (dbdf.h lets a handle move
//! between threads) and not Sync (one thread at a time per handle). Checked at compile time, then exercised.

use std::sync::Arc;

use dbdf::{Block, BlockInfos, BlockPlacement, DataType, Reader, Status, ValueType, WriteOptions, Writer};

fn assert_send<T: Send>() {}

/// Compiles only if `T` is not Sync: for a Sync type both impls apply and the call is ambiguous.
trait AmbiguousIfSync<Marker> {
    fn not_sync() {}
}
impl<T: ?Sized> AmbiguousIfSync<()> for T {}
struct IsSync;
impl<T: ?Sized + Sync> AmbiguousIfSync<IsSync> for T {}

#[test]
fn handles_are_send_and_not_sync() {
    assert_send::<Reader<'static>>();
    assert_send::<Reader<'_>>();
    assert_send::<Writer<'static>>();
    assert_send::<Writer<'_>>();
    assert_send::<Block<'_>>();
    assert_send::<BlockInfos<'_>>();
    assert_send::<dbdf::Error>();
    <Reader<'static> as AmbiguousIfSync<_>>::not_sync();
    <Writer<'static> as AmbiguousIfSync<_>>::not_sync();
    <Block<'static> as AmbiguousIfSync<_>>::not_sync();
    <BlockInfos<'static> as AmbiguousIfSync<_>>::not_sync();
}

fn matrix_bytes(rows: u64, cols: u64) -> Vec<u8> {
    let values: Vec<f64> = (0..rows * cols).map(|cell| cell as f64 * 0.5).collect();
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, rows, cols).unwrap();
    writer.write_dense(&values, 0, &WriteOptions::new().block_shape(3, 3)).unwrap();
    writer.finish().unwrap();
    writer.memory().unwrap().to_vec()
}

#[test]
fn a_reader_and_a_writer_move_to_other_threads() {
    let bytes = matrix_bytes(5, 4);
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    assert!(reader.next_block().unwrap().is_some());
    std::thread::scope(|scope| {
        let moved = scope.spawn(move || {
            // The reader continues where the other thread left it.
            let rest = reader.blocks().count();
            reader.rewind().unwrap();
            (rest, reader.read_dense::<f64>().unwrap())
        });
        let (rest, values) = moved.join().unwrap();
        assert_eq!(rest, 3);
        assert_eq!(values, (0..20).map(|cell| cell as f64 * 0.5).collect::<Vec<_>>());
    });

    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2).unwrap();
    let writer = std::thread::spawn(move || {
        writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[4u8, 2], 0, &WriteOptions::new()).unwrap();
        writer.finish().unwrap();
        writer
    })
    .join()
    .unwrap();
    assert_eq!(Reader::from_bytes(writer.memory().unwrap()).unwrap().read_dense::<u8>().unwrap(), vec![4, 2]);
}

#[test]
fn readers_of_the_same_bytes_work_concurrently() {
    let bytes = Arc::new(matrix_bytes(30, 20));
    let expected: Vec<f64> = (0..600).map(|cell| cell as f64 * 0.5).collect();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let bytes = Arc::clone(&bytes);
            std::thread::spawn(move || {
                let mut sums = Vec::new();
                for _ in 0..50 {
                    let mut reader = Reader::from_bytes(&bytes).unwrap();
                    sums.push(reader.read_dense::<f64>().unwrap());
                }
                sums
            })
        })
        .collect();
    for thread in threads {
        for values in thread.join().unwrap() {
            assert_eq!(values, expected);
        }
    }
}

#[test]
fn each_thread_gets_the_message_of_its_own_failure() {
    let bytes = Arc::new(matrix_bytes(3, 3));
    let threads: Vec<_> = (0..4u64)
        .map(|thread| {
            let bytes = Arc::clone(&bytes);
            std::thread::spawn(move || {
                let reader = Reader::from_bytes(&bytes).unwrap();
                for _ in 0..200 {
                    let column = 100 + thread;
                    let error = reader.column_type(column).unwrap_err();
                    assert_eq!(error.status(), Status::InvalidArgument);
                    assert!(error.message().contains(&column.to_string()), "thread {thread}: {error}");
                    reader.info().unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}
