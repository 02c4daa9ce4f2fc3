//! Dialects: which byte layout a file follows ([`Dialect`]), how a writer is opened for one ([`WriterOptions`]),
//! and how a block's payload bytes are arranged ([`PayloadLayout`]), which the daphne dialect makes vary.

use std::ffi::CString;

use dbdf_sys as sys;

use crate::error::{check, static_str, Error, Result, Status};
use crate::types::{named_by_the_library, unknown_code};

/// Which byte layout a `.dbdf` file follows. It is chosen explicitly when a reader or writer is opened and never
/// guessed; the spec dialect never accepts the daphne layout.
///
/// [`Daphne`](Dialect::Daphne) is what DAPHNE's own runtime writes: its value type codes, CSR blocks as three
/// arrays with 64-bit indices, frames without a block header and without recoverable labels, and a scalar form
/// (`docs/daphne-dialect.md` of the repository, section 5 of `dbdf.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// The published format; the default everywhere.
    #[default]
    Spec,
    /// The layout DAPHNE's runtime writes.
    Daphne,
}

impl Dialect {
    /// The library's name: "spec" or "daphne".
    pub fn name(self) -> &'static str {
        // SAFETY: dbdf_dialect_name accepts any value and returns a static string.
        static_str(unsafe { sys::dbdf_dialect_name(self.to_raw()) })
    }

    /// Parse a name as the library does ("spec" or "daphne"); [`Status::InvalidArgument`] for any other.
    pub fn from_name(name: &str) -> Result<Dialect> {
        let name_text = CString::new(name)
            .map_err(|_| Error::new(Status::InvalidArgument, "a dialect name cannot contain a NUL byte"))?;
        let mut raw = sys::dbdf_dialect_t::DBDF_DIALECT_SPEC;
        // SAFETY: name_text is NUL-terminated and raw is a valid out-parameter; both outlive the call.
        check(unsafe { sys::dbdf_dialect_from_name(name_text.as_ptr(), &mut raw) })?;
        Dialect::from_raw(raw)
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_dialect_t {
        match self {
            Dialect::Spec => sys::dbdf_dialect_t::DBDF_DIALECT_SPEC,
            Dialect::Daphne => sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE,
        }
    }

    pub(crate) fn from_raw(raw: sys::dbdf_dialect_t) -> Result<Dialect> {
        match raw {
            sys::dbdf_dialect_t::DBDF_DIALECT_SPEC => Ok(Dialect::Spec),
            sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE => Ok(Dialect::Daphne),
            _ => Err(unknown_code("dialect", raw.0)),
        }
    }

    /// The C options that open a reader of this dialect.
    pub(crate) fn open_options(self) -> sys::dbdf_open_options_t {
        let mut raw = sys::dbdf_open_options_t::default();
        // SAFETY: raw is a valid dbdf_open_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_open_options_init(&mut raw) };
        raw.dialect = self.to_raw();
        raw
    }
}

named_by_the_library!(Dialect);

/// How a writer is opened ([`Writer::create_with`](crate::Writer::create_with),
/// [`in_memory_with`](crate::Writer::in_memory_with), [`to_sink_with`](crate::Writer::to_sink_with)): its dialect
/// and, in the daphne dialect, whether a file writer also writes the `.meta` sidecar. Not to be confused with
/// [`WriteOptions`](crate::WriteOptions), which say how each block is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WriterOptions {
    /// The layout written; the spec dialect by default.
    pub dialect: Dialect,
    /// Daphne dialect, file writers only: [`finish`](crate::Writer::finish) also writes `<path>.meta`, the JSON
    /// file DaphneDSL's `read` opens before a `.dbdf` file (true by default). Ignored in the spec dialect and by
    /// memory and sink writers, which have no path to put it next to.
    pub write_meta: bool,
}

impl WriterOptions {
    /// The defaults: the spec dialect, with the `.meta` sidecar whenever the daphne dialect is chosen.
    pub fn new() -> WriterOptions {
        WriterOptions { dialect: Dialect::Spec, write_meta: true }
    }

