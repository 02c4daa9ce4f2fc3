//! Export: a reader's object as an arrow-rs [`RecordBatchReader`], one batch per row band, pulled lazily.

use std::ffi::{c_int, c_void, CStr};
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use arrow_array::ffi::from_ffi_and_data_type;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchOptions, RecordBatchReader, StructArray};
use arrow_data::ffi::FFI_ArrowArray;
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{ArrowError, DataType, Schema, SchemaRef};
use dbdf_sys as sys;

use super::raw_stream;
use crate::dialect::ReaderOptions;
use crate::error::{check, Error, Result, Status};
use crate::reader::Reader;

/// How a reader's object becomes record batches: a dense matrix as one field per column (`c0`, `c1`, ...; the
/// default) or as one fixed-size-list field `values`; a CSR matrix as `(row, col, value)` entries (the default) or
/// as each row band's CSR arrays. Frames have one shape (docs/arrow.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ArrowExportOptions {
    dense_as_list: bool,
    csr_as_arrays: bool,
}

impl ArrowExportOptions {
    /// The defaults: a dense matrix as one field per column.
    pub fn new() -> ArrowExportOptions {
        ArrowExportOptions::default()
    }

    /// `true`: a dense matrix as one field `values`, a fixed-size list of the value type per row.
    pub fn dense_as_list(mut self, dense_as_list: bool) -> ArrowExportOptions {
        self.dense_as_list = dense_as_list;
        self
    }

    /// `true`: a CSR matrix as one batch per row band (or slice of one) of length 1 with the fields `row_begin`
    /// (the band's first row), `row_offsets` (its rows + 1 offsets, from 0), `col` and `value`, the last three
    /// as one-row large lists: the band's CSR arrays, entries row-major.
    pub fn csr_as_arrays(mut self, csr_as_arrays: bool) -> ArrowExportOptions {
        self.csr_as_arrays = csr_as_arrays;
        self
    }

    fn to_raw(self, take_reader: bool) -> sys::dbdf_arrow_export_options_t {
        let mut raw = sys::dbdf_arrow_export_options_t::default();
        // SAFETY: raw is a valid dbdf_arrow_export_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_arrow_export_options_init(&mut raw) };
        raw.dense_as_list = c_int::from(self.dense_as_list);
        raw.take_reader = c_int::from(take_reader);
        raw.csr_as_arrays = c_int::from(self.csr_as_arrays);
        raw
    }
}

/// The record batches of one reader's object, pulled from the library as they are iterated; a
/// [`RecordBatchReader`]. A failure while pulling (a broken block, an I/O error) is an
/// [`ArrowError::ExternalError`] holding the library's [`Error`]: [`Error::from_arrow_error`] gives it back, with
/// its status, rule and byte offset, and the error's text ends with the library's message.
///
/// `'reader` is the borrow of the reader the stream pulls through ([`Reader::arrow_stream`]); a stream that owns
/// its reader is `ArrowStream<'static>`. Batches own their data or share it with the stream's own reader, so they
/// may outlive the stream and the reader, and be dropped in any order, on any thread.
pub struct ArrowStream<'reader> {
    stream: FFI_ArrowArrayStream, // released when dropped
    schema: SchemaRef,
    _reader: PhantomData<&'reader mut ()>,
}

impl std::fmt::Debug for ArrowStream<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("ArrowStream").field("schema", &self.schema).finish()
    }
}

impl Iterator for ArrowStream<'_> {
    type Item = std::result::Result<RecordBatch, ArrowError>;

    /// Pulls the next batch through the stream's `get_next` (as arrow-rs's `RecordBatchStreamReader` does, but
    /// keeping the errno value of a failure, which says its status). After a failure the stream stays where it
    /// was: the next call tries the same batch again.
    fn next(&mut self) -> Option<Self::Item> {
        let stream = raw_stream(&mut self.stream);
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: the library's stream is live until self drops it and always has get_next.
        let get_next = unsafe { (*stream).get_next }.expect("the library's stream has get_next");
        // SAFETY: stream is live; array has Arrow's layout (asserted in the module) and is empty.
        let code = unsafe { get_next(stream, std::ptr::from_mut(&mut array).cast()) };
        if code != 0 {
            return Some(Err(ArrowError::ExternalError(Box::new(stream_failure(stream, code)))));
        }
        if array.is_released() {
            return None; // the end
        }
        // SAFETY: the library filled array as a struct array of the schema's fields; from here arrow-rs owns it.
        let data = unsafe { from_ffi_and_data_type(array, DataType::Struct(self.schema.fields().clone())) };
        Some(data.and_then(|data| {
            // A batch of no columns still has its rows (an object of rows and no columns).
            let rows = data.len();
            let columns = StructArray::from(data).into_parts().1;
            let options = RecordBatchOptions::new().with_row_count(Some(rows));
            RecordBatch::try_new_with_options(Arc::clone(&self.schema), columns, &options)
        }))
    }
}

