"""Ownership of native readers and writers, safe against close() from another thread.

ctypes releases the GIL during every foreign call, so without a guard a close() on one thread could free a reader
or writer while another thread is still inside a dbdf_* call on it: a use after free. Each handle therefore has
a lock that every use of the pointer holds for the whole call (and for reading what the call returned by
pointer), and that close() takes before freeing. A use after close() raises ValueError.

The lock is reentrant, so a method that holds it (e.g. to move to a block, decode it and move back as one step)
may call others that take it again. It also serialises calls from several threads on one handle, which the C
library requires (a handle is used by one thread at a time).
"""

from __future__ import annotations

import threading
import weakref
from ctypes import byref, c_void_p
from typing import Any, Callable

from .errors import check


class NativeHandle:
    """Owns one native pointer and frees it with `free` on close().

    ``with handle as pointer:`` holds the handle for the duration of the block and gives the pointer, or raises
    ValueError("the <kind> is closed")."""

    def __init__(self, pointer: c_void_p, free: Callable[[c_void_p], None], kind: str) -> None:
        self._pointer = pointer
        self._free = free
        self._kind = kind
        self._lock = threading.RLock()
        self.closed = False

    def __enter__(self) -> c_void_p:
        self._lock.acquire()
        if self.closed:
            self._lock.release()
            raise ValueError(f"the {self._kind} is closed")
        return self._pointer

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        self._lock.release()

    def call(self, function: Callable[..., int], *arguments: Any) -> int:
        """function(pointer, *arguments) while holding the handle; returns its status, raises DbdfError for an
        error status."""
        with self as pointer:
            return check(function(pointer, *arguments))

    def query(self, function: Callable[..., int], result_type: Callable[[], Any], *arguments: Any) -> Any:
        """The value function(pointer, *arguments, &result) stores in `result` (of the ctypes type `result_type`),
        called while holding the handle."""
        result = result_type()
        self.call(function, *arguments, byref(result))
        return result.value

    def close(self) -> None:
        """Marks the handle closed and frees the native object once nothing needs it. Waits for a call in
        progress on another thread; calling it again does nothing."""
        with self._lock:
            self.closed = True
            self._free_if_unused()

    def _in_use_after_close(self) -> bool:
        """Whether something still needs the native object although the handle is closed."""
        return False

    def _free_if_unused(self) -> None:
        """Frees the native object if the handle is closed and nothing needs it. Called with the lock held."""
        if self.closed and self._pointer and not self._in_use_after_close():
            self._free(self._pointer)
            self._pointer = c_void_p()
            self._released()

    def _released(self) -> None:
        """Called once the native object was freed."""


class ReaderHandle(NativeHandle):
    """A native reader. Payload views borrow its mapped input, so freeing waits until the reader was closed and
    every payload view is gone; this keeps a view from ever pointing at unmapped memory."""

    def __init__(self, pointer: c_void_p, free: Callable[[c_void_p], None], input_memory: object = None) -> None:
        super().__init__(pointer, free, "reader")
        self._input_memory = input_memory  # what a memory reader reads; must outlive the native reader
        self._live_payloads = 0

    def track_payload(self, exporter: object) -> None:
        """Keeps the native reader alive while `exporter` (the object a payload view exports) exists. Call it
        while holding the handle, so that a close() cannot free the reader between the call that returned the
        payload and this one."""
        with self._lock:
            self._live_payloads += 1
        weakref.finalize(exporter, self._payload_released)

    def _payload_released(self) -> None:
        with self._lock:
            self._live_payloads -= 1
            self._free_if_unused()

    def _in_use_after_close(self) -> bool:
        return self._live_payloads > 0

    def _released(self) -> None:
        self._input_memory = None
