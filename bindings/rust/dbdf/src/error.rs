//! Errors: the status code of the failing call and the message the library gave right after it.

use std::ffi::CStr;
use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

use dbdf_sys as sys;

/// Why a call failed: the error statuses of `dbdf.h` (`DBDF_ERR_...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A missing or malformed argument, an unknown enum value, a position or shape out of range.
    InvalidArgument,
    /// The handle is not in a state that allows this call (e.g. adding a block before `begin`).
    CallOrder,
    /// A caller buffer cannot hold the output; nothing was written to it.
    BufferTooSmall,
    /// Opening, mapping, writing, syncing or renaming a file failed.
    Io,
    /// The input ends before a field or payload it announces.
    Truncated,
    /// The input breaks the format or one of its rules (the message names it).
    Format,
    /// A value is not exactly representable in the requested or declared type.
    Range,
    /// Memory allocation failed.
    NoMem,
    /// A valid request that this build cannot serve.
    Unsupported,
    /// A bug in dbdf.
    Internal,
    /// The sink of a callback writer failed.
    Sink,
    /// A status this binding does not know (a newer library); holds the raw code.
    Unknown(i32),
}

impl Status {
    /// The status for a raw `dbdf_status_t` code that is not `DBDF_OK`.
    pub fn from_code(code: i32) -> Status {
        match sys::dbdf_status_t(code) {
            sys::dbdf_status_t::DBDF_ERR_INVALID_ARGUMENT => Status::InvalidArgument,
            sys::dbdf_status_t::DBDF_ERR_CALL_ORDER => Status::CallOrder,
            sys::dbdf_status_t::DBDF_ERR_BUFFER_TOO_SMALL => Status::BufferTooSmall,
            sys::dbdf_status_t::DBDF_ERR_IO => Status::Io,
            sys::dbdf_status_t::DBDF_ERR_TRUNCATED => Status::Truncated,
            sys::dbdf_status_t::DBDF_ERR_FORMAT => Status::Format,
            sys::dbdf_status_t::DBDF_ERR_RANGE => Status::Range,
            sys::dbdf_status_t::DBDF_ERR_NOMEM => Status::NoMem,
            sys::dbdf_status_t::DBDF_ERR_UNSUPPORTED => Status::Unsupported,
            sys::dbdf_status_t::DBDF_ERR_INTERNAL => Status::Internal,
            sys::dbdf_status_t::DBDF_ERR_SINK => Status::Sink,
            _ => Status::Unknown(code),
        }
    }

    /// The raw `dbdf_status_t` code.
    pub fn code(self) -> i32 {
        let raw = match self {
            Status::InvalidArgument => sys::dbdf_status_t::DBDF_ERR_INVALID_ARGUMENT,
            Status::CallOrder => sys::dbdf_status_t::DBDF_ERR_CALL_ORDER,
            Status::BufferTooSmall => sys::dbdf_status_t::DBDF_ERR_BUFFER_TOO_SMALL,
            Status::Io => sys::dbdf_status_t::DBDF_ERR_IO,
            Status::Truncated => sys::dbdf_status_t::DBDF_ERR_TRUNCATED,
            Status::Format => sys::dbdf_status_t::DBDF_ERR_FORMAT,
            Status::Range => sys::dbdf_status_t::DBDF_ERR_RANGE,
            Status::NoMem => sys::dbdf_status_t::DBDF_ERR_NOMEM,
            Status::Unsupported => sys::dbdf_status_t::DBDF_ERR_UNSUPPORTED,
            Status::Internal => sys::dbdf_status_t::DBDF_ERR_INTERNAL,
            Status::Sink => sys::dbdf_status_t::DBDF_ERR_SINK,
            Status::Unknown(code) => sys::dbdf_status_t(code),
        };
        raw.0
    }

