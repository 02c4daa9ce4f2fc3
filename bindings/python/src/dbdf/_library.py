"""Finds and loads libdbdf, checks its version, and declares the C prototypes this package calls.

Which library is loaded:

1. the path in the environment variable ``DBDF_LIBRARY``, when it is set (and not empty). Setting it is an
   explicit choice for this run, so it wins over every default, and a library it names that cannot be loaded
   is an ImportError rather than a silent fall-back to another library;
2. otherwise a library bundled next to this package (a build or a wheel puts it there),
3. then the install prefix: ``sys.prefix``'s library directory, then the system's standard library directories
   through ``ctypes.util.find_library``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int64, c_size_t, c_uint, c_uint32,
                    c_uint64, c_void_p)
from pathlib import Path
from typing import Iterator

#: The major version of the C ABI this package is written against (DBDF_VERSION_MAJOR).
ABI_MAJOR = 0
#: The oldest minor version of that major that has every function declared below.
ABI_MIN_MINOR = 2

ENVIRONMENT_VARIABLE = "DBDF_LIBRARY"

#: dbdf_last_error_offset()'s "no offset" (DBDF_NO_OFFSET, UINT64_MAX).
NO_OFFSET = 2**64 - 1

_PACKAGE_DIR = Path(__file__).resolve().parent


def _file_names() -> list[str]:
    """Names the shared library has on this platform, the SONAME first."""
    if sys.platform == "win32":
        return ["dbdf.dll", "libdbdf.dll"]
    if sys.platform == "darwin":
        return [f"libdbdf.{ABI_MAJOR}.dylib", "libdbdf.dylib"]
    return [f"libdbdf.so.{ABI_MAJOR}", "libdbdf.so"]


def _prefix_library_dirs() -> list[Path]:
    dirs = []
    for prefix in dict.fromkeys([sys.prefix, sys.base_prefix]):
        for name in ["lib", "lib64"] + (["bin"] if sys.platform == "win32" else []):
            dirs.append(Path(prefix) / name)
    return dirs


class _Candidate:
    """One place the library may be, and what happened when it was tried."""

    def __init__(self, where: str, path: str | None):
        self.where = where
        self.path = path
        self.outcome = "not found"

    def describe(self) -> str:
        shown = self.path if self.path is not None else "-"
        return f"  {self.where}: {shown}: {self.outcome}"


def _candidates() -> Iterator[_Candidate]:
    """The places to try, in order; the later ones are only computed when the earlier ones failed (finding the
    system's libraries runs ldconfig). A set DBDF_LIBRARY is the only place tried."""
    environment_path = os.environ.get(ENVIRONMENT_VARIABLE)
    if environment_path:
        yield _Candidate(f"environment variable {ENVIRONMENT_VARIABLE}", environment_path)
        return
    yield from _default_candidates()


def _default_candidates() -> Iterator[_Candidate]:
    """Where the library is looked for when DBDF_LIBRARY is not set: bundled, then the install prefix."""
    for name in _file_names():
        yield _Candidate("bundled next to the package", str(_PACKAGE_DIR / name))
    for directory in _prefix_library_dirs():
        for name in _file_names():
            yield _Candidate("install prefix", str(directory / name))
    yield _Candidate("standard library directories (ctypes.util.find_library('dbdf'))",
                     ctypes.util.find_library("dbdf"))


def _load() -> tuple[ctypes.CDLL, str]:
    tried = []
    for candidate in _candidates():
        tried.append(candidate)
        if candidate.path is None:
            continue
        # find_library returns a bare name that the dynamic loader resolves itself.
        is_bare_name = os.sep not in candidate.path and (os.altsep is None or os.altsep not in candidate.path)
        if not is_bare_name and not os.path.exists(candidate.path):
            continue
        try:
            library = ctypes.CDLL(candidate.path)
        except OSError as error:
            candidate.outcome = f"cannot be loaded ({error})"
            continue
        if not hasattr(library, "dbdf_version"):
            candidate.outcome = "is not libdbdf (it has no dbdf_version)"
            continue
        return library, candidate.path
    lines = "\n".join(candidate.describe() for candidate in tried)
    if os.environ.get(ENVIRONMENT_VARIABLE):
        raise ImportError(
            f"dbdf: cannot load the shared library libdbdf that {ENVIRONMENT_VARIABLE} names:\n" + lines + "\n"
            f"Correct {ENVIRONMENT_VARIABLE}, or unset it to use the bundled or installed library.")
    raise ImportError(
        "dbdf: cannot find the shared library libdbdf. Searched, in order:\n"
        f"  environment variable {ENVIRONMENT_VARIABLE}: not set\n" + lines + "\n"
        f"Build it with CMake and set {ENVIRONMENT_VARIABLE} to its path, or install it.")


def check_version(version_number: int, path: str) -> None:
    """Raises ImportError unless `version_number` (major*10000 + minor*100 + patch) is compatible."""
    major, minor = version_number // 10000, version_number // 100 % 100
    if major != ABI_MAJOR or minor < ABI_MIN_MINOR:
        raise ImportError(
            f"dbdf: {path} is libdbdf {major}.{minor}.{version_number % 100}, but this package needs "
            f"{ABI_MAJOR}.x with x >= {ABI_MIN_MINOR}")


class ObjectInfoStruct(Structure):
    """dbdf_object_info_t (frozen by the ABI)."""
    _fields_ = [("data_type", c_int), ("value_type", c_int), ("rows", c_uint64), ("cols", c_uint64),
                ("header_bytes", c_uint64), ("total_bytes", c_uint64)]


class BlockInfoStruct(Structure):
    """dbdf_block_info_t (frozen by the ABI)."""
    _fields_ = [("index", c_uint64), ("row", c_uint64), ("col", c_uint64), ("rows", c_uint32),
                ("cols", c_uint32), ("block_type", c_int), ("value_type", c_int), ("stored_values", c_uint64),
                ("offset", c_uint64), ("encoded_bytes", c_uint64)]


class WriteOptionsStruct(Structure):
    """dbdf_write_options_t; struct_size tells the library which fields this caller knows."""
    _fields_ = [("struct_size", c_size_t), ("encoding", c_int), ("block_rows", c_uint32),
                ("block_cols", c_uint32)]


class OpenOptionsStruct(Structure):
    """dbdf_open_options_t: how a reader is opened (its dialect, the threads of whole-object reads, whether a file
    is memory-mapped: never, here, so that a file truncated by another process raises DbdfError instead of killing
    the interpreter with SIGBUS); struct_size first, as for every options struct."""
    _fields_ = [("struct_size", c_size_t), ("dialect", c_int), ("threads", c_uint), ("memory_map", c_int)]


class WriterOptionsStruct(Structure):
    """dbdf_writer_options_t: how a writer is opened (its dialect, whether a daphne file writer writes the .meta
    sidecar, whether a file writer syncs to the disk, the threads of write_dense)."""
    _fields_ = [("struct_size", c_size_t), ("dialect", c_int), ("write_meta", c_int), ("durable", c_int),
                ("threads", c_uint)]


ViolationCallback = CFUNCTYPE(None, c_void_p, c_int, c_uint64, c_char_p)
# The byte sources' and write callbacks' function types (dbdf_read_at_fn, the release function, dbdf_write_fn).
ReadAtCallback = CFUNCTYPE(c_int64, c_void_p, c_uint64, c_void_p, c_size_t)
ReleaseCallback = CFUNCTYPE(None, c_void_p)
WriteCallback = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t)


