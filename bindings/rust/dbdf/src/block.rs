//! Blocks: what a block header says ([`BlockInfo`]), the current block of a reader ([`Block`]) and the iterator
//! over block headers ([`BlockInfos`]).

use std::iter::FusedIterator;
use std::marker::PhantomData;
use std::ptr::NonNull;

use dbdf_sys as sys;

use crate::buffers::{strided_len, value_ptr_mut, zeroed_vec};
use crate::dialect::PayloadLayout;
use crate::error::{check, Result};
use crate::sparse::{Coo, Csr};
use crate::types::{BlockType, ValueType};
use crate::value::Value;

/// One block as stored, known without decoding its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockInfo {
    /// Ordinal of the block in the file, from 0.
    pub index: u64,
    /// Position of the block's first row in the object.
    pub row: u64,
    /// Position of the block's first column in the object.
    pub col: u64,
    /// Rows of the block.
    pub rows: u32,
    /// Columns of the block.
    pub cols: u32,
    /// How the block is stored.
    pub block_type: BlockType,
    /// The stored value type; `None` for empty blocks, which store no values.
    pub value_type: Option<ValueType>,
    /// Values in the payload: rows * cols for dense blocks, the entry count for CSR and COO, 0 for empty blocks.
    pub stored_values: u64,
    /// Byte offset of the block record in the input.
    pub offset: u64,
    /// Size of the block record: position, block header and payload.
    pub encoded_bytes: u64,
}

impl BlockInfo {
    pub(crate) fn from_raw(raw: &sys::dbdf_block_info_t) -> Result<BlockInfo> {
        Ok(BlockInfo {
            index: raw.index,
            row: raw.row,
            col: raw.col,
            rows: raw.rows,
            cols: raw.cols,
            block_type: BlockType::from_raw(raw.block_type)?,
            value_type: ValueType::from_raw(raw.value_type)?,
            stored_values: raw.stored_values,
            offset: raw.offset,
            encoded_bytes: raw.encoded_bytes,
        })
    }

    /// Number of cells the block covers.
    pub fn cells(&self) -> u64 {
        u64::from(self.rows) * u64::from(self.cols)
    }
}

/// The reader's current block. It mutably borrows the reader, so the reader cannot move to another block while
/// this value (or a payload slice borrowed from it) is alive.
pub struct Block<'r> {
    reader: NonNull<sys::dbdf_reader_t>,
    info: BlockInfo,
    _reader_borrow: PhantomData<&'r mut sys::dbdf_reader_t>,
}

// SAFETY: a Block is the exclusive borrow of a reader, and readers may move between threads (dbdf.h, THREADING).
// It is not Sync: the handle must not be used by two threads at once.
unsafe impl Send for Block<'_> {}