    /// The library's lower-case name of the status: "invalid_argument", "format", ... ("unknown" if it has none).
    pub fn name(self) -> &'static str {
        // SAFETY: dbdf_status_name accepts any value and returns a NUL-terminated string in static storage.
        static_str(unsafe { sys::dbdf_status_name(sys::dbdf_status_t(self.code())) })
    }

    /// Whether the status says the input is not a valid .dbdf object (truncated, format or range).
    pub fn is_invalid_data(self) -> bool {
        matches!(self, Status::Truncated | Status::Format | Status::Range)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

/// `dbdf_last_error_offset()`'s "no offset" (`DBDF_NO_OFFSET`, `UINT64_MAX`), a macro bindgen cannot evaluate.
const NO_OFFSET: u64 = u64::MAX;

/// A failed call: its status and the library's description (what was wrong, where, which rule), with the rule and
/// the byte offset also as numbers. `Display` writes the status's name, a colon and the message:
/// `format: data type 9 is unknown (1 dense, 2 CSR, 3 frame) at byte 1 (spec layout)`, as every binding does.
///
/// When a byte source or sink of the caller failed, its `io::Error` is the error's
/// [`source`](std::error::Error::source). Errors compare equal by status, message, rule and offset.
#[derive(Debug, Clone)]
pub struct Error {
    status: Status,
    message: String,
    rule: Option<u32>,
    offset: Option<u64>,
    source: Option<Arc<io::Error>>,
    system_kind: Option<io::ErrorKind>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        (self.status, &self.message, self.rule, self.offset) == (other.status, &other.message, other.rule, other.offset)
    }
}

impl Eq for Error {}

