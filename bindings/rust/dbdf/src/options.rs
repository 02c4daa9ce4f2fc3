//! Plain descriptions the writer and reader take: write options, block placements, windows, frame columns.

use dbdf_sys as sys;

use crate::types::{Encoding, ValueType};

/// How blocks are encoded and how the tiling helpers (`write_dense`, `write_csr`, `write_column`) cut the object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WriteOptions {
    /// How each block is encoded; automatic by default.
    pub encoding: Encoding,
    /// Tiling helpers: rows per block; 0 lets the library choose (blocks of a few MiB).
    pub block_rows: u32,
    /// Tiling helpers: columns per block; 0 lets the library choose.
    pub block_cols: u32,
}

impl WriteOptions {
    /// The defaults: automatic encoding, automatic tiling.
    pub fn new() -> WriteOptions {
        WriteOptions::default()
    }

    /// These options with `encoding`.
    pub fn encoding(self, encoding: Encoding) -> WriteOptions {
        WriteOptions { encoding, ..self }
    }

    /// These options with tiles of `block_rows` x `block_cols` (0: automatic).
    pub fn block_shape(self, block_rows: u32, block_cols: u32) -> WriteOptions {
        WriteOptions { block_rows, block_cols, ..self }
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_write_options_t {
        let mut raw = sys::dbdf_write_options_t::default();
        // SAFETY: raw is a valid dbdf_write_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_write_options_init(&mut raw) };
        raw.encoding = self.encoding.to_raw();
        raw.block_rows = self.block_rows;
        raw.block_cols = self.block_cols;
        raw
    }
}

/// Where a block sits in its object: first row and column, and its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockPlacement {
    /// The object row of the block's first row.
    pub row: u64,
    /// The object column of the block's first column.
    pub col: u64,
    /// Rows of the block.
    pub rows: u32,
    /// Columns of the block.
    pub cols: u32,
}

impl BlockPlacement {
    /// The block of `rows` x `cols` cells whose first cell is (`row`, `col`).
    pub fn new(row: u64, col: u64, rows: u32, cols: u32) -> BlockPlacement {
        BlockPlacement { row, col, rows, cols }
    }
}

/// A rectangle of an object's cells: rows `[row, row + rows)` and columns `[col, col + cols)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    /// First row.
    pub row: u64,
    /// First column.
    pub col: u64,
    /// Number of rows.
    pub rows: u64,
    /// Number of columns.
    pub cols: u64,
}

impl Window {
    /// The window of `rows` x `cols` cells whose first cell is (`row`, `col`).
    pub fn new(row: u64, col: u64, rows: u64, cols: u64) -> Window {
        Window { row, col, rows, cols }
    }
}

/// A frame column to declare with [`Writer::begin_frame`](crate::Writer::begin_frame): its label (bytes, expected
/// UTF-8; they may contain NUL) and its value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameColumn<'a> {
    /// The label's bytes (at most 65535; labels of one frame must differ).
    pub label: &'a [u8],
    /// The type of the column's values.
    pub value_type: ValueType,
}

impl<'a> FrameColumn<'a> {
    /// A column labelled with UTF-8 text.
    pub fn new(label: &'a str, value_type: ValueType) -> FrameColumn<'a> {
        FrameColumn { label: label.as_bytes(), value_type }
    }

    /// A column labelled with raw bytes.
    pub fn from_bytes(label: &'a [u8], value_type: ValueType) -> FrameColumn<'a> {
        FrameColumn { label, value_type }
    }
}
