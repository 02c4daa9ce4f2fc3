"""DbdfError: a failing C call's status, the library's message, and the rule and byte offset it names."""

from __future__ import annotations

from ._library import NO_OFFSET, lib
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
    ``"format: data type 9 is unknown (1 dense, 2 CSR, 3 frame) at byte 1 (spec layout)"``, as in every binding."""

    def __init__(self, status: int, message: str, rule: int | None = None, offset: int | None = None):
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status
        self.code = int(status)
        self.message = message
        self.rule = rule
        self.offset = offset
        name = lib.dbdf_status_name(int(status)).decode()
        super().__init__(f"{name}: {message}" if message else name)


def check(status: int) -> int:
    """Returns `status` if it is not an error; raises DbdfError with this thread's last message, rule and offset
    otherwise."""
    if status < 0:
        rule = lib.dbdf_last_error_rule()
        offset = lib.dbdf_last_error_offset()
        raise DbdfError(status, lib.dbdf_last_error_message().decode("utf-8", "replace"),
                        rule=rule if rule != 0 else None, offset=offset if offset != NO_OFFSET else None)
    return status
