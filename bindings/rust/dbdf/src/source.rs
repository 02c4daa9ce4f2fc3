//! The byte source of a reader: any [`ReadAt`] (every `Read + Seek` is one), called from the library through a C
//! function pointer, on the thread inside the reader call, never concurrently; or any [`ConcurrentReadAt`], which
//! the library's decode threads call too, several at once.

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_void, CString};
use std::io::{self, Read, Seek, SeekFrom};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, ThreadId};

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

/// Positioned reads through a shared reference, from several threads at once: a reader opened with
/// [`Reader::from_concurrent_source`](crate::Reader::from_concurrent_source) calls it from the library's decode
/// threads too, so that whole-object reads fetch and decode payloads in parallel as they do for a file. A `File`
/// is one (`pread`, which moves no shared position), and so are byte vectors and slices.
pub trait ConcurrentReadAt: Send + Sync {
    /// Copies bytes from `offset` into `buffer` (never empty) and returns how many: fewer is a short read (asked
    /// again for the rest), 0 only at or past the end. May run on several threads at once.
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize>;

    /// The number of bytes, if known; otherwise the library finds it with a few one-byte reads.
    fn size(&self) -> io::Result<Option<u64>> {
        Ok(None)
    }
}

#[cfg(unix)]
impl ConcurrentReadAt for std::fs::File {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buffer, offset)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        self.metadata().map(|metadata| Some(metadata.len()))
    }
}

impl ConcurrentReadAt for [u8] {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(self.len());
        let count = buffer.len().min(self.len() - start);
        buffer[..count].copy_from_slice(&self[start..start + count]);
        Ok(count)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        Ok(Some(self.len() as u64))
    }
}

impl ConcurrentReadAt for Vec<u8> {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        self.as_slice().read_at(offset, buffer)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        self.as_slice().size()
    }
}

impl<T: ConcurrentReadAt + ?Sized> ConcurrentReadAt for &T {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        (**self).read_at(offset, buffer)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        (**self).size()
    }
}

impl<T: ConcurrentReadAt + ?Sized> ConcurrentReadAt for Arc<T> {
    fn read_at(&self, offset: u64, buffer: &mut [u8]) -> io::Result<usize> {
        (**self).read_at(offset, buffer)
    }

    fn size(&self) -> io::Result<Option<u64>> {
        (**self).size()
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
    set_callback_message(message);
    PENDING.with(|pending| *pending.borrow_mut() = Some(failure));
}

/// The message of the failing call, kept by the library for the thread the callback runs on (where it reads it).
fn set_callback_message(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: text is NUL-terminated; the library copies it.
    unsafe { sys::dbdf_set_callback_error(text.as_ptr()) };
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The failures of a concurrent source's callbacks on the library's decode threads, whose thread-local pending
/// failure the caller cannot see: kept here for the reader call that started those threads. Failures on the
/// calling thread are kept where every callback's are (its pending failure, taken when the error is made).
#[derive(Default)]
pub(crate) struct DecodeThreadFailures {
    caller: Mutex<Option<ThreadId>>,
    failure: Mutex<Option<Failure>>,
}

impl DecodeThreadFailures {
    /// Runs `call`, a library call that may run the source on decode threads, on this thread; when it fails
    /// without the error of a callback on this thread, a decode thread's failure becomes the error's source (a
    /// panic there continues here).
    pub(crate) fn around(&self, call: impl FnOnce() -> crate::Result<()>) -> crate::Result<()> {
        *lock(&self.caller) = Some(thread::current().id());
        lock(&self.failure).take();
        let result = call();
        *lock(&self.caller) = None;
        match (result, lock(&self.failure).take()) {
            (Err(_), Some(Failure::Panic(payload))) => resume_unwind(payload),
            (Err(error), Some(Failure::Io(cause))) if std::error::Error::source(&error).is_none() => {
                Err(error.with_source(cause))
            }
            (result, _) => result,
        }
    }

    fn keep(&self, failure: Failure, message: &str) {
        let on_decode_thread = lock(&self.caller).is_some_and(|caller| caller != thread::current().id());
        if !on_decode_thread {
            keep(failure, message);
            return;
        }
        set_callback_message(message);
        lock(&self.failure).get_or_insert(failure);
    }
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
        flags: 0,
    })
}

