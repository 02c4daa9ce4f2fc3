//! Dialects: which byte layout a file follows ([`Dialect`]), how readers and writers are opened
//! ([`ReaderOptions`], [`WriterOptions`]: the dialect, threads, durability), and how a block's payload bytes are
//! arranged ([`PayloadLayout`]), which the daphne dialect makes vary.

use std::ffi::{c_uint, CString};
use std::num::NonZeroUsize;

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
}

named_by_the_library!(Dialect);

/// The C interface's thread count: 0 for automatic, else the count, which must fit in a C `unsigned`.
fn raw_threads(threads: Option<NonZeroUsize>, what: &str) -> Result<c_uint> {
    let Some(threads) = threads else { return Ok(0) };
    c_uint::try_from(threads.get()).map_err(|_| {
        Error::new(
            Status::InvalidArgument,
            format!("{what}: {threads} threads is more than the library accepts ({})", c_uint::MAX),
        )
    })
}

/// How a reader is opened ([`Reader::open_with_options`](crate::Reader::open_with_options),
/// [`from_bytes_with_options`](crate::Reader::from_bytes_with_options)): its dialect and how many threads the
/// whole-object reads decode on.
///
/// ```no_run
/// use std::num::NonZeroUsize;
/// use dbdf::{Reader, ReaderOptions, Writer, WriterOptions};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // Synced to the disk on finish; write_dense on two threads.
/// let durable = WriterOptions::new().durable(true).threads(NonZeroUsize::new(2));
/// let mut writer = Writer::create_with("m.dbdf", &durable)?;
/// # writer.finish()?;
/// // Whole-object reads on every core, or on the calling thread alone.
/// let every_core = ReaderOptions::new().threads(std::thread::available_parallelism()?);
/// let values: Vec<f64> = Reader::open_with_options("m.dbdf", &every_core)?.read_dense()?;
/// let calling_thread = ReaderOptions::new().threads(NonZeroUsize::MIN);
/// assert_eq!(Reader::open_with_options("m.dbdf", &calling_thread)?.read_dense::<f64>()?, values);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ReaderOptions {
    /// The layout read; the spec dialect by default.
    pub dialect: Dialect,
    /// Threads that [`read_dense`](crate::Reader::read_dense), [`read_dense_window`](crate::Reader::read_dense_window)
    /// and [`read_column`](crate::Reader::read_column) (and their `_into` forms) decode on, the calling thread
    /// included; they are started for the call and joined before it returns. `None` (the default): one per
    /// processor core for reads of 16 MiB or more, the calling thread alone for smaller ones. One
    /// ([`NonZeroUsize::MIN`]): only the calling thread. More than max(64, the processor count) start only that
    /// many. The values read never depend on the count; decoding block by block always runs on the calling thread
    /// alone. More than `u32::MAX` is refused when the reader is opened ([`Status::InvalidArgument`]).
    pub threads: Option<NonZeroUsize>,
}

impl ReaderOptions {
    /// The defaults: the spec dialect, an automatic number of threads.
    pub fn new() -> ReaderOptions {
        ReaderOptions::default()
    }

    /// These options with `dialect`.
    pub fn dialect(self, dialect: Dialect) -> ReaderOptions {
        ReaderOptions { dialect, ..self }
    }

    /// These options with `threads`: a count, or `None` for automatic, so `NonZeroUsize::new(n)` takes 0 as
    /// automatic and `std::thread::available_parallelism()?` asks for every core.
    pub fn threads(self, threads: impl Into<Option<NonZeroUsize>>) -> ReaderOptions {
        ReaderOptions { threads: threads.into(), ..self }
    }

    pub(crate) fn to_raw(self) -> Result<sys::dbdf_open_options_t> {
        let mut raw = sys::dbdf_open_options_t::default();
        // SAFETY: raw is a valid dbdf_open_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_open_options_init(&mut raw) };
        raw.dialect = self.dialect.to_raw();
        raw.threads = raw_threads(self.threads, "reader options")?;
        Ok(raw)
    }
}

/// How a writer is opened ([`Writer::create_with`](crate::Writer::create_with),
/// [`in_memory_with`](crate::Writer::in_memory_with), [`to_sink_with`](crate::Writer::to_sink_with)): its dialect,
/// whether a file writer writes the daphne dialect's `.meta` sidecar and syncs its file to the disk, and how many
/// threads [`write_dense`](crate::Writer::write_dense) uses. Not to be confused with
/// [`WriteOptions`](crate::WriteOptions), which say how each block is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WriterOptions {
    /// The layout written; the spec dialect by default.
    pub dialect: Dialect,
    /// Daphne dialect, file writers only: [`finish`](crate::Writer::finish) also writes `<path>.meta`, the JSON
    /// file DaphneDSL's `read` opens before a `.dbdf` file (true by default). Ignored in the spec dialect and by
    /// memory and sink writers, which have no path to put it next to.
    pub write_meta: bool,
    /// File writers only: [`finish`](crate::Writer::finish) syncs the file's data to the disk before moving it over
    /// the target, and the directory after, so the new file survives a system crash (power loss) once `finish`
    /// returns; this costs a flush of the data to the disk. Also applies to the `.meta` sidecar. False (the
    /// default): the replacement is still atomic (readers see the old file or the new one, never a part) but not
    /// synced, as with most writers, so after a crash the new contents may be missing. Ignored by memory and sink
    /// writers. The bytes written are the same either way.
    pub durable: bool,
    /// Threads [`write_dense`](crate::Writer::write_dense) uses, the calling thread included; the others are
    /// started for the call and joined before it returns. Every one of them analyses the values of the next tile
    /// not yet taken (the calling thread whenever the next tile to write is not analysed yet) while the calling
    /// thread encodes and writes the tiles in order. `None` (the default): one per processor core, at most four,
    /// for matrices of 16 MiB or more; one otherwise. One ([`NonZeroUsize::MIN`]): only the calling thread. More
    /// than max(64, the processor count) start only that many. Other calls always run on the calling thread, and
    /// the bytes written never depend on the count. More than `u32::MAX` is refused when the writer is opened
    /// ([`Status::InvalidArgument`]).
    pub threads: Option<NonZeroUsize>,
}

