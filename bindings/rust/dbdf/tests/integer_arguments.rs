//! Integer arguments: the safe crate's parameters have the C types' own widths (`u64` for positions, indices,
//! object shapes and strides, `u32` for block shapes and tile sizes), so a negative or oversized value does not
//! compile, and the largest value of each type reaches the library unchanged. The library then refuses it itself,
//! naming the value, or takes it. The one narrowing, a thread count (`usize`) into a C `unsigned`, is checked by
//! the options (see `dialect.rs`).

mod common;

use common::vectors_dir;
use dbdf::{BlockPlacement, DataType, FrameColumn, Reader, Status, ValueType, Window, WriteOptions, Writer};

/// The error of `result`, which must be InvalidArgument with a message naming `value`: the value arrived whole.
fn refused_naming<T: std::fmt::Debug>(result: dbdf::Result<T>, value: u64) {
    let error = result.expect_err("the library refuses a value that large");
    assert_eq!(error.status(), Status::InvalidArgument, "{error}");
    assert!(error.message().contains(&value.to_string()), "{error}");
}

/// A 4 x 4 frame: column and block 0 exist.
fn frame() -> Reader<'static> {
    Reader::open(vectors_dir().join("frame_mixed.dbdf")).unwrap()
}

fn matrix_writer() -> Writer<'static> {
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, 4, 4).unwrap();
    writer
}

#[test]
fn the_largest_column_and_block_index_reach_the_library() {
    let mut reader = frame();
    refused_naming(reader.column_type(u64::MAX), u64::MAX);
    refused_naming(reader.column_label_bytes(u64::MAX), u64::MAX);
    refused_naming(reader.read_column::<f64>(u64::MAX), u64::MAX);
    refused_naming(reader.index_entry(u64::MAX), u64::MAX);
    refused_naming(reader.seek_block(u64::MAX).map(|block| *block.info()), u64::MAX);
}

#[test]
fn the_largest_window_position_reaches_the_library() {
    let mut reader = frame();
    for window in [Window::new(u64::MAX, 0, 1, 1), Window::new(0, u64::MAX, 1, 1)] {
        let error = reader.read_dense_window::<f64>(window).expect_err("outside the object");
        assert_eq!(error.status(), Status::InvalidArgument, "{error}");
    }
}

#[test]
fn the_largest_block_positions_and_shapes_reach_the_library() {
    let mut writer = matrix_writer();
    for placement in [
        BlockPlacement::new(u64::MAX, 0, 1, 1),
        BlockPlacement::new(0, u64::MAX, 1, 1),
        BlockPlacement::new(0, 0, u32::MAX, 1),
        BlockPlacement::new(0, 0, 1, u32::MAX),
    ] {
        let error = writer.add_empty(placement).expect_err("outside the object");
        assert_eq!(error.status(), Status::InvalidArgument, "{placement:?}: {error}");
    }
    // The refusals left the writer usable, and a tile as large as a u32 holds is the whole 4 x 4 matrix.
    let tiles = WriteOptions::new().block_shape(u32::MAX, u32::MAX);
    writer.write_dense(&[1.0f64; 16], 0, &tiles).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    assert_eq!(reader.build_index().unwrap(), 1);
}

#[test]
fn the_largest_shapes_and_frame_column_reach_the_library() {
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Csr, ValueType::F64, u64::MAX, u64::MAX).unwrap();
    let info_rows = writer.bytes_written().unwrap();
    assert!(info_rows > 0, "the header of a u64::MAX x u64::MAX matrix was written");

    let mut frame_writer = Writer::in_memory().unwrap();
    frame_writer.begin_frame(4, &[FrameColumn::new("a", ValueType::F64)]).unwrap();
    refused_naming(frame_writer.write_column(u64::MAX, &[1.0f64; 4], &WriteOptions::new()), u64::MAX);
}
