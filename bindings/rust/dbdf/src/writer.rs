//! [`Writer`]: produces one .dbdf object into a file, into memory, or into any `std::io::Write`.

use std::ffi::c_char;
use std::io::Write;
use std::marker::PhantomData;
use std::path::Path;
use std::ptr::NonNull;

use dbdf_sys as sys;

use crate::buffers::{require_row_offsets, require_same_len, value_ptr};
use crate::dialect::{Dialect, WriterOptions};
use crate::error::{check, Error, Result, Status};
use crate::options::{BlockPlacement, FrameColumn, WriteOptions};
use crate::path::path_to_c;
use crate::sink::{write_to_sink, CallbackSink};
use crate::types::{DataType, ValueType};
use crate::value::Value;

/// A writer producing one .dbdf object: `begin_matrix` or `begin_frame`, then blocks (one at a time or through
/// the tiling helpers), then [`finish`](Writer::finish). Dropping a writer that did not finish discards the
/// output; a file writer then leaves any existing file untouched.
///
/// In the [daphne dialect](crate::Dialect::Daphne) the output is byte for byte what DAPHNE's runtime writes:
/// one block covering the object in the object's value type. A matrix therefore takes `write_dense`, `write_csr`
/// or one `add_*` call covering it (nothing for a matrix with a zero dimension); a dense matrix may also take
/// `add_*` calls of full-width row bands in order, the first at row 0, so that it is never in memory whole. A frame
/// takes each column once (`write_column`, or `add_dense` of a whole column); `u16` and `i16` have no DAPHNE code
/// and are refused, as are dimensions of 2^32 or more ([`Status::InvalidArgument`](crate::Status::InvalidArgument)).
///
/// `'sink` is the borrow held by a callback writer's sink ([`to_sink`](Writer::to_sink)); other writers are
/// `Writer<'static>`. A writer is `Send` but not `Sync`, like [`Reader`](crate::Reader).
pub struct Writer<'sink> {
    handle: NonNull<sys::dbdf_writer_t>,
    /// Owned through a raw pointer because the library holds a copy of it as the callback's context.
    sink: Option<NonNull<CallbackSink<'sink>>>,
    /// Rows of the object once `begin_*` succeeded: the C interface reads CSR row offsets by this count.
    object_rows: Option<u64>,
    _sink: PhantomData<CallbackSink<'sink>>,
}

// SAFETY: dbdf.h (THREADING): a handle may move between threads if one thread uses it at a time, which the lack
// of Sync ensures; the sink is `Send`.
unsafe impl Send for Writer<'_> {}

impl Writer<'static> {
    /// Write to the file at `path`, atomically: the file appears (replacing any old one) only when
    /// [`finish`](Writer::finish) succeeds. It is not synced to the disk ([`WriterOptions::durable`] does that).
    /// The spec dialect.
    pub fn create(path: impl AsRef<Path>) -> Result<Writer<'static>> {
        Writer::create_with(path, &WriterOptions::new())
    }

    /// Write to the file at `path` as [`create`](Writer::create) does, in `options.dialect`. In the daphne dialect
    /// with `options.write_meta`, `finish` then also writes `<path>.meta` (atomically, once the data file is in
    /// place; a failure there is [`Status::Io`](crate::Status::Io) with the data file already written). With
    /// `options.durable`, `finish` syncs both to the disk; `options.threads` is used by
    /// [`write_dense`](Writer::write_dense).
    pub fn create_with(path: impl AsRef<Path>, options: &WriterOptions) -> Result<Writer<'static>> {
        let path_text = path_to_c(path.as_ref())?;
        let raw_options = options.to_raw()?;
        let mut handle: *mut sys::dbdf_writer_t = std::ptr::null_mut();
        // SAFETY: path_text is NUL-terminated; raw_options is initialised; handle is a valid out-parameter.
        check(unsafe { sys::dbdf_writer_open_file_with_options(path_text.as_ptr(), &raw_options, &mut handle) })
            .map_err(|error| error.with_system_reason(path.as_ref(), true))?;
        Ok(Writer::from_handle(handle, None))
    }

    /// Write to a growable memory buffer; after `finish`, [`memory`](Writer::memory) borrows the bytes. The spec
    /// dialect.
    pub fn in_memory() -> Result<Writer<'static>> {
        Writer::in_memory_with(&WriterOptions::new())
    }

    /// Write to memory as [`in_memory`](Writer::in_memory) does, in `options.dialect`, with `options.threads` (no
    /// `.meta` sidecar, nothing to sync).
    pub fn in_memory_with(options: &WriterOptions) -> Result<Writer<'static>> {
        let raw_options = options.to_raw()?;
        let mut handle: *mut sys::dbdf_writer_t = std::ptr::null_mut();
        // SAFETY: raw_options is initialised; handle is a valid out-parameter.
        check(unsafe { sys::dbdf_writer_open_memory_with_options(&raw_options, &mut handle) })?;
        Ok(Writer::from_handle(handle, None))
    }
}