impl WriterOptions {
    /// The defaults: the spec dialect, with the `.meta` sidecar whenever the daphne dialect is chosen, not
    /// synced, an automatic number of threads.
    pub fn new() -> WriterOptions {
        WriterOptions { dialect: Dialect::Spec, write_meta: true, durable: false, threads: None }
    }

    /// These options with `dialect`.
    pub fn dialect(self, dialect: Dialect) -> WriterOptions {
        WriterOptions { dialect, ..self }
    }

    /// These options writing the `.meta` sidecar or not.
    pub fn write_meta(self, write_meta: bool) -> WriterOptions {
        WriterOptions { write_meta, ..self }
    }

    /// These options syncing a file writer's output to the disk on `finish`, or not.
    pub fn durable(self, durable: bool) -> WriterOptions {
        WriterOptions { durable, ..self }
    }

    /// These options with `threads`: a count, or `None` for automatic, as for
    /// [`ReaderOptions::threads`].
    pub fn threads(self, threads: impl Into<Option<NonZeroUsize>>) -> WriterOptions {
        WriterOptions { threads: threads.into(), ..self }
    }

    pub(crate) fn to_raw(self) -> Result<sys::dbdf_writer_options_t> {
        let mut raw = sys::dbdf_writer_options_t::default();
        // SAFETY: raw is a valid dbdf_writer_options_t; init sets struct_size and the defaults.
        unsafe { sys::dbdf_writer_options_init(&mut raw) };
        raw.dialect = self.dialect.to_raw();
        raw.write_meta = i32::from(self.write_meta);
        raw.durable = i32::from(self.durable);
        raw.threads = raw_threads(self.threads, "writer options")?;
        Ok(raw)
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
        let raw = WriterOptions::new()
            .dialect(Dialect::Daphne)
            .write_meta(false)
            .durable(true)
            .threads(NonZeroUsize::new(3))
            .to_raw()
            .unwrap();
        assert_eq!(raw.struct_size, std::mem::size_of::<sys::dbdf_writer_options_t>());
        assert_eq!((raw.dialect, raw.write_meta), (sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE, 0));
        assert_eq!((raw.durable, raw.threads), (1, 3));
        let defaults = WriterOptions::default().to_raw().unwrap();
        assert_eq!((defaults.dialect, defaults.write_meta), (sys::dbdf_dialect_t::DBDF_DIALECT_SPEC, 1));
        assert_eq!((defaults.durable, defaults.threads), (0, 0));
        let automatic = WriterOptions::new().threads(NonZeroUsize::new(4)).threads(None).to_raw().unwrap();
        assert_eq!(automatic.threads, 0);
    }

    #[test]
    fn reader_options_reach_the_c_struct() {
        let open = ReaderOptions::new().dialect(Dialect::Daphne).threads(NonZeroUsize::MIN).to_raw().unwrap();
        assert_eq!(open.struct_size, std::mem::size_of::<sys::dbdf_open_options_t>());
        assert_eq!((open.dialect, open.threads), (sys::dbdf_dialect_t::DBDF_DIALECT_DAPHNE, 1));
        let defaults = ReaderOptions::default().to_raw().unwrap();
        assert_eq!((defaults.dialect, defaults.threads), (sys::dbdf_dialect_t::DBDF_DIALECT_SPEC, 0));
        assert_eq!(ReaderOptions::new().threads(NonZeroUsize::new(0)), ReaderOptions::new());
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn thread_counts_beyond_a_c_unsigned_are_refused() {
        let too_many = NonZeroUsize::new(c_uint::MAX as usize + 1);
        let error = ReaderOptions::new().threads(too_many).to_raw().unwrap_err();
        assert_eq!(error.status(), Status::InvalidArgument);
        assert!(error.message().contains("4294967296 threads"), "{}", error.message());
        let error = WriterOptions::new().threads(too_many).to_raw().unwrap_err();
        assert_eq!(error.status(), Status::InvalidArgument);
        let most = WriterOptions::new().threads(NonZeroUsize::new(c_uint::MAX as usize)).to_raw().unwrap();
        assert_eq!(most.threads, c_uint::MAX);
    }

    #[test]
    fn payload_layout_codes_the_binding_does_not_know_are_errors() {
        let strided = PayloadLayout::from_raw(sys::dbdf_payload_layout_t::DBDF_PAYLOAD_STRIDED_COLUMN, 20).unwrap();
        assert_eq!(strided, PayloadLayout::StridedColumn { value_stride: 20 });
        let unknown = PayloadLayout::from_raw(sys::dbdf_payload_layout_t(3), 0).unwrap_err();
        assert_eq!(unknown.status(), Status::Unsupported);
    }
}
