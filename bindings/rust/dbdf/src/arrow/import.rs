//! Import: a writer fed from any arrow-rs [`RecordBatchReader`], batch by batch.

use std::ffi::c_int;
use std::path::Path;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::SchemaRef;
use dbdf_sys as sys;

use super::raw_stream;
use crate::error::Result;
use crate::writer::Writer;

/// How record batches become a .dbdf object: a frame with one column per field (the default) or a dense matrix
/// of one value type; Arrow booleans refused (the default) or written as `u8` 0 and 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ArrowImportOptions {
    as_matrix: bool,
    booleans_as_u8: bool,
}

impl ArrowImportOptions {
    /// The defaults: a frame, booleans refused.
    pub fn new() -> ArrowImportOptions {
        ArrowImportOptions::default()
    }

    /// `true`: a dense matrix whose columns are the fields, all of one type.
    pub fn as_matrix(mut self, as_matrix: bool) -> ArrowImportOptions {
        self.as_matrix = as_matrix;
        self
    }

    /// `true`: boolean columns become `u8` columns of 0 and 1.
    pub fn booleans_as_u8(mut self, booleans_as_u8: bool) -> ArrowImportOptions {
        self.booleans_as_u8 = booleans_as_u8;
        self
    }

    fn to_raw(self) -> sys::dbdf_arrow_import_options_t {
        let mut raw = sys::dbdf_arrow_import_options_t::default();
        // SAFETY: raw is a valid dbdf_arrow_import_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_arrow_import_options_init(&mut raw) };
        raw.as_matrix = c_int::from(self.as_matrix);
        raw.booleans_as_u8 = c_int::from(self.booleans_as_u8);
        raw
    }
}

impl Writer<'_> {
    /// Write `batches` (any [`RecordBatchReader`]: `rows` rows in all, which the header needs before the first
    /// block) as this writer's object, begun here: a frame labelled by the field names, or with
    /// [`as_matrix`](ArrowImportOptions::as_matrix) a dense matrix; blocks with automatic encoding, one batch held
    /// at a time. Call [`finish`](Writer::finish) after it.
    ///
    /// Refusals name the column (index and name): [`Status::Unsupported`] for a type dbdf has no value type for
    /// (strings, binaries, nested, decimals, temporal types, float16, booleans unless asked; with `as_matrix`,
    /// fields of different types), [`Status::Format`] for a null value or a row count other than `rows`;
    /// [`Status::Io`] carries the error of `batches` itself; [`Status::CallOrder`] if the writer has begun.
    pub fn write_arrow(
        &mut self,
        batches: impl RecordBatchReader + Send + 'static,
        rows: u64,
        options: &ArrowImportOptions,
    ) -> Result<()> {
        let raw_options = options.to_raw();
        let mut stream = FFI_ArrowArrayStream::new(Box::new(batches));
        // SAFETY: the writer is live; stream has Arrow's layout and is live; the library releases it on every path
        // (its release callback then marks it released, so dropping it afterwards does nothing); raw_options is
        // initialised.
        self.begin_through(rows, |writer| unsafe {
            sys::dbdf_writer_import_arrow(writer, raw_stream(&mut stream), rows, &raw_options)
        })
    }

    /// Write `batches`, of schema `schema`, as [`write_arrow`](Writer::write_arrow) does (the row count is theirs).
    pub fn write_record_batches(
        &mut self,
        schema: SchemaRef,
        batches: &[RecordBatch],
        options: &ArrowImportOptions,
    ) -> Result<()> {
        let rows = batches.iter().map(|batch| batch.num_rows() as u64).sum();
        // The stream must own its batches (the library may pull from it until it releases it); cloning a batch
        // clones reference-counted pointers to its buffers, not its values.
        let owned_batches: Vec<RecordBatch> = batches.to_vec();
        let reader = RecordBatchIterator::new(owned_batches.into_iter().map(Ok), schema);
        self.write_arrow(reader, rows, options)
    }
}

/// Write `batches`, of schema `schema`, to the file at `path` (atomically, in the spec dialect) as
/// [`Writer::write_record_batches`] does, and finish it.
pub fn save_arrow(
    path: impl AsRef<Path>,
    schema: SchemaRef,
    batches: &[RecordBatch],
    options: &ArrowImportOptions,
) -> Result<()> {
    let mut writer = Writer::create(path)?;
    writer.write_record_batches(schema, batches, options)?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_reach_the_c_struct() {
        let defaults = ArrowImportOptions::new().to_raw();
        assert_eq!(defaults.struct_size, std::mem::size_of::<sys::dbdf_arrow_import_options_t>());
        assert_eq!((defaults.as_matrix, defaults.booleans_as_u8), (0, 0));
        let both = ArrowImportOptions::new().as_matrix(true).booleans_as_u8(true).to_raw();
        assert_eq!((both.as_matrix, both.booleans_as_u8), (1, 1));
        let matrix_only = ArrowImportOptions::new().as_matrix(true).to_raw();
        assert_eq!((matrix_only.as_matrix, matrix_only.booleans_as_u8), (1, 0));
    }
}
