"""The options structs readers and writers are opened with (their dialect, the daphne dialect's .meta sidecar).

The fields are set here rather than by dbdf_open_options_init() / dbdf_writer_options_init(): those write the
struct of the loaded library's header, which a newer library may have grown, while struct_size tells the library
which fields this package's struct has.
"""

from __future__ import annotations

import ctypes

from ._library import OpenOptionsStruct, WriterOptionsStruct
from .types import dialect_of


def open_options(dialect) -> OpenOptionsStruct:
    """A dbdf_open_options_t reading `dialect` (a Dialect or "spec" / "daphne")."""
    options = OpenOptionsStruct()
    options.struct_size = ctypes.sizeof(OpenOptionsStruct)
    options.dialect = dialect_of(dialect)
    return options


def writer_options(dialect, write_meta: bool) -> WriterOptionsStruct:
    """A dbdf_writer_options_t writing `dialect`; `write_meta`: a daphne file writer also writes <path>.meta."""
    options = WriterOptionsStruct()
    options.struct_size = ctypes.sizeof(WriterOptionsStruct)
    options.dialect = dialect_of(dialect)
    options.write_meta = 1 if write_meta else 0
    return options
