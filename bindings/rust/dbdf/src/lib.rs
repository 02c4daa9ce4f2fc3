//! Safe Rust interface to dbdf, the reader and writer of the DAPHNE binary data format (`.dbdf`).
//!
//! Built on the C interface (`dbdf.h`, through [`dbdf_sys`]); every rule of the format is checked by the library,
//! never re-implemented here.
//!
//! - [`Reader`] reads one object from a file or from bytes: its header ([`ObjectInfo`], frame column types and
//!   labels), its blocks one at a time ([`Reader::next_block`] gives a [`Block`] to decode, with a zero-copy
//!   [`Block::payload`]; [`Reader::blocks`] iterates over the block headers), or the whole object
//!   ([`Reader::read_dense`], [`Reader::read_csr`], [`Reader::read_column`], windows).
//! - [`Writer`] writes one object to a file (atomically), to memory or to any `std::io::Write`: block by block
//!   or through the tiling helpers, with [`WriteOptions`] choosing the encoding and the tile shape.
//! - Values are any of the ten [`Value`] types (`u8` … `f64`). Conversions are exact or fail with
//!   [`Status::Range`].
//! - Every fallible call returns [`Result<T>`]; an [`Error`] carries the [`Status`] and the library's message,
//!   read right after the failing call.
//! - Both are opened in a [`Dialect`]: the published format (the default), or the layout DAPHNE's runtime
//!   really writes ([`Reader::open_with`], [`Reader::from_bytes_with`], [`Writer::create_with`] and its memory and
//!   sink forms, with [`WriterOptions`] choosing the dialect and the `.meta` sidecar).
//! - [`ReaderOptions`] and [`WriterOptions`] also say how many threads the whole-object reads and `write_dense`
//!   use ([`Reader::open_with_options`], [`Reader::from_bytes_with_options`]), and whether a file writer syncs
//!   its file to the disk ([`WriterOptions::durable`]).
//! - With the feature `arrow`, Arrow's C data interface through arrow-rs (the module `arrow`, with an example): a
//!   reader's object as a `RecordBatchReader` (`Reader::arrow_stream`, `Reader::into_arrow_stream`,
//!   `ArrowStream::from_bytes`), a writer fed from one (`Writer::write_arrow`, `save_arrow`).
//!
//! # Threads
//!
//! [`Reader`], [`Writer`], [`Block`] and [`BlockInfos`] are `Send` and not `Sync`: `dbdf.h` lets a handle move
//! between threads but allows only one thread at a time to use it. Different readers and writers are independent
//! and may be used concurrently, including several readers of the same file or bytes.
//!
//! ```compile_fail
//! fn shared_between_threads<T: Sync>() {}
//! shared_between_threads::<dbdf::Reader<'static>>();
//! ```
//!
//! ```compile_fail
//! fn shared_between_threads<T: Sync>() {}
//! shared_between_threads::<dbdf::Writer<'static>>();
//! ```
//!
//! A payload borrowed from a block cannot outlive the block, and the reader cannot move on while it lives:
//!
//! ```compile_fail
//! # fn main() -> dbdf::Result<()> {
//! let mut reader = dbdf::Reader::open("matrix.dbdf")?;
//! let block = reader.next_block()?.unwrap();
//! let payload = block.payload()?;
//! reader.next_block()?; // error: `reader` is still borrowed by `payload`
//! println!("{}", payload.len());
//! # Ok(())
//! # }
//! ```
//!
//! A reader of memory borrows the bytes for its whole life, since the library reads them in place:
//!
//! ```compile_fail
//! let bytes = std::fs::read("matrix.dbdf").unwrap();
//! let reader = dbdf::Reader::from_bytes(&bytes);
//! drop(bytes); // error: `bytes` is still borrowed by `reader`
//! println!("{:?}", reader.map(|reader| reader.info()));
//! ```
//!
//! # Example
//!
//! ```no_run
//! use dbdf::{DataType, Reader, ValueType, WriteOptions, Writer};
//!
//! # fn main() -> dbdf::Result<()> {
//! let values: Vec<f64> = (0..12).map(|i| if i % 5 == 0 { 0.0 } else { i as f64 / 2.0 }).collect();
//! let mut writer = Writer::create("matrix.dbdf")?;
//! writer.begin_matrix(DataType::Dense, ValueType::F64, 3, 4)?;
//! writer.write_dense(&values, 0, &WriteOptions::new().block_shape(2, 2))?;
//! writer.finish()?;
//!
//! let mut reader = Reader::open("matrix.dbdf")?;
//! while let Some(mut block) = reader.next_block()? {
//!     let info = *block.info();
//!     let cells: Vec<f64> = block.decode_dense()?;
//!     println!("{} x {} {} block at ({}, {}): {cells:?}", info.rows, info.cols, info.block_type, info.row, info.col);
//! }
//! assert_eq!(reader.read_dense::<f64>()?, values);
//! # Ok(())
//! # }
//! ```

