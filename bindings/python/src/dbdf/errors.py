"""The errors of failing C calls: DbdfError, and subclasses that also derive from the built-in exception Python
code already catches for that kind of failure (ValueError for bad data and arguments, FileNotFoundError for a
missing file, OSError for other I/O failures, MemoryError).

    DbdfError(Exception)                                 every failure of the library
    ├── DbdfFormatError(DbdfError, ValueError)           TRUNCATED, FORMAT: the input is no valid .dbdf object
    ├── DbdfRangeError(DbdfError, ValueError)            RANGE: a value not exactly representable in the type
    ├── DbdfArgumentError(DbdfError, ValueError)         INVALID_ARGUMENT: an argument the library refused
    ├── DbdfIOError(DbdfError, OSError)                  IO, SINK: reading or writing failed
    │   ├── DbdfFileNotFoundError(DbdfIOError, FileNotFoundError)   the file (or a writer's folder) does not exist
    │   └── DbdfPermissionError(DbdfIOError, PermissionError)       the file or folder may not be opened
    └── DbdfMemoryError(DbdfError, MemoryError)          NOMEM

CALL_ORDER, BUFFER_TOO_SMALL, UNSUPPORTED, INTERNAL and codes of a newer library are plain DbdfError.
"""

from __future__ import annotations

import errno
import os
import re
from typing import Union

from ._library import NO_OFFSET, lib
from ._typing import PathArg
from .types import Status


class DbdfError(Exception):
    """A dbdf_* call failed.

    ``status`` is the dbdf_status_t as a :class:`Status` (a plain int if this package does not know the code),
    ``code`` the same as an int, ``message`` what dbdf_last_error_message() said (field, block, byte offset and
    rule of the format that was broken), whole.

    ``rule`` is the number of the rule of docs/format-rules.md (1 partition, 2 bounds, ..., 16 labels) that the data
    broke, the one the message names as "(rule N)"; given for the statuses TRUNCATED, FORMAT and RANGE. It is None
    when there is no such number: the input breaks the spec's published layout itself (the message says
    "(spec layout)") or the daphne dialect's, or the failure is of another kind (an argument, the call order, I/O,
    memory).

    ``offset`` is the byte offset, counted from the start of the input, at which the library found the fault (the
    offending field, or where the input ended too early: the offset the message names as "at byte N"); None when
    the failure has no place in the input.

    ``str(error)`` is the status's name as the library spells it, a colon and the message:
    ``"format: data type 9 is unknown (1 dense, 2 CSR, 3 frame) at byte 1 (spec layout)"``, as in every binding.

    The library raises the subclass of its status (the module's docstring shows the hierarchy), so ``except
    ValueError`` or ``except FileNotFoundError`` catch dbdf's errors too."""

    status: Union[Status, int]
    code: int
    message: str
    rule: int | None
    offset: int | None

    def __init__(self, status: int, message: str, rule: int | None = None, offset: int | None = None) -> None:
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status
        self.code = int(status)
        self.message = message
        self.rule = rule
        self.offset = offset
        name: str = lib.dbdf_status_name(int(status)).decode()
        self._text = f"{name}: {message}" if message else name
        super().__init__(self._text)

    def __str__(self) -> str:
        # OSError's own __str__ would show errno and filename instead of the library's status and message.
        return self._text

    @classmethod
    def from_arrow_error(cls, error: BaseException) -> DbdfError:
        """The DbdfError behind an Arrow consumer's exception for a failed pull of a dbdf stream (pyarrow.table(reader),
        polars, DuckDB): the Arrow C stream passes on the library's message alone, so the status comes from what the
        stream's errno became (pyarrow.ArrowInvalid or any other ValueError: FORMAT, the input breaks the format;
        MemoryError: NOMEM; other OSErrors: IO), and for FORMAT the rule and the byte offset are read back from the
        end of the message, where the library always puts them (" at byte N", then " (rule N)" or
        " (spec layout)"). Returns the subclass of that status, e.g. DbdfFormatError; the Arrow exception is its
        __cause__. TypeError for an exception of another kind."""
        status = _status_of_arrow_error(error)
        message = str(error)
        rule: int | None = None
        offset: int | None = None
        suffix = _VIOLATION_SUFFIX.search(message) if status == Status.FORMAT else None
        if suffix is not None:
            offset = int(suffix.group(1)) if suffix.group(1) is not None else None
            rule = int(suffix.group(2)) if suffix.group(2) is not None else None
        converted = _CLASS_OF_STATUS.get(status, DbdfError)(status, message, rule=rule, offset=offset)
        converted.__cause__ = error
        return converted


class DbdfFormatError(DbdfError, ValueError):
    """The input is not a valid .dbdf object: it ends too early (TRUNCATED) or breaks the format (FORMAT)."""


