//! Arrow's C data interface through [arrow-rs](https://docs.rs/arrow-array) (feature `arrow`): a reader's object as
//! a [`RecordBatchReader`](arrow_array::RecordBatchReader) ([`Reader::arrow_stream`](crate::Reader::arrow_stream),
//! [`Reader::into_arrow_stream`](crate::Reader::into_arrow_stream), [`ArrowStream::from_bytes`]), and a writer fed
//! from one ([`Writer::write_arrow`](crate::Writer::write_arrow), [`save_arrow`]). The library does the work
//! (`dbdf_reader_export_arrow`, `dbdf_writer_import_arrow`); docs/arrow.md has the mapping of types and shapes.
//!
//! ```
//! use std::sync::Arc;
//!
//! use arrow_array::{ArrayRef, Float64Array, Int32Array, RecordBatch, RecordBatchReader};
//! use dbdf::{ArrowExportOptions, ArrowImportOptions, Reader};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let ids: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3]));
//! let scores: ArrayRef = Arc::new(Float64Array::from(vec![0.5, 1.5, 2.5]));
//! let batch = RecordBatch::try_from_iter([("id", ids), ("score", scores)])?;
//! let path = std::env::temp_dir().join(format!("frame-{}.dbdf", std::process::id()));
//! dbdf::save_arrow(&path, batch.schema(), std::slice::from_ref(&batch), &ArrowImportOptions::new())?;
//!
//! let mut reader = Reader::open(&path)?;
//! let stream = reader.arrow_stream(&ArrowExportOptions::new())?; // borrows the reader, pulls lazily
//! assert_eq!(stream.schema().field(1).name(), "score");
//! for read in stream {
//!     // A failed pull is an ArrowError; dbdf::Error::from_arrow_error(&error) gives the library's error back.
//!     let read: RecordBatch = read?;
//!     assert_eq!(read.columns(), batch.columns());
//! }
//! # std::fs::remove_file(&path)?;
//! # Ok(())
//! # }
//! ```

mod export;
mod import;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_data::ffi::FFI_ArrowArray;
use arrow_schema::ffi::FFI_ArrowSchema;
use dbdf_sys as sys;

pub use export::{ArrowExportOptions, ArrowStream};
pub use import::{save_arrow, ArrowImportOptions};

// dbdf.h defines Arrow's structs exactly as the specification has them, and arrow-rs's FFI types are the same
// `repr(C)` structs, so a pointer to one is passed where the library expects the other.
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<FFI_ArrowArrayStream>() == size_of::<sys::ArrowArrayStream>());
    assert!(align_of::<FFI_ArrowArrayStream>() == align_of::<sys::ArrowArrayStream>());
    assert!(size_of::<FFI_ArrowArray>() == size_of::<sys::ArrowArray>());
    assert!(align_of::<FFI_ArrowArray>() == align_of::<sys::ArrowArray>());
    assert!(size_of::<FFI_ArrowSchema>() == size_of::<sys::ArrowSchema>());
    assert!(align_of::<FFI_ArrowSchema>() == align_of::<sys::ArrowSchema>());
};

/// `stream` as the library's `struct ArrowArrayStream *` (the same layout, asserted above).
fn raw_stream(stream: &mut FFI_ArrowArrayStream) -> *mut sys::ArrowArrayStream {
    std::ptr::from_mut(stream).cast()
}