impl<'sink> Writer<'sink> {
    /// Write through `output`, in order, piece by piece; nothing is buffered past `finish`. A failing `output`
    /// makes the writer fail with [`Status::Sink`](crate::Status::Sink), its error appended to the message; a
    /// panic in `output` is resumed after the library call returns. The spec dialect.
    pub fn to_sink(output: impl Write + Send + 'sink) -> Result<Writer<'sink>> {
        Writer::to_sink_with(output, &WriterOptions::new())
    }

    /// Write through `output` as [`to_sink`](Writer::to_sink) does, in `options.dialect`, with `options.threads`
    /// (no `.meta` sidecar, nothing to sync).
    pub fn to_sink_with(output: impl Write + Send + 'sink, options: &WriterOptions) -> Result<Writer<'sink>> {
        let raw_options = options.to_raw()?;
        let sink = NonNull::from(Box::leak(Box::new(CallbackSink::new(Box::new(output)))));
        let mut handle: *mut sys::dbdf_writer_t = std::ptr::null_mut();
        // SAFETY: the context stays valid until the writer is freed (Drop frees the handle before the sink);
        // raw_options is initialised.
        let status = unsafe {
            sys::dbdf_writer_open_callback_with_options(
                Some(write_to_sink),
                sink.as_ptr().cast(),
                &raw_options,
                &mut handle,
            )
        };
        if let Err(error) = check(status) {
            // SAFETY: the library did not keep the context; the box is reclaimed exactly once.
            drop(unsafe { Box::from_raw(sink.as_ptr()) });
            return Err(error);
        }
        Ok(Writer::from_handle(handle, Some(sink)))
    }

    fn from_handle(handle: *mut sys::dbdf_writer_t, sink: Option<NonNull<CallbackSink<'sink>>>) -> Writer<'sink> {
        let handle = NonNull::new(handle).expect("the library returned DBDF_OK and a NULL writer");
        Writer { handle, sink, object_rows: None, _sink: PhantomData }
    }

    fn raw(&self) -> *mut sys::dbdf_writer_t {
        self.handle.as_ptr()
    }

    /// Runs `begin`, a library call that begins the object (`rows` rows) and writes blocks, with this writer's
    /// handle, and gives its result as every other call's (the sink's error and panic included).
    #[cfg(feature = "arrow")]
    pub(crate) fn begin_through(
        &mut self,
        rows: u64,
        begin: impl FnOnce(*mut sys::dbdf_writer_t) -> sys::dbdf_status_t,
    ) -> Result<()> {
        let status = begin(self.raw());
        self.finish_call(status)?;
        self.object_rows = Some(rows);
        Ok(())
    }

    /// The result of a library call on this writer: the error includes what the sink reported, and a panic of
    /// the sink continues here.
    fn finish_call(&mut self, status: sys::dbdf_status_t) -> Result<()> {
        let result = check(status);
        if let Some(sink) = self.sink {
            // SAFETY: no library call is running, so the sink is not borrowed by the callback.
            let sink = unsafe { &mut *sink.as_ptr() };
            if let Some(panic) = sink.panic.take() {
                std::panic::resume_unwind(panic);
            }
            if let Some(sink_error) = sink.error.take() {
                return result.map_err(|error| {
                    let detail = format!("the sink failed: {sink_error}");
                    error.with_detail(&detail).with_source(sink_error)
                });
            }
        }
        result
    }

    /// The dialect the writer was opened with.
    pub fn dialect(&self) -> Result<Dialect> {
        let mut raw = sys::dbdf_dialect_t::DBDF_DIALECT_SPEC;
        // SAFETY: the writer is live; raw is a valid out-parameter.
        check(unsafe { sys::dbdf_writer_dialect(self.raw(), &mut raw) })?;
        Dialect::from_raw(raw)
    }

    /// Write the header of a matrix (`data_type` dense or CSR). A daphne-dialect writer also takes
    /// `DataType::Scalar` with `rows` = `cols` = 1: one value, then given as a 1 x 1 matrix's (`write_dense` of one
    /// value), written as DAPHNE's runtime serializes a scalar.
    pub fn begin_matrix(&mut self, data_type: DataType, value_type: ValueType, rows: u64, cols: u64) -> Result<()> {
        // SAFETY: plain values; the writer is live.
        let status =
            unsafe { sys::dbdf_writer_begin_matrix(self.raw(), data_type.to_raw(), value_type.to_raw(), rows, cols) };
        self.finish_call(status)?;
        self.object_rows = Some(rows);
        Ok(())
    }

    /// Write the header of a frame of `rows` rows with `columns` (labels must differ).
    pub fn begin_frame(&mut self, rows: u64, columns: &[FrameColumn<'_>]) -> Result<()> {
        let column_types: Vec<sys::dbdf_value_type_t> = columns.iter().map(|c| c.value_type.to_raw()).collect();
        let labels: Vec<*const c_char> = columns.iter().map(|c| c.label.as_ptr().cast::<c_char>()).collect();
        let label_lengths: Vec<usize> = columns.iter().map(|c| c.label.len()).collect();
        // SAFETY: the three arrays hold columns.len() elements; each label pointer is valid for its length.
        let status = unsafe {
            sys::dbdf_writer_begin_frame(
                self.raw(),
                rows,
                columns.len() as u64,
                column_types.as_ptr(),
                labels.as_ptr(),
                label_lengths.as_ptr(),
            )
        };
        self.finish_call(status)?;
        self.object_rows = Some(rows);
        Ok(())
    }

    /// Add the block at `placement` from dense row-major `values`: cell (i, j) is `values[i * row_stride + j]`
    /// (`row_stride` 0: the block's columns). Encoded as `options` say.
    pub fn add_dense<T: Value>(
        &mut self,
        placement: BlockPlacement,
        values: &[T],
        row_stride: u64,
        options: &WriteOptions,
    ) -> Result<()> {
        let raw_options = options.to_raw();
        // SAFETY: values holds values.len() elements of T, the type passed; the library checks the count.
        let status = unsafe {
            sys::dbdf_writer_add_dense(
                self.raw(),
                placement.row,
                placement.col,
                placement.rows,
                placement.cols,
                T::VALUE_TYPE.to_raw(),
                value_ptr(values),
                values.len(),
                row_stride,
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Add a block from block-local CSR arrays: `row_offsets` has `placement.rows + 1` entries; `col_indices`
    /// and `values` one per entry.
    pub fn add_csr<T: Value>(
        &mut self,
        placement: BlockPlacement,
        row_offsets: &[u64],
        col_indices: &[u32],
        values: &[T],
        options: &WriteOptions,
    ) -> Result<()> {
        require_row_offsets(row_offsets, u64::from(placement.rows))?;
        require_same_len("col_indices and values", col_indices.len(), values.len())?;
        let raw_options = options.to_raw();
        // SAFETY: row_offsets holds rows + 1 entries and col_indices one per value, as the library reads them.
        let status = unsafe {
            sys::dbdf_writer_add_csr(
                self.raw(),
                placement.row,
                placement.col,
                placement.rows,
                placement.cols,
                T::VALUE_TYPE.to_raw(),
                row_offsets.as_ptr(),
                col_indices.as_ptr(),
                value_ptr(values),
                values.len() as u64,
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Add a block from block-local COO triplets in strictly increasing (row, column) order.
    pub fn add_coo<T: Value>(
        &mut self,
        placement: BlockPlacement,
        row_indices: &[u32],
        col_indices: &[u32],
        values: &[T],
        options: &WriteOptions,
    ) -> Result<()> {
        require_same_len("row_indices and values", row_indices.len(), values.len())?;
        require_same_len("col_indices and values", col_indices.len(), values.len())?;
        let raw_options = options.to_raw();
        // SAFETY: the three slices hold values.len() elements each, as the library reads them.
        let status = unsafe {
            sys::dbdf_writer_add_coo(
                self.raw(),
                placement.row,
                placement.col,
                placement.rows,
                placement.cols,
                T::VALUE_TYPE.to_raw(),
                row_indices.as_ptr(),
                col_indices.as_ptr(),
                value_ptr(values),
                values.len() as u64,
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Add an empty (all-zero) block.
    pub fn add_empty(&mut self, placement: BlockPlacement) -> Result<()> {
        // SAFETY: plain values; the writer is live.
        let status = unsafe {
            sys::dbdf_writer_add_empty(self.raw(), placement.row, placement.col, placement.rows, placement.cols)
        };
        self.finish_call(status)
    }

    /// Write the whole matrix from dense row-major `values` (`row_stride` 0: the column count), tiled as
    /// `options` say. Only right after `begin_matrix`; `finish` is still needed.
    pub fn write_dense<T: Value>(&mut self, values: &[T], row_stride: u64, options: &WriteOptions) -> Result<()> {
        let raw_options = options.to_raw();
        // SAFETY: values holds values.len() elements of T, the type passed; the library checks the count.
        let status = unsafe {
            sys::dbdf_writer_write_dense(
                self.raw(),
                T::VALUE_TYPE.to_raw(),
                value_ptr(values),
                values.len(),
                row_stride,
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Write the whole matrix from object-wide CSR arrays (`row_offsets`: rows + 1 entries), tiled as `options`
    /// say. Only right after `begin_matrix`.
    pub fn write_csr<T: Value>(
        &mut self,
        row_offsets: &[u64],
        col_indices: &[u64],
        values: &[T],
        options: &WriteOptions,
    ) -> Result<()> {
        // Before a successful begin the library rejects the call before reading the arrays, with a row count
        // of zero: one offset is all it could touch.
        require_row_offsets(row_offsets, self.object_rows.unwrap_or(0))?;
        require_same_len("col_indices and values", col_indices.len(), values.len())?;
        let raw_options = options.to_raw();
        // SAFETY: row_offsets holds rows + 1 entries and col_indices one per value, as the library reads them.
        let status = unsafe {
            sys::dbdf_writer_write_csr(
                self.raw(),
                T::VALUE_TYPE.to_raw(),
                row_offsets.as_ptr(),
                col_indices.as_ptr(),
                value_ptr(values),
                values.len() as u64,
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Write frame (or matrix) column `column` from one value per row, in blocks of `options.block_rows` rows.
    pub fn write_column<T: Value>(&mut self, column: u64, values: &[T], options: &WriteOptions) -> Result<()> {
        let raw_options = options.to_raw();
        // SAFETY: values holds values.len() elements of T, the type passed; the library checks the count.
        let status = unsafe {
            sys::dbdf_writer_write_column(
                self.raw(),
                column,
                T::VALUE_TYPE.to_raw(),
                value_ptr(values),
                values.len(),
                &raw_options,
            )
        };
        self.finish_call(status)
    }

    /// Check that the blocks cover every cell, flush, and for a file writer sync and move the file into place.
    /// If cells are uncovered ([`Status::Format`](crate::Status::Format)) blocks can still be added.
    pub fn finish(&mut self) -> Result<()> {
        // SAFETY: the writer is live.
        let status = unsafe { sys::dbdf_writer_finish(self.raw()) };
        self.finish_call(status)?;
        if let Some(sink) = self.sink {
            // SAFETY: no library call is running, so the sink is not borrowed by the callback.
            let sink = unsafe { &mut *sink.as_ptr() };
            sink.flush().map_err(|error| Error::new(Status::Sink, format!("flushing the sink failed: {error}")))?;
        }
        Ok(())
    }

    /// Bytes written so far (header and blocks).
    pub fn bytes_written(&self) -> Result<u64> {
        let mut written = 0u64;
        // SAFETY: the writer is live; written is a valid out-parameter.
        check(unsafe { sys::dbdf_writer_bytes_written(self.raw(), &mut written) })?;
        Ok(written)
    }

    /// The bytes of a finished memory writer, borrowed from the writer.
    pub fn memory(&self) -> Result<&[u8]> {
        let mut data: *const std::ffi::c_void = std::ptr::null();
        let mut nbytes = 0usize;
        // SAFETY: the writer is live; data and nbytes are valid out-parameters.
        check(unsafe { sys::dbdf_writer_memory(self.raw(), &mut data, &mut nbytes) })?;
        if nbytes == 0 {
            return Ok(&[]);
        }
        // SAFETY: the library guarantees `nbytes` bytes at `data` until the writer is freed; the slice borrows
        // the writer, and no `&mut self` call can run while it lives.
        Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), nbytes) })
    }

    /// Copy the bytes of a finished memory writer into `out`; returns their number.
    /// [`Status::BufferTooSmall`](crate::Status::BufferTooSmall) if `out` is shorter (nothing is copied).
    pub fn copy_memory(&self, out: &mut [u8]) -> Result<usize> {
        let mut nbytes = 0usize;
        // SAFETY: out is valid for out.len() bytes; nbytes is a valid out-parameter.
        check(unsafe { sys::dbdf_writer_copy_memory(self.raw(), out.as_mut_ptr().cast(), out.len(), &mut nbytes) })?;
        Ok(nbytes)
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from the library and is freed exactly once, before its callback context.
        unsafe { sys::dbdf_writer_free(self.raw()) };
        if let Some(sink) = self.sink.take() {
            // SAFETY: the sink was leaked from a Box in `to_sink` and the library no longer refers to it.
            drop(unsafe { Box::from_raw(sink.as_ptr()) });
        }
    }
}

impl std::fmt::Debug for Writer<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Writer")
            .field("bytes_written", &self.bytes_written())
            .field("callback", &self.sink.is_some())
            .finish()
    }
}
