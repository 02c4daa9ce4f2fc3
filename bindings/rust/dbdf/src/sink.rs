//! The sink of a callback writer: any `std::io::Write`, called from the library through a C function pointer.

use std::any::Any;
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What the write callback needs: the caller's writer, and what went wrong in it, reported after the call.
pub(crate) struct CallbackSink<'s> {
    output: Box<dyn Write + Send + 's>,
    pub(crate) error: Option<std::io::Error>,
    pub(crate) panic: Option<Box<dyn Any + Send>>,
}

impl<'s> CallbackSink<'s> {
    pub(crate) fn new(output: Box<dyn Write + Send + 's>) -> CallbackSink<'s> {
        CallbackSink { output, error: None, panic: None }
    }

    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        self.output.flush()
    }
}

/// The `dbdf_write_fn` of callback writers. A panic in the caller's writer must not unwind into C: it is caught,
/// reported to the library as a failure, and resumed once the library call has returned.
pub(crate) unsafe extern "C" fn write_to_sink(context: *mut c_void, data: *const c_void, nbytes: usize) -> c_int {
    // SAFETY: context is the CallbackSink the writer registered; the writer is inside a library call on this
    // thread, so nothing else touches the sink now.
    let sink = unsafe { &mut *context.cast::<CallbackSink<'_>>() };
    let bytes: &[u8] = if nbytes == 0 {
        &[]
    } else {
        // SAFETY: the library passes `nbytes` readable bytes at `data`, valid during the call.
        unsafe { std::slice::from_raw_parts(data.cast::<u8>(), nbytes) }
    };
    match catch_unwind(AssertUnwindSafe(|| sink.output.write_all(bytes))) {
        Ok(Ok(())) => 0,
        Ok(Err(error)) => {
            sink.error = Some(error);
            -1
        }
        Err(panic) => {
            sink.panic = Some(panic);
            -1
        }
    }
}