impl<'r> Block<'r> {
    /// Safety: `reader` is a live reader exclusively borrowed for `'r`, and its current block is `info`.
    pub(crate) unsafe fn new(reader: NonNull<sys::dbdf_reader_t>, info: BlockInfo) -> Block<'r> {
        Block { reader, info, _reader_borrow: PhantomData }
    }

    /// What the block header says.
    pub fn info(&self) -> &BlockInfo {
        &self.info
    }

    /// The payload bytes, zero-copy, exactly as stored (little-endian, not aligned): row-major values for a dense
    /// block, the per-row records for CSR, the entries for COO, nothing for an empty block; in the daphne dialect
    /// as [`payload_layout`](Block::payload_layout) says.
    pub fn payload(&self) -> Result<&[u8]> {
        let mut data: *const std::ffi::c_void = std::ptr::null();
        let mut nbytes = 0usize;
        // SAFETY: the reader is live; data and nbytes are valid out-parameters.
        check(unsafe { sys::dbdf_reader_block_payload(self.reader.as_ptr(), &mut data, &mut nbytes) })?;
        if nbytes == 0 {
            return Ok(&[]);
        }
        // SAFETY: the library guarantees `nbytes` readable bytes at `data` until the reader moves to another block
        // or is freed (a file's payload lives in a buffer the reader reuses); the slice borrows `self`, which holds
        // the reader's exclusive borrow, so it cannot outlive the reader nor see it move on.
        Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), nbytes) })
    }

    /// How the [`payload`](Block::payload) bytes are arranged: as the spec says, except for CSR blocks and frame
    /// columns read in the daphne dialect.
    pub fn payload_layout(&self) -> Result<PayloadLayout> {
        let mut layout = sys::dbdf_payload_layout_t::DBDF_PAYLOAD_SPEC;
        let mut value_stride = 0u64;
        // SAFETY: the reader is live; layout and value_stride are valid out-parameters.
        check(unsafe { sys::dbdf_reader_block_payload_layout(self.reader.as_ptr(), &mut layout, &mut value_stride) })?;
        PayloadLayout::from_raw(layout, value_stride)
    }

    /// Number of entries the block yields as CSR or COO (the bit-non-zero values of a dense block).
    pub fn count_entries(&mut self) -> Result<u64> {
        let mut entries = 0u64;
        // SAFETY: the reader is live and exclusively borrowed; entries is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_block_count_entries(self.reader.as_ptr(), &mut entries) })?;
        Ok(entries)
    }

    /// The block's values, row-major, converted exactly to `T` (zeros for sparse and empty blocks).
    pub fn decode_dense<T: Value>(&mut self) -> Result<Vec<T>> {
        let mut values = zeroed_vec::<T>(self.info.cells(), "the block's values")?;
        self.decode_dense_into(&mut values, 0)?;
        Ok(values)
    }

    /// Decode into `out`: cell (i, j) goes to `out[i * row_stride + j]` (`row_stride` 0: the block's columns);
    /// other elements of `out` are untouched. Fails with `BufferTooSmall` (nothing written) if `out` is too short.
    pub fn decode_dense_into<T: Value>(&mut self, out: &mut [T], row_stride: u64) -> Result<()> {
        // SAFETY: out holds out.len() elements of T, the type passed; the library writes within that capacity.
        check(unsafe {
            sys::dbdf_reader_block_decode_dense(
                self.reader.as_ptr(),
                T::VALUE_TYPE.to_raw(),
                value_ptr_mut(out),
                out.len(),
                row_stride,
            )
        })
    }

    /// The block as CSR with block-local column indices.
    pub fn decode_csr<T: Value>(&mut self) -> Result<Csr<T, u32>> {
        let entries = self.count_entries()?;
        let mut csr = Csr {
            row_offsets: zeroed_vec(u64::from(self.info.rows) + 1, "the block's row offsets")?,
            col_indices: zeroed_vec(entries, "the block's column indices")?,
            values: zeroed_vec(entries, "the block's values")?,
        };
        self.decode_csr_into(&mut csr.row_offsets, &mut csr.col_indices, &mut csr.values)?;
        Ok(csr)
    }

    /// Decode as CSR into caller slices: `row_offsets` needs rows + 1 elements, `col_indices` and `values` the
    /// entry count ([`count_entries`](Block::count_entries)) each. Returns the entry count.
    pub fn decode_csr_into<T: Value>(
        &mut self,
        row_offsets: &mut [u64],
        col_indices: &mut [u32],
        values: &mut [T],
    ) -> Result<u64> {
        let capacity = col_indices.len().min(values.len());
        let mut entries = 0u64;
        // SAFETY: every pointer comes with its slice's length (capacity is the smaller of the two that share it).
        check(unsafe {
            sys::dbdf_reader_block_decode_csr(
                self.reader.as_ptr(),
                T::VALUE_TYPE.to_raw(),
                row_offsets.as_mut_ptr(),
                row_offsets.len(),
                col_indices.as_mut_ptr(),
                value_ptr_mut(values),
                capacity,
                &mut entries,
            )
        })?;
        Ok(entries)
    }

    /// The block as COO triplets with block-local indices.
    pub fn decode_coo<T: Value>(&mut self) -> Result<Coo<T>> {
        let entries = self.count_entries()?;
        let mut coo = Coo {
            row_indices: zeroed_vec(entries, "the block's row indices")?,
            col_indices: zeroed_vec(entries, "the block's column indices")?,
            values: zeroed_vec(entries, "the block's values")?,
        };
        self.decode_coo_into(&mut coo.row_indices, &mut coo.col_indices, &mut coo.values)?;
        Ok(coo)
    }

    /// Decode as COO into caller slices of at least the entry count each. Returns the entry count.
    pub fn decode_coo_into<T: Value>(
        &mut self,
        row_indices: &mut [u32],
        col_indices: &mut [u32],
        values: &mut [T],
    ) -> Result<u64> {
        let capacity = row_indices.len().min(col_indices.len()).min(values.len());
        let mut entries = 0u64;
        // SAFETY: the three slices hold at least `capacity` elements each.
        check(unsafe {
            sys::dbdf_reader_block_decode_coo(
                self.reader.as_ptr(),
                T::VALUE_TYPE.to_raw(),
                row_indices.as_mut_ptr(),
                col_indices.as_mut_ptr(),
                value_ptr_mut(values),
                capacity,
                &mut entries,
            )
        })?;
        Ok(entries)
    }

    /// Elements a dense decode with `row_stride` needs (what [`decode_dense_into`](Block::decode_dense_into)
    /// checks); `None` if the count overflows.
    pub fn dense_len(&self, row_stride: u64) -> Option<u64> {
        strided_len(u64::from(self.info.rows), u64::from(self.info.cols), row_stride)
    }
}

