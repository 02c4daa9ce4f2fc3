"""Readers over binary file objects and writers into them, through dbdf's byte sources and write callbacks.

A reader calls back into Python for the bytes it needs (seek + readinto, or read where there is no readinto), on
the thread that called the reader; a writer calls back with each piece of output. An exception a callback raises
is kept, the callback returns failure to the library (which never sees a Python exception), and the dbdf call that
failed because of it raises that same exception object (same type, same message), with the library's DbdfError as
its __context__.
"""

from __future__ import annotations

import ctypes
import io
import os
from ctypes import byref, c_void_p
from typing import TYPE_CHECKING, Any, Callable

from ._handles import NativeHandle, ReaderHandle
from ._library import (OpenOptionsStruct, ReadAtCallback, ReleaseCallback, SourceStruct, WriteCallback,
                       WriterOptionsStruct, lib)
from ._typing import PathArg, ReadableSeekable, Writable
from .errors import DbdfError, check

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10

#: dbdf_source_t.size of a source of unknown size (DBDF_SOURCE_SIZE_UNKNOWN).
SIZE_UNKNOWN = 2**64 - 1


def is_path(target: object) -> TypeGuard[PathArg]:
    return isinstance(target, (str, bytes, os.PathLike))


class _CallbackErrors:
    """The first exception a callback raised and the library has not yet reported."""

    def __init__(self) -> None:
        self._pending: BaseException | None = None

    def fail(self, exception: BaseException) -> int:
        if self._pending is None:
            self._pending = exception
        lib.dbdf_set_callback_error(f"{type(exception).__name__}: {exception}".encode("utf-8", "replace"))
        return -1

    def take(self) -> BaseException | None:
        pending, self._pending = self._pending, None
        return pending

    def raise_pending(self, error: DbdfError) -> None:
        """Raises the callback's exception in place of `error`, the library's report of it, if there is one."""
        pending = self.take()
        if pending is not None:
            raise pending from error


class FileSource:
    """The callbacks of a dbdf_source_t over a binary file object with seek() and readinto() or read(). The file's
    position is where the last read left it while the reader is open; the release callback (the reader closed, or
    its opening failed) puts it back where it was when the reader was opened."""

    def __init__(self, file: ReadableSeekable, read_ahead: int | None) -> None:
        if not callable(getattr(file, "seek", None)) or not (callable(getattr(file, "readinto", None))
                                                            or callable(getattr(file, "read", None))):
            raise TypeError(f"a reader needs a path or a binary file object with seek() and read(), not "
                            f"{type(file).__name__}")
        self.file = file
        self.errors = _CallbackErrors()
        self._readinto: Callable[[Any], int | None] | None = getattr(file, "readinto", None)
        if isinstance(file, io.TextIOBase):
            raise TypeError("the file object is a text file; open it in binary mode ('rb')")
        self._start = file.tell()
        self.size = self._size_of(file)
        self.read_ahead = 0 if read_ahead is None else int(read_ahead)
        # The C function pointers must live as long as the native reader: they are held here, and the reader's
        # handle holds this object until the native reader is freed.
        self.read_at_callback = ReadAtCallback(self._read_at)
        self.release_callback = ReleaseCallback(self._release)

    @staticmethod
    def _size_of(file: ReadableSeekable) -> int:
        try:
            return file.seek(0, io.SEEK_END)
        except (OSError, ValueError, io.UnsupportedOperation):
            return SIZE_UNKNOWN

    def _read_at(self, _context: object, offset: int, destination: int, length: int) -> int:
        try:
            self.file.seek(offset)
            if self._readinto is not None:
                got = self._readinto((ctypes.c_char * length).from_address(destination))
                return 0 if got is None else got
            data = self.file.read(length)
            if len(data) > length:
                raise ValueError(f"read({length}) returned {len(data)} bytes")
            ctypes.memmove(destination, data, len(data))
            return len(data)
        except BaseException as exception:  # noqa: B902 - even KeyboardInterrupt must not cross the C frames
            return self.errors.fail(exception)

    def _release(self, _context: object) -> None:
        try:
            self.file.seek(self._start)
        except BaseException as exception:  # noqa: B902
            self.errors.fail(exception)

    def struct(self) -> SourceStruct:
        source = SourceStruct()
        source.struct_size = ctypes.sizeof(SourceStruct)
        source.read_at = self.read_at_callback
        source.size = self.size
        source.read_ahead = self.read_ahead
        source.release = self.release_callback
        return source


class SourceReaderHandle(ReaderHandle):
    """A native reader over a FileSource: a dbdf call that failed because a callback raised raises that exception
    instead of the library's DbdfError."""

    def __init__(self, pointer: c_void_p, source: FileSource) -> None:
        super().__init__(pointer, lib.dbdf_reader_free, input_memory=source)
        self._errors = source.errors

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        try:
            if isinstance(exc, DbdfError):
                self._errors.raise_pending(exc)
            self._errors.take()  # a failure the library did not report (e.g. in release) is not kept for later
        finally:
            super().__exit__(exc_type, exc, traceback)


def open_source_reader(file: ReadableSeekable, options: OpenOptionsStruct,
                       read_ahead: int | None) -> SourceReaderHandle:
    """A native reader over `file`, its handle holding the callbacks."""
    source = FileSource(file, read_ahead)
    pointer = c_void_p()
    try:
        check(lib.dbdf_reader_open_source(byref(source.struct()), byref(options), byref(pointer)))
    except DbdfError as error:
        source.errors.raise_pending(error)
        raise
    return SourceReaderHandle(pointer, source)


class FileSink:
    """The write callback over a binary file object with write(); it writes from the file's position on, which
    is left after the last byte written."""

    def __init__(self, file: Writable) -> None:
        if not callable(getattr(file, "write", None)):
            raise TypeError(f"a writer needs a path or a binary file object with write(), not {type(file).__name__}")
        if isinstance(file, io.TextIOBase):
            raise TypeError("the file object is a text file; open it in binary mode ('wb')")
        self.file = file
        self.errors = _CallbackErrors()
        self.write_callback = WriteCallback(self._write)

    def _write(self, _context: object, data: int, nbytes: int) -> int:
        try:
            view = memoryview(ctypes.string_at(data, nbytes))
            while view:  # a raw file may take fewer bytes than given
                written = self.file.write(view)
                if written is None:
                    raise BlockingIOError("the file object took no bytes (non-blocking and not ready)")
                view = view[written:]
            return 0
        except BaseException as exception:  # noqa: B902
            self.errors.fail(exception)
            return 1


class SinkWriterHandle(NativeHandle):
    """A native writer into a FileSink: a dbdf call that failed because the callback raised raises that
    exception instead of the library's DbdfError."""

    def __init__(self, pointer: c_void_p, sink: FileSink) -> None:
        super().__init__(pointer, lib.dbdf_writer_free, "writer")
        self._sink = sink  # holds the callback as long as the native writer

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        try:
            if isinstance(exc, DbdfError):
                self._sink.errors.raise_pending(exc)
        finally:
            super().__exit__(exc_type, exc, traceback)


def open_sink_writer(file: Writable, options: WriterOptionsStruct) -> SinkWriterHandle:
    """A native writer into `file`, its handle holding the callback."""
    sink = FileSink(file)
    pointer = c_void_p()
    check(lib.dbdf_writer_open_callback_with_options(sink.write_callback, None, byref(options), byref(pointer)))
    return SinkWriterHandle(pointer, sink)