//!
//! # The daphne dialect
//!
//! Files written by DAPHNE's own runtime follow another layout; it is read and written only when asked for:
//!
//! ```no_run
//! use dbdf::{DataType, Dialect, Reader, ValueType, WriteOptions, Writer, WriterOptions};
//!
//! # fn main() -> dbdf::Result<()> {
//! let mut reader = Reader::open_with("from_daphne.dbdf", Dialect::Daphne)?;
//! if reader.info()?.data_type == DataType::Frame && !reader.labels_recoverable()? {
//!     println!("the runtime did not store the labels; they read as {}", reader.column_label(0)?);
//! }
//! let values: Vec<f64> = reader.read_dense()?;
//!
//! // The runtime's bytes, and the m.dbdf.meta file DaphneDSL's read needs.
//! let mut writer = Writer::create_with("m.dbdf", &WriterOptions::new().dialect(Dialect::Daphne))?;
//! writer.begin_matrix(DataType::Dense, ValueType::F64, 1, values.len() as u64)?;
//! writer.write_dense(&values, 0, &WriteOptions::new())?;
//! writer.finish()?;
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

#[cfg(feature = "arrow")]
pub mod arrow;
mod block;
mod buffers;
mod dialect;
mod error;
mod options;
mod path;
mod reader;
mod sink;
mod source;
mod sparse;
mod types;
mod value;
mod writer;

#[cfg(feature = "arrow")]
pub use arrow::{save_arrow, ArrowExportOptions, ArrowImportOptions, ArrowStream};
pub use block::{Block, BlockInfo, BlockInfos};
pub use dialect::{Dialect, PayloadLayout, ReaderOptions, WriterOptions};
pub use error::{Error, Result, Status};
pub use options::{BlockPlacement, FrameColumn, Window, WriteOptions};
pub use reader::{ObjectInfo, Reader, Violation};
pub use source::{ConcurrentReadAt, ReadAt};
pub use sparse::{Coo, Csr};
pub use types::{BlockType, DataType, Encoding, ValueType};
pub use value::Value;
pub use writer::Writer;

/// The raw declarations this crate is built on.
pub use dbdf_sys;

/// Version of `dbdf.h` this crate was built against: major * 10000 + minor * 100 + patch.
pub const HEADER_VERSION: u32 = dbdf_sys::DBDF_VERSION_NUMBER;

/// Version of the library loaded at run time, as [`HEADER_VERSION`] computes it.
pub fn version() -> u32 {
    // SAFETY: takes nothing, may be called from any thread at any time.
    unsafe { dbdf_sys::dbdf_version() }
}

/// Version of the library loaded at run time as "major.minor.patch".
pub fn version_string() -> &'static str {
    // SAFETY: returns a NUL-terminated string in static storage.
    error::static_str(unsafe { dbdf_sys::dbdf_version_string() })
}