/// Iterator over the block headers of a reader, from its current position: each item is the next block's
/// [`BlockInfo`] or the error that stopped the walk (after which the iterator ends). Payloads are not decoded.
/// The iterator ends without error after the last block, once the library has checked that the blocks
/// partition the object.
pub struct BlockInfos<'r> {
    reader: NonNull<sys::dbdf_reader_t>,
    finished: bool,
    _reader_borrow: PhantomData<&'r mut sys::dbdf_reader_t>,
}

// SAFETY: as for Block: an exclusive borrow of a reader, which may move between threads.
unsafe impl Send for BlockInfos<'_> {}

impl<'r> BlockInfos<'r> {
    /// Safety: `reader` is a live reader exclusively borrowed for `'r`.
    pub(crate) unsafe fn new(reader: NonNull<sys::dbdf_reader_t>) -> BlockInfos<'r> {
        BlockInfos { reader, finished: false, _reader_borrow: PhantomData }
    }
}

impl Iterator for BlockInfos<'_> {
    type Item = Result<BlockInfo>;

    fn next(&mut self) -> Option<Result<BlockInfo>> {
        if self.finished {
            return None;
        }
        match next_block_info(self.reader) {
            Ok(Some(info)) => Some(Ok(info)),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(error) => {
                self.finished = true;
                Some(Err(error))
            }
        }
    }
}

impl FusedIterator for BlockInfos<'_> {}

/// Moves `reader` to its next block: `Ok(None)` past the last one.
pub(crate) fn next_block_info(reader: NonNull<sys::dbdf_reader_t>) -> Result<Option<BlockInfo>> {
    let mut raw = sys::dbdf_block_info_t::default();
    // SAFETY: the caller holds the reader exclusively; raw is a valid out-parameter.
    let status = unsafe { sys::dbdf_reader_next_block(reader.as_ptr(), &mut raw) };
    if status == sys::dbdf_status_t::DBDF_END_OF_BLOCKS {
        return Ok(None);
    }
    check(status)?;
    BlockInfo::from_raw(&raw).map(Some)
}

impl std::fmt::Debug for Block<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Block").field("info", &self.info).finish()
    }
}

impl std::fmt::Debug for BlockInfos<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("BlockInfos").field("finished", &self.finished).finish()
    }
}
