//! The byte source of a reader: any [`ReadAt`] (every `Read + Seek` is one), called from the library through a C
//! function pointer, on the thread inside the reader call, never concurrently.

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_void, CString};
use std::io::{self, Read, Seek, SeekFrom};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use dbdf_sys as sys;

/// Positioned reads: what a reader needs of its input (what Hadoop's `PositionedReadable` or `pread` offer).
/// Every `Read + Seek` is one (seek, then read), so files, `Cursor`s and remote-object readers work as they are.
pub trait ReadAt {
    /// Copies bytes from `offset` into `buffer` (never empty) and returns how many: fewer is a short read (asked
    /// again for the rest), 0 only at or past the end.
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> io::Result<usize>;

    /// The number of bytes, if known; otherwise the library finds it with a few one-byte reads.
    fn size(&mut self) -> io::Result<Option<u64>> {
        Ok(None)
    }
}

impl<T: Read + Seek> ReadAt for T {
    fn read_at(&mut self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        self.seek(SeekFrom::Start(offset))?;
        self.read(buffer)
    }

    fn size(&mut self) -> io::Result<Option<u64>> {
        self.seek(SeekFrom::End(0)).map(Some)
    }
}

/// What went wrong in a callback, kept until the library call that made it has returned.
enum Failure {
    Io(io::Error),
    Panic(Box<dyn Any + Send>),
}

thread_local! {
    // Callbacks run on the thread inside the library call, so the failure is found here right after it.
    static PENDING: RefCell<Option<Failure>> = const { RefCell::new(None) };
}

fn keep(failure: Failure, message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: text is NUL-terminated; the library copies it.
    unsafe { sys::dbdf_set_callback_error(text.as_ptr()) };
    PENDING.with(|pending| *pending.borrow_mut() = Some(failure));
}

/// The I/O error a callback failed with during the library call that just returned, if any. A panic of a callback
/// continues here, now that no C frame is in between.
pub(crate) fn take_callback_failure() -> Option<io::Error> {
    match PENDING.with(|pending| pending.borrow_mut().take())? {
        Failure::Io(error) => Some(error),
        Failure::Panic(payload) => resume_unwind(payload),
    }
}

/// The source a reader owns, freed by the library's release callback.
pub(crate) struct SourceState<'s> {
    input: Box<dyn ReadAt + Send + 's>,
}

/// A `dbdf_source_t` over `input`; the state is released by the library exactly once (by `dbdf_reader_free`, or
/// before `dbdf_reader_open_source` returns when opening fails).
pub(crate) fn raw_source<'s>(
    mut input: Box<dyn ReadAt + Send + 's>,
    read_ahead: usize,
) -> io::Result<sys::dbdf_source_t> {
    let size = input.size()?;
    let state = Box::into_raw(Box::new(SourceState { input }));
    Ok(sys::dbdf_source_t {
        struct_size: std::mem::size_of::<sys::dbdf_source_t>(),
        read_at: Some(read_from_source),
        context: state.cast(),
        size: size.unwrap_or(u64::MAX),
        read_ahead,
        release: Some(release_source),
    })
}

/// The `dbdf_read_at_fn` of readers over a [`ReadAt`]. A panic must not unwind into C: it is caught, reported as
/// a failure, and resumed once the library call has returned.
unsafe extern "C" fn read_from_source(
    context: *mut c_void,
    offset: u64,
    destination: *mut c_void,
    length: usize,
) -> i64 {
    // SAFETY: context is the SourceState of the reader inside a library call on this thread; nothing else uses it.
    let state = unsafe { &mut *context.cast::<SourceState<'_>>() };
    // SAFETY: the library passes `length` writable bytes; they may be uninitialised, so they are zeroed before a
    // slice is made of them.
    let buffer = unsafe {
        std::ptr::write_bytes(destination.cast::<u8>(), 0, length);
        std::slice::from_raw_parts_mut(destination.cast::<u8>(), length)
    };
    match catch_unwind(AssertUnwindSafe(|| state.input.read_at(offset, buffer))) {
        Ok(Ok(count)) => i64::try_from(count).unwrap_or(i64::MAX),
        Ok(Err(error)) => {
            let message = error.to_string();
            keep(Failure::Io(error), &message);
            -1
        }
        Err(payload) => {
            keep(Failure::Panic(payload), "the source panicked");
            -1
        }
    }
}

unsafe extern "C" fn release_source(context: *mut c_void) {
    // SAFETY: context came from Box::into_raw in raw_source and the library releases it exactly once.
    let state = unsafe { Box::from_raw(context.cast::<SourceState<'_>>()) };
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| drop(state))) {
        PENDING.with(|pending| *pending.borrow_mut() = Some(Failure::Panic(payload)));
    }
}