    /// These options with `dialect`.
    pub fn dialect(self, dialect: Dialect) -> WriterOptions {
        WriterOptions { dialect, ..self }
    }

    /// These options writing the `.meta` sidecar or not.
    pub fn write_meta(self, write_meta: bool) -> WriterOptions {
        WriterOptions { write_meta, ..self }
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_writer_options_t {
        let mut raw = sys::dbdf_writer_options_t::default();
        // SAFETY: raw is a valid dbdf_writer_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_writer_options_init(&mut raw) };
        raw.dialect = self.dialect.to_raw();
        raw.write_meta = i32::from(self.write_meta);
        raw
    }
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions::new()
    }
}

/// How the bytes of a block's [`payload`](crate::Block::payload) are arranged. The decoding methods handle every
/// layout; this matters only to callers reading the raw payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayloadLayout {
    /// As the spec describes the block type: every block of the spec dialect, and dense blocks of daphne
    /// matrices and scalars.
    Spec,
    /// Daphne CSR: row offsets (`u64` x (rows + 1)), then column indices (`u64` x stored values), then the values;
    /// all little-endian.
    DaphneCsr,
    /// One column of a daphne frame: `rows` values of the block's value type, each `value_stride` bytes after the
    /// previous one, with the other columns' values in between.
    StridedColumn {
        /// Bytes from one value of the column to the next: the width of a frame row.
        value_stride: u64,
    },
}

impl PayloadLayout {
    pub(crate) fn from_raw(raw: sys::dbdf_payload_layout_t, value_stride: u64) -> Result<PayloadLayout> {
        match raw {
            sys::dbdf_payload_layout_t::DBDF_PAYLOAD_SPEC => Ok(PayloadLayout::Spec),
            sys::dbdf_payload_layout_t::DBDF_PAYLOAD_DAPHNE_CSR => Ok(PayloadLayout::DaphneCsr),
            sys::dbdf_payload_layout_t::DBDF_PAYLOAD_STRIDED_COLUMN => {
                Ok(PayloadLayout::StridedColumn { value_stride })
            }
            _ => Err(unknown_code("payload layout", raw.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_names_round_trip_through_the_library() {
        for dialect in [Dialect::Spec, Dialect::Daphne] {
            assert_eq!(dialect.name().parse::<Dialect>().unwrap(), dialect);
            assert_eq!(Dialect::from_raw(dialect.to_raw()).unwrap(), dialect);
        }
        assert_eq!(Dialect::Daphne.to_string(), "daphne");
        assert_eq!(Dialect::from_name("DAPHNE-ish").unwrap_err().status(), Status::InvalidArgument);
        assert_eq!(Dialect::from_raw(sys::dbdf_dialect_t(2)).unwrap_err().status(), Status::Unsupported);
    }

    #[test]
    fn writer_options_reach_the_c_struct() {
        let raw = WriterOptions::new().dialect(Dialect::Daphne).write_meta(false).to_raw();
        assert_eq!(raw.struct_size, std::mem::size_of::<sys::dbdf_writer_options_t>());
        assert_eq!((raw.dialect, raw.write_meta), (sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE, 0));
        let defaults = WriterOptions::default().to_raw();
        assert_eq!((defaults.dialect, defaults.write_meta), (sys::dbdf_dialect_t::DBDF_DIALECT_SPEC, 1));
        let open = Dialect::Daphne.open_options();
        assert_eq!(open.struct_size, std::mem::size_of::<sys::dbdf_open_options_t>());
        assert_eq!(open.dialect, sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE);
    }

    #[test]
    fn payload_layout_codes_the_binding_does_not_know_are_errors() {
        let strided = PayloadLayout::from_raw(sys::dbdf_payload_layout_t::DBDF_PAYLOAD_STRIDED_COLUMN, 20).unwrap();
        assert_eq!(strided, PayloadLayout::StridedColumn { value_stride: 20 });
        let unknown = PayloadLayout::from_raw(sys::dbdf_payload_layout_t(3), 0).unwrap_err();
        assert_eq!(unknown.status(), Status::Unsupported);
    }
}
