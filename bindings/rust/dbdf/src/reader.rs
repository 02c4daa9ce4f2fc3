//! [`Reader`]: one .dbdf object, from a file, from memory or from a byte source.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::marker::PhantomData;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use dbdf_sys as sys;

use crate::block::{next_block_info, Block, BlockInfo, BlockInfos};
use crate::buffers::{strided_len, value_ptr_mut, zeroed_vec};
use crate::dialect::{Dialect, ReaderOptions};
use crate::error::{check, Error, Result, Status};
use crate::options::Window;
use crate::path::path_to_c;
use crate::source::{
    raw_concurrent_source, raw_source, take_callback_failure, ConcurrentReadAt, DecodeThreadFailures, ReadAt,
};
use crate::sparse::Csr;
use crate::types::{DataType, ValueType};
use crate::value::Value;

/// What the object header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectInfo {
    /// Dense matrix, CSR matrix or frame.
    pub data_type: DataType,
    /// The matrix's value type; `None` for frames, whose columns each have their own
    /// ([`Reader::column_type`]).
    pub value_type: Option<ValueType>,
    /// Rows of the object.
    pub rows: u64,
    /// Columns of the object.
    pub cols: u64,
    /// Size of the object header; the first block starts here.
    pub header_bytes: u64,
    /// Size of the whole input.
    pub total_bytes: u64,
}

/// One rule violation found by [`Reader::violations`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// the number of the rule in docs/format-rules.md; 0 for the published layout itself.
    pub rule: i32,
    /// Byte offset in the input.
    pub offset: u64,
    /// What is wrong, where, and which rule it breaks.
    pub message: String,
}

/// A reader over one .dbdf object. `'data` is the borrow of the memory it reads
/// ([`from_bytes`](Reader::from_bytes)); readers of files are `Reader<'static>`.
///
/// A reader is `Send` (it may move to another thread) but not `Sync`: `dbdf.h` allows one thread at a time per
/// handle. Different readers, even over the same file or bytes, are independent.
pub struct Reader<'data> {
    handle: NonNull<sys::dbdf_reader_t>,
    _data: PhantomData<&'data [u8]>,
    /// Where a [`ConcurrentReadAt`] source's failures on the decode threads wait for the call that started them.
    decode_thread_failures: Option<Arc<DecodeThreadFailures>>,
}

// SAFETY: dbdf.h (THREADING): a handle may move between threads as long as one thread uses it at a time, which
// `&mut self` / `&self` without Sync guarantee. The borrowed bytes are `&[u8]`, which is Send.
unsafe impl Send for Reader<'_> {}

impl Reader<'static> {
    /// Open the file at `path` read-only and parse its object header, in the spec dialect. The file is read with
    /// positioned reads (`pread`) into the reader's buffers or straight into the output, never memory-mapped, so a
    /// file that shrinks while it is read gives [`Status::Io`], not a signal.
    pub fn open(path: impl AsRef<Path>) -> Result<Reader<'static>> {
        Reader::open_with(path, Dialect::Spec)
    }

    /// Open the file at `path` as [`open`](Reader::open) does, reading the layout of `dialect`. In the daphne
    /// dialect, string data is refused here ([`Status::Unsupported`]; a frame with a string column,
    /// which the runtime leaves cut short, [`Status::Truncated`]).
    pub fn open_with(path: impl AsRef<Path>, dialect: Dialect) -> Result<Reader<'static>> {
        Reader::open_with_options(path, &ReaderOptions::new().dialect(dialect))
    }

    /// Open the file at `path` as [`open_with`](Reader::open_with) does, in `options.dialect`, with the whole-object
    /// reads decoding on `options.threads`.
    pub fn open_with_options(path: impl AsRef<Path>, options: &ReaderOptions) -> Result<Reader<'static>> {
        let path_text = path_to_c(path.as_ref())?;
        let raw_options = options.to_raw()?;
        let mut handle: *mut sys::dbdf_reader_t = std::ptr::null_mut();
        // SAFETY: path_text is NUL-terminated; raw_options is initialised; handle is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_open_file_with_options(path_text.as_ptr(), &raw_options, &mut handle) })
            .map_err(|error| error.with_system_reason(path.as_ref(), false))?;
        Ok(Reader::from_handle(handle))
    }
}

