"""DbdfError: a failing C call's status and the library's message."""

from __future__ import annotations

from ._library import lib
from .types import Status


class DbdfError(Exception):
    """A dbdf_* call failed.

    ``status`` is the dbdf_status_t as a :class:`Status` (a plain int if this package does not know the code),
    ``code`` the same as an int, ``message`` what dbdf_last_error_message() said (field, block, byte offset and
    rule of the format that was broken)."""

    def __init__(self, status: int, message: str):
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status
        self.code = int(status)
        self.message = message
        name = lib.dbdf_status_name(int(status)).decode()
        super().__init__(f"{name}: {message}" if message else name)


def check(status: int) -> int:
    """Returns `status` if it is not an error; raises DbdfError with this thread's last message otherwise."""
    if status < 0:
        raise DbdfError(status, lib.dbdf_last_error_message().decode("utf-8", "replace"))
    return status