/// The source a reader over a [`ConcurrentReadAt`] owns, freed by the library's release callback.
struct SharedSourceState<'s> {
    input: Box<dyn ConcurrentReadAt + 's>,
    failures: Arc<DecodeThreadFailures>,
}

/// A `dbdf_source_t` over `input` that allows concurrent reads, and where its decode threads' failures are kept;
/// released as [`raw_source`]'s.
pub(crate) fn raw_concurrent_source<'s>(
    input: Box<dyn ConcurrentReadAt + 's>,
    read_ahead: usize,
) -> io::Result<(sys::dbdf_source_t, Arc<DecodeThreadFailures>)> {
    let size = input.size()?;
    let failures = Arc::new(DecodeThreadFailures::default());
    let state = Box::into_raw(Box::new(SharedSourceState { input, failures: Arc::clone(&failures) }));
    let source = sys::dbdf_source_t {
        struct_size: std::mem::size_of::<sys::dbdf_source_t>(),
        read_at: Some(read_from_shared_source),
        context: state.cast(),
        size: size.unwrap_or(u64::MAX),
        read_ahead,
        release: Some(release_shared_source),
        flags: sys::DBDF_SOURCE_CONCURRENT_READS,
    };
    Ok((source, failures))
}

/// Zeroes the `length` bytes at `destination` (the library's buffer may be uninitialised) and makes a slice of them.
///
/// # Safety
/// `destination` must be valid for writes of `length` bytes, used by nothing else during the slice's life.
unsafe fn zeroed_destination<'b>(destination: *mut c_void, length: usize) -> &'b mut [u8] {
    // SAFETY: the caller's promise.
    unsafe {
        std::ptr::write_bytes(destination.cast::<u8>(), 0, length);
        std::slice::from_raw_parts_mut(destination.cast::<u8>(), length)
    }
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
    // SAFETY: the library passes `length` writable bytes, used by nothing else during the callback.
    let buffer = unsafe { zeroed_destination(destination, length) };
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

/// The `dbdf_read_at_fn` of readers over a [`ConcurrentReadAt`], called from the calling thread and the decode
/// threads at once. A panic must not unwind into C: it is caught, reported as a failure, and resumed once the
/// library call has returned.
unsafe extern "C" fn read_from_shared_source(
    context: *mut c_void,
    offset: u64,
    destination: *mut c_void,
    length: usize,
) -> i64 {
    // SAFETY: context is the SharedSourceState of a reader inside a library call; it is only read here, and its
    // input is Sync.
    let state = unsafe { &*context.cast::<SharedSourceState<'_>>() };
    // SAFETY: the library passes `length` writable bytes of this call alone.
    let buffer = unsafe { zeroed_destination(destination, length) };
    match catch_unwind(AssertUnwindSafe(|| state.input.read_at(offset, buffer))) {
        Ok(Ok(count)) => i64::try_from(count).unwrap_or(i64::MAX),
        Ok(Err(error)) => {
            let message = error.to_string();
            state.failures.keep(Failure::Io(error), &message);
            -1
        }
        Err(payload) => {
            state.failures.keep(Failure::Panic(payload), "the source panicked");
            -1
        }
    }
}

unsafe extern "C" fn release_shared_source(context: *mut c_void) {
    // SAFETY: context came from Box::into_raw in raw_concurrent_source and the library releases it exactly once.
    let state = unsafe { Box::from_raw(context.cast::<SharedSourceState<'_>>()) };
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| drop(state))) {
        PENDING.with(|pending| *pending.borrow_mut() = Some(Failure::Panic(payload)));
    }
}