impl<'data> Reader<'data> {
    /// Read the object held in `data`, without copying it; the bytes stay borrowed until the reader is dropped.
    /// The spec dialect.
    pub fn from_bytes(data: &'data [u8]) -> Result<Reader<'data>> {
        Reader::from_bytes_with(data, Dialect::Spec)
    }

    /// Read the object held in `data` as [`from_bytes`](Reader::from_bytes) does, in the layout of `dialect`;
    /// refusals as for [`open_with`](Reader::open_with).
    pub fn from_bytes_with(data: &'data [u8], dialect: Dialect) -> Result<Reader<'data>> {
        Reader::from_bytes_with_options(data, &ReaderOptions::new().dialect(dialect))
    }

    /// Read the object held in `data` as [`from_bytes_with`](Reader::from_bytes_with) does, in
    /// `options.dialect`, with the whole-object reads decoding on `options.threads`.
    pub fn from_bytes_with_options(data: &'data [u8], options: &ReaderOptions) -> Result<Reader<'data>> {
        let raw_options = options.to_raw()?;
        let mut handle: *mut sys::dbdf_reader_t = std::ptr::null_mut();
        // SAFETY: data is valid for data.len() bytes and, being borrowed for 'data, stays valid and unchanged
        // for the reader's whole life, as dbdf_reader_open_memory_with_options requires; raw_options is
        // initialised.
        check(unsafe {
            sys::dbdf_reader_open_memory_with_options(data.as_ptr().cast(), data.len(), &raw_options, &mut handle)
        })?;
        Ok(Reader::from_handle(handle))
    }

    /// Read the object from `input`, any [`ReadAt`] (every `Read + Seek`: a `File`, a `Cursor`, a remote-object
    /// reader), fetching only the header, the block headers needed and the payloads decoded, small reads coalesced
    /// through a read-ahead window of 64 KiB (docs/byte-sources.md). The spec dialect.
    pub fn from_source(input: impl ReadAt + Send + 'data) -> Result<Reader<'data>> {
        Reader::from_source_with_options(input, &ReaderOptions::new(), 0)
    }

    /// Read from `input` as [`from_source`](Reader::from_source) does, in `options.dialect`, with a read-ahead
    /// window of `read_ahead` bytes (0: 64 KiB). A failing `input` fails the call that needed the bytes with
    /// [`Status::Io`], its `io::Error` as the error's [`source`](std::error::Error::source); the reader stays
    /// usable. A panic in `input` continues in the caller once the library call has returned. Whole-object reads
    /// decode on the calling thread alone ([`from_concurrent_source`](Reader::from_concurrent_source) for a source
    /// that may be read from several threads).
    pub fn from_source_with_options(
        input: impl ReadAt + Send + 'data,
        options: &ReaderOptions,
        read_ahead: usize,
    ) -> Result<Reader<'data>> {
        let raw_options = options.to_raw()?;
        let source = raw_source(Box::new(input), read_ahead).map_err(|error| {
            Error::new(Status::Io, format!("cannot find the size of the source: {error}")).with_source(error)
        })?;
        let mut handle: *mut sys::dbdf_reader_t = std::ptr::null_mut();
        // SAFETY: source is initialised and owns its state, which the library releases exactly once; raw_options
        // is initialised; handle is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_open_source(&source, &raw_options, &mut handle) })?;
        Ok(Reader::from_handle(handle))
    }

    /// Read the object from `input`, any [`ConcurrentReadAt`] (a `File`, bytes, a client of remote storage that
    /// can serve several ranges at once), as [`from_source`](Reader::from_source) does; the whole-object reads
    /// ([`read_dense`](Reader::read_dense), [`read_dense_window`](Reader::read_dense_window),
    /// [`read_column`](Reader::read_column) and their `_into` forms) fetch and decode the payloads on the decode
    /// threads, calling `input` from several threads at once, as they do for a file. The spec dialect.
    pub fn from_concurrent_source(input: impl ConcurrentReadAt + 'data) -> Result<Reader<'data>> {
        Reader::from_concurrent_source_with_options(input, &ReaderOptions::new(), 0)
    }

    /// Read from `input` as [`from_concurrent_source`](Reader::from_concurrent_source) does, in
    /// `options.dialect`, decoding on `options.threads`, with a read-ahead window of `read_ahead` bytes (0: 64 KiB).
    /// A failing `input`, on whichever thread, fails the call with [`Status::Io`] and an `io::Error` of `input`
    /// as the error's [`source`](std::error::Error::source); a panic in `input` continues in the caller.
    pub fn from_concurrent_source_with_options(
        input: impl ConcurrentReadAt + 'data,
        options: &ReaderOptions,
        read_ahead: usize,
    ) -> Result<Reader<'data>> {
        let raw_options = options.to_raw()?;
        let (source, failures) = raw_concurrent_source(Box::new(input), read_ahead).map_err(|error| {
            Error::new(Status::Io, format!("cannot find the size of the source: {error}")).with_source(error)
        })?;
        let mut handle: *mut sys::dbdf_reader_t = std::ptr::null_mut();
        // SAFETY: source is initialised and owns its state, which the library releases exactly once; its input is
        // Sync, as DBDF_SOURCE_CONCURRENT_READS requires; raw_options is initialised; handle is a valid
        // out-parameter.
        check(unsafe { sys::dbdf_reader_open_source(&source, &raw_options, &mut handle) })?;
        let mut reader = Reader::from_handle(handle);
        reader.decode_thread_failures = Some(failures);
        Ok(reader)
    }

    fn from_handle(handle: *mut sys::dbdf_reader_t) -> Reader<'data> {
        let handle = NonNull::new(handle).expect("the library returned DBDF_OK and a NULL reader");
        Reader { handle, _data: PhantomData, decode_thread_failures: None }
    }

    /// Runs `call`, a library call that may decode on several threads, keeping the failures of a concurrent
    /// source's callbacks on those threads for its error.
    fn on_decode_threads(&self, call: impl FnOnce() -> Result<()>) -> Result<()> {
        match &self.decode_thread_failures {
            Some(failures) => failures.around(call),
            None => call(),
        }
    }

    pub(crate) fn raw(&self) -> *mut sys::dbdf_reader_t {
        self.handle.as_ptr()
    }

    /// Gives up the handle without freeing it, once the library has handed it over to another owner (an Arrow
    /// stream that took the reader). A concurrent source's state holds its own share of the decode threads'
    /// failures, so the reader's is dropped.
    #[cfg(feature = "arrow")]
    pub(crate) fn forget_handle(self) {
        let mut reader = std::mem::ManuallyDrop::new(self);
        drop(reader.decode_thread_failures.take());
    }

    /// What the object header says.
    pub fn info(&self) -> Result<ObjectInfo> {
        let mut raw = sys::dbdf_object_info_t::default();
        // SAFETY: the reader is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_object_info(self.raw(), &mut raw) })?;
        Ok(ObjectInfo {
            data_type: DataType::from_raw(raw.data_type)?,
            value_type: ValueType::from_raw(raw.value_type)?,
            rows: raw.rows,
            cols: raw.cols,
            header_bytes: raw.header_bytes,
            total_bytes: raw.total_bytes,
        })
    }

    /// The dialect the reader was opened with.
    pub fn dialect(&self) -> Result<Dialect> {
        let mut raw = sys::dbdf_dialect_t::DBDF_DIALECT_SPEC;
        // SAFETY: the reader is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_dialect(self.raw(), &mut raw) })?;
        Dialect::from_raw(raw)
    }

    /// Whether the frame labels [`column_label`](Reader::column_label) returns are the file's: false when they
    /// could not be recovered and are defaults (`col_0`, `col_1`, ...), as for frames in the daphne dialect,
    /// whose runtime writes memory bytes instead of the label text. True for matrices.
    pub fn labels_recoverable(&self) -> Result<bool> {
        let mut recoverable = 0;
        // SAFETY: the reader is live; recoverable is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_labels_recoverable(self.raw(), &mut recoverable) })?;
        Ok(recoverable != 0)
    }

    /// Value type of column `column`: a frame column's own type, or the matrix's value type.
    pub fn column_type(&self, column: u64) -> Result<ValueType> {
        let mut raw = sys::dbdf_value_type_t::DBDF_VALUE_NONE;
        // SAFETY: the reader is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_column_type(self.raw(), column, &mut raw) })?;
        ValueType::from_raw(raw)?
            .ok_or_else(|| Error::new(Status::Internal, format!("the library gave column {column} no value type")))
    }

    /// The label of frame column `column`, its bytes as stored (they may contain NUL bytes).
    pub fn column_label_bytes(&self, column: u64) -> Result<&[u8]> {
        let mut label: *const c_char = std::ptr::null();
        let mut length = 0usize;
        // SAFETY: the reader is live; label and length are valid out-parameters.
        check(unsafe { sys::dbdf_reader_column_label(self.raw(), column, &mut label, &mut length) })?;
        if length == 0 {
            return Ok(&[]);
        }
        // SAFETY: the library guarantees `length` bytes at `label` until the reader is freed; the slice borrows
        // the reader.
        Ok(unsafe { std::slice::from_raw_parts(label.cast::<u8>(), length) })
    }

    /// The label of frame column `column` as text; [`Status::Format`] if it is not UTF-8.
    pub fn column_label(&self, column: u64) -> Result<&str> {
        std::str::from_utf8(self.column_label_bytes(column)?)
            .map_err(|error| Error::new(Status::Format, format!("the label of column {column} is not UTF-8: {error}")))
    }

    /// Move to the next block and return it; `None` after the last block, once the library has checked that
    /// the blocks partition the object. After an error the reader stays on the previous block.
    pub fn next_block(&mut self) -> Result<Option<Block<'_>>> {
        let info = next_block_info(self.handle)?;
        // SAFETY: the reader is borrowed mutably for the block's lifetime and `info` is its current block.
        Ok(info.map(|info| unsafe { Block::new(self.handle, info) }))
    }

    /// The current block; [`Status::CallOrder`] before the first block and after the last.
    pub fn current_block(&mut self) -> Result<Block<'_>> {
        let mut raw = sys::dbdf_block_info_t::default();
        // SAFETY: the reader is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_block_info(self.raw(), &mut raw) })?;
        let info = BlockInfo::from_raw(&raw)?;
        // SAFETY: as in next_block.
        Ok(unsafe { Block::new(self.handle, info) })
    }