impl RecordBatchReader for ArrowStream<'_> {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}

impl Error {
    /// The library's error behind an [`ArrowError`] that a pull of an [`ArrowStream`] failed with (its
    /// [`ArrowError::ExternalError`]); `None` for an `ArrowError` of any other origin.
    ///
    /// Arrow's C stream passes on an errno value and a message alone, so the status is what the errno stands
    /// for: [`Status::Io`] (`EIO`: the input could not be read), [`Status::NoMem`] (`ENOMEM`), otherwise
    /// [`Status::Format`] (`EINVAL`: the input breaks the format, which includes what a read reports as
    /// [`Status::Truncated`] or [`Status::Range`]); the rule and the byte offset are read back from the end of the
    /// message, where the library always puts them. The message is the library's, whole.
    pub fn from_arrow_error(error: &ArrowError) -> Option<&Error> {
        match error {
            ArrowError::ExternalError(inner) => inner.downcast_ref::<Error>(),
            _ => None,
        }
    }
}

/// `EIO` and `ENOMEM`: the same numbers in every C library the library builds with (glibc, musl, macOS, MSVC).
const EIO: c_int = 5;
const ENOMEM: c_int = 12;

/// The error of a `get_schema` or `get_next` of `stream` that just returned `code`: the status its errno stands for
/// and the stream's last error message.
fn stream_failure(stream: *mut sys::ArrowArrayStream, code: c_int) -> Error {
    let status = match code {
        EIO => Status::Io,
        ENOMEM => Status::NoMem,
        _ => Status::Format,
    };
    // SAFETY: stream is live and its callback just failed; the message stays valid until its next call, and it is
    // copied before that.
    let message = unsafe { (*stream).get_last_error.map(|last_error| last_error(stream)) }
        .filter(|message| !message.is_null())
        // SAFETY: a non-null message is a NUL-terminated string owned by the stream (see above).
        .map(|message| unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("the Arrow stream failed with errno {code} and no message"));
    Error::from_library_message(status, message)
}

impl ArrowStream<'static> {
    /// The record batches of the object held in `bytes` (a `Vec<u8>`, an `Arc<[u8]>`, an Arrow `Buffer`...),
    /// read in `reader_options.dialect`. The stream owns the bytes and its reader: a column whose rows of a band
    /// are one dense block of the column's type, aligned to it, is lent to the batch without a copy
    /// (docs/arrow.md, "Zero copy"), and the bytes are dropped once the stream and every batch are.
    pub fn from_bytes<B>(
        bytes: B,
        reader_options: &ReaderOptions,
        options: &ArrowExportOptions,
    ) -> Result<ArrowStream<'static>>
    where
        B: AsRef<[u8]> + Send + Sync + 'static,
    {
        let bytes = Arc::new(bytes);
        let data: &[u8] = (*bytes).as_ref();
        // SAFETY: the slice lies in `bytes`, which is neither moved (it is behind the Arc) nor changed (only
        // shared references to it exist) nor dropped while a clone of the Arc lives: this function's until the
        // reader is freed or handed to the stream, the release hook's until the stream and every batch are
        // released. The reader, the only user of the slice, lives no longer than that.
        let data: &'static [u8] = unsafe { std::slice::from_raw_parts(data.as_ptr(), data.len()) };
        let reader = Reader::from_bytes_with_options(data, reader_options)?;
        let kept_alive: Box<dyn Send> = Box::new(Arc::clone(&bytes));
        let stream = export(&reader, options, true, Some(kept_alive));
        if stream.is_ok() {
            reader.forget_handle();
        }
        ArrowStream::new(stream?)
    }
}

impl Reader<'static> {
    /// The object's record batches through a stream that takes the reader over: it is freed once the stream and
    /// every batch are dropped. Reads only the header now; each batch is decoded when it is pulled.
    pub fn into_arrow_stream(self, options: &ArrowExportOptions) -> Result<ArrowStream<'static>> {
        let stream = export(&self, options, true, None);
        if stream.is_ok() {
            self.forget_handle();
        } // on failure the reader stays ours, and is dropped here
        ArrowStream::new(stream?)
    }
}

