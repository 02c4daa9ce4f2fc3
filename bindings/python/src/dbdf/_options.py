"""The options structs readers and writers are opened with (their dialect, the daphne dialect's .meta sidecar,
durable file writes, the threads of whole-object reads and of write_dense).

The fields are set here rather than by dbdf_open_options_init() / dbdf_writer_options_init(): those write the
struct of the loaded library's header, which a newer library may have grown, while struct_size tells the library
which fields this package's struct has.
"""

from __future__ import annotations

import ctypes

from ._arguments import unsigned
from ._library import OpenOptionsStruct, WriterOptionsStruct
from .types import dialect_of

# The C fields are `unsigned`: ctypes would silently wrap a larger count.
MAX_THREADS = 2 ** (8 * ctypes.sizeof(ctypes.c_uint)) - 1


def thread_count(threads: object) -> int:
    """The C field for `threads`: None or 0 (automatic) is 0, a positive int is that many threads (the calling
    thread included). Booleans, floats and other non-integers raise TypeError; negative counts and counts beyond
    the C unsigned ValueError (see _arguments.unsigned)."""
    if threads is None:
        return 0
    return unsigned(threads, "threads", MAX_THREADS)


def open_options(dialect: object, threads: object = None) -> OpenOptionsStruct:
    """A dbdf_open_options_t reading `dialect` (a Dialect or "spec" / "daphne"), the whole-object reads decoding
    on `threads` (see thread_count)."""
    options = OpenOptionsStruct()
    options.struct_size = ctypes.sizeof(OpenOptionsStruct)
    options.dialect = dialect_of(dialect)
    options.threads = thread_count(threads)
    return options


def writer_options(dialect: object, write_meta: bool, durable: bool = False,
                   threads: object = None) -> WriterOptionsStruct:
    """A dbdf_writer_options_t writing `dialect`; `write_meta`: a daphne file writer also writes <path>.meta;
    `durable`: a file writer's finish() syncs the file and its directory; `threads`: for write_dense (see
    thread_count)."""
    options = WriterOptionsStruct()
    options.struct_size = ctypes.sizeof(WriterOptionsStruct)
    options.dialect = dialect_of(dialect)
    options.write_meta = 1 if write_meta else 0
    options.durable = 1 if durable else 0
    options.threads = thread_count(threads)
    return options