    /// Iterate over the remaining block headers (payloads are skipped).
    pub fn blocks(&mut self) -> BlockInfos<'_> {
        // SAFETY: the reader is borrowed mutably for the iterator's lifetime.
        unsafe { BlockInfos::new(self.handle) }
    }

    /// Go back before the first block.
    pub fn rewind(&mut self) -> Result<()> {
        // SAFETY: the reader is live.
        check(unsafe { sys::dbdf_reader_rewind(self.raw()) })
    }

    /// Build the index of all blocks (headers only) and check the layout; returns the number of blocks.
    pub fn build_index(&mut self) -> Result<u64> {
        let mut blocks = 0u64;
        // SAFETY: the reader is live; blocks is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_build_index(self.raw(), &mut blocks) })?;
        Ok(blocks)
    }

    /// Block `index` in file order, from the index (built if needed).
    pub fn index_entry(&mut self, index: u64) -> Result<BlockInfo> {
        let mut raw = sys::dbdf_block_info_t::default();
        // SAFETY: the reader is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_index_entry(self.raw(), index, &mut raw) })?;
        BlockInfo::from_raw(&raw)
    }

    /// Make block `index` (file order) the current block and return it; `next_block` then continues after it.
    pub fn seek_block(&mut self, index: u64) -> Result<Block<'_>> {
        // SAFETY: the reader is live.
        check(unsafe { sys::dbdf_reader_seek_block(self.raw(), index) })?;
        self.current_block()
    }

    /// The header's information once the index shows that the blocks really cover the object, so a header that
    /// announces a huge object without the blocks for it fails with the file's own error before anything is
    /// allocated for it.
    fn layout_checked_info(&mut self) -> Result<ObjectInfo> {
        self.build_index()?;
        self.info()
    }

    /// The whole object as dense row-major values of `T`. Like the window and column reads, it decodes on the
    /// threads [`ReaderOptions::threads`] chose when the reader was opened.
    pub fn read_dense<T: Value>(&mut self) -> Result<Vec<T>> {
        let info = self.layout_checked_info()?;
        self.read_dense_window(Window::new(0, 0, info.rows, info.cols))
    }

    /// The whole object into `out`, row-major with `row_stride` elements between rows (0: the column count).
    pub fn read_dense_into<T: Value>(&mut self, out: &mut [T], row_stride: u64) -> Result<()> {
        let raw = self.raw();
        // SAFETY: out holds out.len() elements of T, the type passed.
        self.on_decode_threads(|| {
            check(unsafe {
                sys::dbdf_reader_read_dense(raw, T::VALUE_TYPE.to_raw(), value_ptr_mut(out), out.len(), row_stride)
            })
        })
    }

    /// The cells of `window` as dense row-major values of `T`; only the blocks that intersect it are decoded.
    pub fn read_dense_window<T: Value>(&mut self, window: Window) -> Result<Vec<T>> {
        let len = strided_len(window.rows, window.cols, 0).ok_or_else(|| {
            Error::new(
                Status::InvalidArgument,
                format!("a window of {} x {} cells is too large", window.rows, window.cols),
            )
        })?;
        self.build_index()?;
        let mut values = zeroed_vec::<T>(len, "the window's values")?;
        self.read_dense_window_into(window, &mut values, 0)?;
        Ok(values)
    }

    /// The cells of `window` into `out`, row-major with `row_stride` elements between rows (0: `window.cols`).
    pub fn read_dense_window_into<T: Value>(&mut self, window: Window, out: &mut [T], row_stride: u64) -> Result<()> {
        let raw = self.raw();
        // SAFETY: out holds out.len() elements of T, the type passed.
        self.on_decode_threads(|| {
            check(unsafe {
                sys::dbdf_reader_read_dense_window(
                    raw,
                    T::VALUE_TYPE.to_raw(),
                    window.row,
                    window.col,
                    window.rows,
                    window.cols,
                    value_ptr_mut(out),
                    out.len(),
                    row_stride,
                )
            })
        })
    }

    /// Column `column` (of a frame or a matrix) as `T`.
    pub fn read_column<T: Value>(&mut self, column: u64) -> Result<Vec<T>> {
        let rows = self.layout_checked_info()?.rows;
        let mut values = zeroed_vec::<T>(rows, "the column's values")?;
        self.read_column_into(column, &mut values)?;
        Ok(values)
    }

    /// Column `column` into `out` (at least one element per row).
    pub fn read_column_into<T: Value>(&mut self, column: u64, out: &mut [T]) -> Result<()> {
        let raw = self.raw();
        // SAFETY: out holds out.len() elements of T, the type passed.
        self.on_decode_threads(|| {
            check(unsafe {
                sys::dbdf_reader_read_column(raw, column, T::VALUE_TYPE.to_raw(), value_ptr_mut(out), out.len())
            })
        })
    }

    /// Number of entries the whole object yields as CSR.
    pub fn count_entries(&mut self) -> Result<u64> {
        let mut entries = 0u64;
        // SAFETY: the reader is live; entries is a valid out-parameter.
        check(unsafe { sys::dbdf_reader_count_entries(self.raw(), &mut entries) })?;
        Ok(entries)
    }

    /// The whole object as CSR with object-wide column indices.
    pub fn read_csr<T: Value>(&mut self) -> Result<Csr<T, u64>> {
        let rows = self.layout_checked_info()?.rows;
        let entries = self.count_entries()?;
        let mut csr = Csr {
            row_offsets: zeroed_vec(rows.saturating_add(1), "the row offsets")?,
            col_indices: zeroed_vec(entries, "the column indices")?,
            values: zeroed_vec(entries, "the values")?,
        };
        self.read_csr_into(&mut csr.row_offsets, &mut csr.col_indices, &mut csr.values)?;
        Ok(csr)
    }

    /// The whole object as CSR into caller slices: `row_offsets` needs rows + 1 elements, `col_indices` and
    /// `values` the entry count each. Returns the entry count.
    pub fn read_csr_into<T: Value>(
        &mut self,
        row_offsets: &mut [u64],
        col_indices: &mut [u64],
        values: &mut [T],
    ) -> Result<u64> {
        let capacity = col_indices.len().min(values.len());
        let mut entries = 0u64;
        // SAFETY: every pointer comes with its slice's length (capacity is the smaller of the two that share it).
        check(unsafe {
            sys::dbdf_reader_read_csr(
                self.raw(),
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

    /// Check every rule of the format strictly; the error describes the first violation.
    pub fn validate(&mut self) -> Result<()> {
        // SAFETY: the reader is live; no callback, no out-parameter.
        check(unsafe { sys::dbdf_reader_validate(self.raw(), None, std::ptr::null_mut(), std::ptr::null_mut()) })
    }

    /// Check every rule of the format strictly and list every violation found (empty for a valid object).
    /// An error is returned only when validation itself could not run (e.g. out of memory).
    pub fn violations(&mut self) -> Result<Vec<Violation>> {
        let mut found: Vec<Violation> = Vec::new();
        // SAFETY: the context is `found`, which outlives the call; the callback only pushes to it.
        let status = unsafe {
            sys::dbdf_reader_validate(
                self.raw(),
                Some(collect_violation),
                (&mut found as *mut Vec<Violation>).cast::<c_void>(),
                std::ptr::null_mut(),
            )
        };
        match check(status) {
            Ok(()) => Ok(found),
            Err(error) if error.status().is_invalid_data() && !found.is_empty() => Ok(found),
            Err(error) => Err(error),
        }
    }
}

/// The violation callback of `violations`: appends to the Vec<Violation> passed as context.
unsafe extern "C" fn collect_violation(context: *mut c_void, rule: c_int, offset: u64, message: *const c_char) {
    // SAFETY: context is the `&mut Vec<Violation>` that `violations` passed, exclusively ours during the call.
    let found = unsafe { &mut *context.cast::<Vec<Violation>>() };
    let message = if message.is_null() {
        String::new()
    } else {
        // SAFETY: the library passes a NUL-terminated message valid during the call.
        unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
    };
    found.push(Violation { rule, offset, message });
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from the library, is freed exactly once, and nothing borrowed from it can
        // outlive `self`.
        unsafe { sys::dbdf_reader_free(self.raw()) }
        // A panic of the source's drop (in the release callback) continues here.
        take_callback_failure();
    }
}

impl std::fmt::Debug for Reader<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Reader").field("info", &self.info()).finish()
    }
}