impl Reader<'_> {
    /// The object's record batches through a stream that borrows the reader: pulling a batch moves the reader's
    /// block position, so the reader can be used again only once the stream is dropped. Batches own their
    /// buffers (decoded), so they may outlive the stream and the reader. Reads only the header now.
    ///
    /// The stream cannot outlive the reader:
    ///
    /// ```compile_fail
    /// # fn main() -> dbdf::Result<()> {
    /// let mut reader = dbdf::Reader::open("matrix.dbdf")?;
    /// let stream = reader.arrow_stream(&dbdf::ArrowExportOptions::new())?;
    /// drop(reader); // error: `reader` is still borrowed by `stream`
    /// println!("{}", stream.count());
    /// # Ok(())
    /// # }
    /// ```
    pub fn arrow_stream(&mut self, options: &ArrowExportOptions) -> Result<ArrowStream<'_>> {
        ArrowStream::new(export(self, options, false, None)?)
    }
}

impl ArrowStream<'_> {
    fn new(mut stream: FFI_ArrowArrayStream) -> Result<Self> {
        let raw = raw_stream(&mut stream);
        let mut schema = FFI_ArrowSchema::empty();
        // SAFETY: the library's stream is live and always has get_schema.
        let get_schema = unsafe { (*raw).get_schema }.expect("the library's stream has get_schema");
        // SAFETY: raw is live; schema has Arrow's layout (asserted in the module) and is empty; schema releases
        // what the library fills in when it is dropped.
        let code = unsafe { get_schema(raw, std::ptr::from_mut(&mut schema).cast()) };
        if code != 0 {
            return Err(stream_failure(raw, code));
        }
        // The schema is the library's from the header alone; arrow-rs refuses one only for a frame label that is
        // not UTF-8 (its field names are strings).
        let schema = Schema::try_from(&schema).map_err(|error| {
            Error::new(Status::Unsupported, format!("arrow-rs cannot take the object's schema: {error}"))
        })?;
        Ok(ArrowStream { stream, schema: Arc::new(schema), _reader: PhantomData })
    }
}

/// The library's stream over `reader`'s object. With `take_reader` the stream owns the reader's handle once this
/// succeeds (the caller must then forget it); `kept_alive` is dropped when the stream and every batch are released
/// (or before this returns an error).
fn export(
    reader: &Reader<'_>,
    options: &ArrowExportOptions,
    take_reader: bool,
    kept_alive: Option<Box<dyn Send>>,
) -> Result<FFI_ArrowArrayStream> {
    let mut raw = options.to_raw(take_reader);
    if let Some(kept_alive) = kept_alive {
        raw.release = Some(drop_kept_alive);
        raw.release_context = Box::into_raw(Box::new(kept_alive)).cast();
    }
    let mut stream = FFI_ArrowArrayStream::empty();
    // SAFETY: the reader is live; raw is initialised, its release context a leaked Box<Box<dyn Send>> that the
    // library hands back exactly once; stream has Arrow's layout and is empty, so filling it leaks nothing.
    check(unsafe { sys::dbdf_reader_export_arrow(reader.raw(), &raw, raw_stream(&mut stream)) })?;
    Ok(stream)
}

/// The release hook of [`export`]: drops what the batches needed kept alive.
unsafe extern "C" fn drop_kept_alive(context: *mut c_void) {
    // SAFETY: context is the Box<Box<dyn Send>> leaked by `export`; the library calls this exactly once.
    let kept_alive = unsafe { Box::from_raw(context.cast::<Box<dyn Send>>()) };
    // It runs inside a consumer's release callback, where a panic cannot unwind and nobody could be told of it.
    let _ = std::panic::catch_unwind(AssertUnwindSafe(move || drop(kept_alive)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_reach_the_c_struct() {
        let defaults = ArrowExportOptions::new().to_raw(false);
        assert_eq!(defaults.struct_size, std::mem::size_of::<sys::dbdf_arrow_export_options_t>());
        assert_eq!((defaults.dense_as_list, defaults.take_reader), (0, 0));
        assert!(defaults.release.is_none() && defaults.release_context.is_null());
        let list_taken = ArrowExportOptions::new().dense_as_list(true).to_raw(true);
        assert_eq!((list_taken.dense_as_list, list_taken.take_reader, list_taken.csr_as_arrays), (1, 1, 0));
        assert_eq!(defaults.csr_as_arrays, 0);
        assert_eq!(ArrowExportOptions::new().csr_as_arrays(true).to_raw(false).csr_as_arrays, 1);
    }
}