impl Error {
    /// An error raised by this crate itself, before calling the library (e.g. slices of different lengths).
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into(), rule: None, offset: None, source: None, system_kind: None }
    }

    /// The error of the call that just returned `status`: reads the calling thread's last error message, rule and
    /// offset, which the next dbdf call would clear.
    pub(crate) fn from_failed_call(status: sys::dbdf_status_t) -> Error {
        // SAFETY: dbdf_last_error_message never returns NULL; the string stays valid until this thread's next
        // dbdf call, and it is copied before any other call.
        let message = unsafe { CStr::from_ptr(sys::dbdf_last_error_message()) };
        let message = message.to_string_lossy().into_owned();
        // SAFETY: both only read the calling thread's last error; they take no arguments and cannot fail.
        let (rule, offset) = unsafe { (sys::dbdf_last_error_rule(), sys::dbdf_last_error_offset()) };
        Error {
            status: Status::from_code(status.0),
            message,
            rule: u32::try_from(rule).ok().filter(|&rule| rule != 0),
            offset: (offset != NO_OFFSET).then_some(offset),
            // What a byte source's callback failed with during this call (a panic of it continues here).
            source: crate::source::take_callback_failure().map(Arc::new),
            system_kind: None,
        }
    }

    /// The error of a call whose status and message came back another way than through this thread's last error
    /// (a pull of an Arrow stream, which passes on its message alone): for [`Status::Truncated`], [`Status::Format`]
    /// and [`Status::Range`] the rule and the byte offset are read back from the end of the message, where the
    /// library always puts them (" at byte N", then " (rule N)", " (spec layout)" or " (daphne dialect)").
    #[cfg(feature = "arrow")]
    pub(crate) fn from_library_message(status: Status, message: String) -> Error {
        let (rule, offset) = if status.is_invalid_data() { rule_and_offset_at_end(&message) } else { (None, None) };
        Error { status, message, rule, offset, source: None, system_kind: None }
    }

    /// This error of opening `path` with the system's reason, asked again after an [`Status::Io`] failure: for a
    /// reader (`writing` false) the file itself, for a writer the folder it creates its temporary file in. The
    /// library reports the reason only in its message, and callers match on [`io::ErrorKind::NotFound`].
    pub(crate) fn with_system_reason(mut self, path: &Path, writing: bool) -> Error {
        if self.status != Status::Io {
            return self;
        }
        let checked = if writing {
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            absolute.parent().map(Path::to_path_buf).unwrap_or(absolute)
        } else {
            path.to_path_buf()
        };
        self.system_kind = std::fs::metadata(&checked).err().map(|error| error.kind());
        self
    }

    /// The status of the failing call.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The library's message about the failure, as it was right after the failing call, whole.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The number of the rule of the format rules (docs/format-rules.md: 1 partition, 2 bounds, ..., 16 labels) that
    /// the data broke, the rule the message names as "(rule N)"; given for [`Status::Truncated`],
    /// [`Status::Format`] and [`Status::Range`]. `None` when there is no such number: the input breaks the spec's
    /// published layout itself (the message says "(spec layout)") or the daphne dialect's, or the failure is of
    /// another kind (an argument, the call order, I/O, memory, or a check of this crate).
    pub fn rule(&self) -> Option<u32> {
        self.rule
    }

    /// The byte offset, counted from the start of the input, at which the library found the fault: the offending
    /// field of a header, block header or payload, or where the input ended too early (the offset the message
    /// names as "at byte N"). `None` when the failure has no place in the input (an argument, the call order,
    /// memory, or a check of this crate).
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    pub(crate) fn with_source(mut self, source: io::Error) -> Error {
        self.source = Some(Arc::new(source));
        self
    }

    /// The [`io::ErrorKind`] that says what kind of failure this is, for callers that handle dbdf's errors with
    /// other I/O errors (`From<Error> for io::Error` uses it): for [`Status::Io`] opening a path, the system's
    /// reason (`NotFound` for a missing file to read or a missing folder to write into, `PermissionDenied`, ...);
    /// when a byte source or sink of the caller failed, the kind of its `io::Error`; otherwise `InvalidData` for
    /// [`Status::Format`] and [`Status::Range`], `UnexpectedEof` for [`Status::Truncated`], `InvalidInput` for
    /// [`Status::InvalidArgument`], `OutOfMemory` for [`Status::NoMem`], `Unsupported` for [`Status::Unsupported`],
    /// and `Other` for the rest.
    pub fn kind(&self) -> io::ErrorKind {
        if let Some(kind) = self.system_kind {
            return kind;
        }
        if let Some(source) = &self.source {
            return source.kind();
        }
        match self.status {
            Status::Format | Status::Range => io::ErrorKind::InvalidData,
            Status::Truncated => io::ErrorKind::UnexpectedEof,
            Status::InvalidArgument => io::ErrorKind::InvalidInput,
            Status::NoMem => io::ErrorKind::OutOfMemory,
            Status::Unsupported => io::ErrorKind::Unsupported,
            Status::CallOrder
            | Status::BufferTooSmall
            | Status::Io
            | Status::Internal
            | Status::Sink
            | Status::Unknown(_) => io::ErrorKind::Other,
        }
    }

    pub(crate) fn with_detail(mut self, detail: &str) -> Error {
        self.message.push_str("; ");
        self.message.push_str(detail);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|error| error as &(dyn std::error::Error + 'static))
    }
}

/// An [`io::Error`] of kind [`Error::kind`] holding the dbdf error (reachable with `get_ref` and `downcast`), so
/// `?` passes dbdf's errors on in functions returning `io::Result`.
impl From<Error> for io::Error {
    fn from(error: Error) -> io::Error {
        io::Error::new(error.kind(), error)
    }
}