class SourceStruct(Structure):
    """dbdf_source_t: a read-at callback, its context, the size (or DBDF_SOURCE_SIZE_UNKNOWN), the read-ahead
    window and the release callback."""
    _fields_ = [("struct_size", c_size_t), ("read_at", ReadAtCallback), ("context", c_void_p),
                ("size", c_uint64), ("read_ahead", c_size_t), ("release", ReleaseCallback)]


_status = c_int
_enum = c_int
_reader = c_void_p
_writer = c_void_p
_u64_ptr = POINTER(c_uint64)
_u32_ptr = POINTER(c_uint32)

# name: (restype, argtypes), exactly as dbdf.h declares them.
_PROTOTYPES = {
    "dbdf_last_error_message": (c_char_p, []),
    "dbdf_last_error_rule": (c_int, []),
    "dbdf_last_error_offset": (c_uint64, []),
    "dbdf_version": (c_uint, []),
    "dbdf_version_string": (c_char_p, []),
    "dbdf_status_name": (c_char_p, [_enum]),
    "dbdf_value_type_name": (c_char_p, [_enum]),
    "dbdf_data_type_name": (c_char_p, [_enum]),
    "dbdf_block_type_name": (c_char_p, [_enum]),
    "dbdf_encoding_name": (c_char_p, [_enum]),
    "dbdf_value_type_size": (c_size_t, [_enum]),
    "dbdf_reader_free": (None, [_reader]),
    "dbdf_reader_object_info": (_status, [_reader, POINTER(ObjectInfoStruct)]),
    "dbdf_reader_column_type": (_status, [_reader, c_uint64, POINTER(_enum)]),
    "dbdf_reader_column_label": (_status, [_reader, c_uint64, POINTER(c_void_p), POINTER(c_size_t)]),
    "dbdf_reader_next_block": (_status, [_reader, POINTER(BlockInfoStruct)]),
    "dbdf_reader_block_info": (_status, [_reader, POINTER(BlockInfoStruct)]),
    "dbdf_reader_block_payload": (_status, [_reader, POINTER(c_void_p), POINTER(c_size_t)]),
    "dbdf_reader_block_decode_dense": (_status, [_reader, _enum, c_void_p, c_size_t, c_uint64]),
    "dbdf_reader_block_count_entries": (_status, [_reader, _u64_ptr]),
    "dbdf_reader_block_decode_csr": (_status, [_reader, _enum, _u64_ptr, c_size_t, _u32_ptr, c_void_p, c_size_t,
                                               _u64_ptr]),
    "dbdf_reader_block_decode_coo": (_status, [_reader, _enum, _u32_ptr, _u32_ptr, c_void_p, c_size_t, _u64_ptr]),
    "dbdf_reader_rewind": (_status, [_reader]),
    "dbdf_reader_build_index": (_status, [_reader, _u64_ptr]),
    "dbdf_reader_index_entry": (_status, [_reader, c_uint64, POINTER(BlockInfoStruct)]),
    "dbdf_reader_seek_block": (_status, [_reader, c_uint64]),
    "dbdf_reader_read_dense_window": (_status, [_reader, _enum, c_uint64, c_uint64, c_uint64, c_uint64, c_void_p,
                                                c_size_t, c_uint64]),
    "dbdf_reader_read_dense": (_status, [_reader, _enum, c_void_p, c_size_t, c_uint64]),
    "dbdf_reader_read_column": (_status, [_reader, c_uint64, _enum, c_void_p, c_size_t]),
    "dbdf_reader_count_entries": (_status, [_reader, _u64_ptr]),
    "dbdf_reader_read_csr": (_status, [_reader, _enum, _u64_ptr, c_size_t, _u64_ptr, c_void_p, c_size_t,
                                       _u64_ptr]),
    "dbdf_reader_validate": (_status, [_reader, ViolationCallback, c_void_p, _u64_ptr]),
    "dbdf_write_options_init": (None, [POINTER(WriteOptionsStruct)]),
    "dbdf_writer_free": (None, [_writer]),
    "dbdf_writer_begin_matrix": (_status, [_writer, _enum, _enum, c_uint64, c_uint64]),
    "dbdf_writer_begin_frame": (_status, [_writer, c_uint64, c_uint64, POINTER(_enum), POINTER(c_char_p),
                                          POINTER(c_size_t)]),
    "dbdf_writer_add_dense": (_status, [_writer, c_uint64, c_uint64, c_uint32, c_uint32, _enum, c_void_p, c_size_t,
                                        c_uint64, POINTER(WriteOptionsStruct)]),
    "dbdf_writer_add_csr": (_status, [_writer, c_uint64, c_uint64, c_uint32, c_uint32, _enum, _u64_ptr, _u32_ptr,
                                      c_void_p, c_uint64, POINTER(WriteOptionsStruct)]),
    "dbdf_writer_add_coo": (_status, [_writer, c_uint64, c_uint64, c_uint32, c_uint32, _enum, _u32_ptr, _u32_ptr,
                                      c_void_p, c_uint64, POINTER(WriteOptionsStruct)]),
    "dbdf_writer_add_empty": (_status, [_writer, c_uint64, c_uint64, c_uint32, c_uint32]),
    "dbdf_writer_write_dense": (_status, [_writer, _enum, c_void_p, c_size_t, c_uint64,
                                          POINTER(WriteOptionsStruct)]),
    "dbdf_writer_write_csr": (_status, [_writer, _enum, _u64_ptr, _u64_ptr, c_void_p, c_uint64,
                                        POINTER(WriteOptionsStruct)]),
    "dbdf_writer_write_column": (_status, [_writer, c_uint64, _enum, c_void_p, c_size_t,
                                           POINTER(WriteOptionsStruct)]),
    "dbdf_writer_finish": (_status, [_writer]),
    "dbdf_writer_bytes_written": (_status, [_writer, _u64_ptr]),
    "dbdf_writer_memory": (_status, [_writer, POINTER(c_void_p), POINTER(c_size_t)]),
    # Section 5 of dbdf.h: dialects.
    "dbdf_dialect_name": (c_char_p, [_enum]),
    "dbdf_dialect_from_name": (_status, [c_char_p, POINTER(_enum)]),
    "dbdf_open_options_init": (None, [POINTER(OpenOptionsStruct)]),
    "dbdf_reader_open_file_with_options": (_status, [c_char_p, POINTER(OpenOptionsStruct), POINTER(_reader)]),
    "dbdf_reader_open_memory_with_options": (_status, [c_void_p, c_size_t, POINTER(OpenOptionsStruct),
                                                       POINTER(_reader)]),
    "dbdf_reader_dialect": (_status, [_reader, POINTER(_enum)]),
    "dbdf_reader_labels_recoverable": (_status, [_reader, POINTER(c_int)]),
    "dbdf_reader_block_payload_layout": (_status, [_reader, POINTER(_enum), _u64_ptr]),
    "dbdf_writer_options_init": (None, [POINTER(WriterOptionsStruct)]),
    "dbdf_writer_open_file_with_options": (_status, [c_char_p, POINTER(WriterOptionsStruct), POINTER(_writer)]),
    "dbdf_writer_open_memory_with_options": (_status, [POINTER(WriterOptionsStruct), POINTER(_writer)]),
    "dbdf_writer_dialect": (_status, [_writer, POINTER(_enum)]),
    # Byte sources and write callbacks.
    "dbdf_reader_open_source": (_status, [POINTER(SourceStruct), POINTER(OpenOptionsStruct), POINTER(_reader)]),
    "dbdf_writer_open_callback_with_options": (_status, [WriteCallback, c_void_p, POINTER(WriterOptionsStruct),
                                                         POINTER(_writer)]),
    "dbdf_set_callback_error": (None, [c_char_p]),
    # Arrow (the option structs are _arrow.py's, passed by reference; the Arrow structs by address).
    "dbdf_reader_export_arrow": (_status, [_reader, c_void_p, c_void_p]),
    "dbdf_writer_import_arrow": (_status, [_writer, c_void_p, c_uint64, c_void_p]),
}


def _declare(library: ctypes.CDLL, path: str) -> None:
    for name, (restype, argtypes) in _PROTOTYPES.items():
        try:
            function = getattr(library, name)
        except AttributeError:
            raise ImportError(f"dbdf: {path} has no function {name}; it is not a libdbdf this package can use") \
                from None
        function.restype = restype
        function.argtypes = argtypes


lib, path = _load()
# The version first: a library of another major version is reported as such, not by a function it lacks.
lib.dbdf_version.restype = c_uint
lib.dbdf_version.argtypes = []
check_version(lib.dbdf_version(), path)
_declare(lib, path)