class DbdfRangeError(DbdfError, ValueError):
    """RANGE: a value is not exactly representable in the requested or declared value type."""


class DbdfArgumentError(DbdfError, ValueError):
    """INVALID_ARGUMENT: the library refused an argument (a position or shape outside the object, a value type
    the dialect lacks, ...)."""


class DbdfIOError(DbdfError, OSError):
    """IO (opening, reading, writing, syncing or renaming a file failed) or SINK (a callback sink failed).
    ``errno`` and ``filename`` are set when the failure was opening a path and the system says why."""


class DbdfFileNotFoundError(DbdfIOError, FileNotFoundError):
    """The file to read, or the folder to write into, does not exist."""


class DbdfPermissionError(DbdfIOError, PermissionError):
    """The file to read, or the folder to write into, may not be opened."""


class DbdfMemoryError(DbdfError, MemoryError):
    """NOMEM: the library could not allocate memory."""


_CLASS_OF_STATUS: dict[int, type[DbdfError]] = {
    Status.TRUNCATED: DbdfFormatError,
    Status.FORMAT: DbdfFormatError,
    Status.RANGE: DbdfRangeError,
    Status.INVALID_ARGUMENT: DbdfArgumentError,
    Status.IO: DbdfIOError,
    Status.SINK: DbdfIOError,
    Status.NOMEM: DbdfMemoryError,
}

# How the library's message for bad input ends (core/src/error.cpp): " at byte N" when the fault has a place in the
# input, then " (rule N)" or " (spec layout)".
_VIOLATION_SUFFIX = re.compile(r"(?: at byte (\d{1,18}))? \((?:rule (\d{1,9})|spec layout)\)$")


def _status_of_arrow_error(error: BaseException) -> Status:
    """The status an Arrow consumer's exception stands for: what Arrow made of the stream's errno (EINVAL: Invalid,
    ENOMEM: OutOfMemory, EIO: IOError), seen through the built-in classes pyarrow's exceptions derive from."""
    if isinstance(error, MemoryError):
        return Status.NOMEM
    if isinstance(error, ValueError):
        return Status.FORMAT
    if isinstance(error, OSError):
        return Status.IO
    raise TypeError(f"{type(error).__name__} is not the error of a failed Arrow pull (an ArrowInvalid, an OSError "
                    "or a MemoryError)")


_CLASS_OF_ERRNO: dict[int, type[DbdfIOError]] = {
    errno.ENOENT: DbdfFileNotFoundError,
    errno.EACCES: DbdfPermissionError,
    errno.EPERM: DbdfPermissionError,
}


def _last_error(status: int) -> DbdfError:
    """The error of the call that just returned `status`: this thread's last message, rule and offset."""
    rule: int = lib.dbdf_last_error_rule()
    offset: int = lib.dbdf_last_error_offset()
    message: bytes = lib.dbdf_last_error_message()
    error_class = _CLASS_OF_STATUS.get(status, DbdfError)
    return error_class(status, message.decode("utf-8", "replace"),
                       rule=rule if rule != 0 else None, offset=offset if offset != NO_OFFSET else None)


def check(status: int) -> int:
    """Returns `status` if it is not an error; raises the DbdfError (subclass) of its status with this thread's
    last message, rule and offset otherwise."""
    if status < 0:
        raise _last_error(status)
    return status


def _system_error_of(path: PathArg, writing: bool) -> OSError | None:
    """Why the system refuses `path`, asked again after the library's IO failure: for a reader the file itself,
    for a writer the folder it creates its temporary file in. None when the system sees nothing wrong."""
    try:
        if writing:
            folder = os.path.dirname(os.path.abspath(path))
            os.stat(folder)
            if not os.access(folder, os.W_OK):
                return PermissionError(errno.EACCES, os.strerror(errno.EACCES), folder)
        else:
            os.stat(path)
            if not os.access(path, os.R_OK):
                return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
    except OSError as error:
        return error
    return None


def check_open(status: int, path: PathArg, *, writing: bool) -> int:
    """check() for opening `path`: an IO failure is raised as DbdfFileNotFoundError when the file (for a writer,
    its folder) does not exist and as DbdfPermissionError when it may not be opened, with ``errno`` and
    ``filename`` set, so that ``except FileNotFoundError`` works as for open()."""
    if status >= 0:
        return status
    error = _last_error(status)
    if status == Status.IO and isinstance(error, DbdfIOError):  # IO is always a DbdfIOError
        system_error = _system_error_of(path, writing)
        if system_error is not None and system_error.errno in _CLASS_OF_ERRNO:
            error = _CLASS_OF_ERRNO[system_error.errno](status, error.message, error.rule, error.offset)
        if system_error is not None:
            error.errno = system_error.errno
            error.strerror = system_error.strerror
            error.filename = system_error.filename
    raise error