/// The rule and the byte offset a message of the library names at its end: `... at byte 17 (rule 4)`, `... at byte 0
/// (spec layout)` or `... at byte 0 (daphne dialect)` (no rule), `... (rule 2)` (no offset); neither when it ends
/// otherwise.
#[cfg(feature = "arrow")]
fn rule_and_offset_at_end(message: &str) -> (Option<u32>, Option<u64>) {
    /// A number of 1 to `most_digits` ASCII digits, nothing else.
    fn digits<T: std::str::FromStr>(text: &str, most_digits: usize) -> Option<T> {
        let well_formed = (1..=most_digits).contains(&text.len()) && text.bytes().all(|byte| byte.is_ascii_digit());
        well_formed.then(|| text.parse().ok()).flatten()
    }
    let layout = message.strip_suffix(" (spec layout)").or_else(|| message.strip_suffix(" (daphne dialect)"));
    let (before, rule) = if let Some(before) = layout {
        (before, None)
    } else {
        let Some((before, rule)) = message.strip_suffix(')').and_then(|rest| rest.rsplit_once(" (rule ")) else {
            return (None, None);
        };
        let Some(rule) = digits::<u32>(rule, 9) else {
            return (None, None);
        };
        (before, Some(rule))
    };
    let offset = before.rsplit_once(" at byte ").and_then(|(_, offset)| digits::<u64>(offset, 18));
    (rule, offset)
}

/// The result of every fallible call of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// `Ok(())` for `DBDF_OK`, else the error of the call that just returned `status`.
pub(crate) fn check(status: sys::dbdf_status_t) -> Result<()> {
    if status == sys::dbdf_status_t::DBDF_OK {
        Ok(())
    } else {
        Err(Error::from_failed_call(status))
    }
}

/// A string the library keeps in static storage (names and the version string), which are ASCII.
pub(crate) fn static_str(pointer: *const std::ffi::c_char) -> &'static str {
    if pointer.is_null() {
        return "unknown";
    }
    // SAFETY: the name helpers return NUL-terminated strings in static storage, valid for the whole program.
    let text = unsafe { CStr::from_ptr(pointer) };
    text.to_str().unwrap_or("unknown")
}

#[cfg(all(test, feature = "arrow"))]
mod tests {
    use super::*;

    #[test]
    fn the_rule_and_the_offset_are_read_from_the_end_of_a_message() {
        let read = |message: &str| rule_and_offset_at_end(message);
        assert_eq!(read("value 300 does not fit u8 at byte 1234 (rule 9)"), (Some(9), Some(1234)));
        assert_eq!(read("data type 9 is unknown at byte 1 (spec layout)"), (None, Some(1)));
        assert_eq!(read("blocks overlap (rule 2)"), (Some(2), None));
        assert_eq!(read("x at byte 1844674407370955161 (rule 1)"), (Some(1), None), "more than 18 digits");
        assert_eq!(read("block size 3 is not 8 at byte 40 (daphne dialect)"), (None, Some(40)));
        // Rule numbers the library does not have, written so that docs/format-rules.md's check does not take them
        // for citations.
        let longest = format!("x at byte 123456789012345678 (rule {})", 123_456_789);
        assert_eq!(read(&longest), (Some(123_456_789), Some(123_456_789_012_345_678)));
        assert_eq!(read(&format!("x (rule {})", 1_234_567_890)), (None, None), "more than 9 digits");
        assert_eq!(read("x at byte 12 (rule 3) and more"), (None, None));
        assert_eq!(read("x at byte 1x (rule 3)"), (Some(3), None));
        assert_eq!(read("x at byte 5 (rule )"), (None, None));
        assert_eq!(read("out of memory"), (None, None));
        assert_eq!(read(""), (None, None));
    }

    #[test]
    fn a_message_given_back_keeps_its_status_and_names_rule_and_offset_only_for_invalid_data() {
        let message = "value 300 does not fit u8 at byte 64 (rule 9)";
        let format = Error::from_library_message(Status::Format, message.to_owned());
        assert_eq!(
            (format.status(), format.message(), format.rule(), format.offset()),
            (Status::Format, message, Some(9), Some(64))
        );
        let io = Error::from_library_message(Status::Io, message.to_owned());
        assert_eq!((io.status(), io.rule(), io.offset()), (Status::Io, None, None));
        assert_eq!(format.to_string(), format!("format: {message}"));
    }
}
