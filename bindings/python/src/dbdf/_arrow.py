"""Arrow's PyCapsule interface over the C ABI's Arrow section (dbdf.h, section 7; docs/arrow.md).

Reader.__arrow_c_stream__ hands out an ArrowArrayStream in a capsule named "arrow_array_stream", which pyarrow,
polars and DuckDB import; dbdf.save() writes any object with __arrow_c_stream__ through dbdf_writer_import_arrow.
What a stream needs stays alive until the library says the stream and every batch are released (the export's
release hook): the reader and the memory it reads."""

from __future__ import annotations

import ctypes
import itertools
import threading
from ctypes import CFUNCTYPE, Structure, byref, c_char_p, c_int, c_int64, c_size_t, c_void_p, py_object
from typing import TYPE_CHECKING, Any

from ._library import lib
from ._options import open_options
from .errors import check
from .types import Dialect

if TYPE_CHECKING:
    from .reader import Reader
    from .writer import Writer


class ArrowArrayStream(Structure):
    """Arrow's struct ArrowArrayStream, only moved and released here."""
    _fields_ = [("get_schema", c_void_p), ("get_next", c_void_p), ("get_last_error", c_void_p),
                ("release", CFUNCTYPE(None, c_void_p)), ("private_data", c_void_p)]


class ArrowSchema(Structure):
    """Arrow's struct ArrowSchema, only moved and released here."""
    _fields_ = [("format", c_char_p), ("name", c_char_p), ("metadata", c_char_p), ("flags", c_int64),
                ("n_children", c_int64), ("children", c_void_p), ("dictionary", c_void_p),
                ("release", CFUNCTYPE(None, c_void_p)), ("private_data", c_void_p)]


_ReleaseHook = CFUNCTYPE(None, c_void_p)


class _ExportOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("dense_as_list", c_int), ("take_reader", c_int),
                ("release", _ReleaseHook), ("release_context", c_void_p)]


class _ImportOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("as_matrix", c_int), ("booleans_as_u8", c_int)]


# What each live stream keeps alive, by token, until the library calls the release hook.
_kept: dict[int, object] = {}
_kept_lock = threading.Lock()
_tokens = itertools.count(1)


def _release_kept(context: int | None) -> None:
    with _kept_lock:
        _kept.pop(context or 0, None)


_release_hook = _ReleaseHook(_release_kept)  # module-level: callable as long as the library may call it

_STREAM_NAME = b"arrow_array_stream"
_SCHEMA_NAME = b"arrow_schema"
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = py_object
_capsule_new.argtypes = [c_void_p, c_char_p, c_void_p]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = c_void_p
_capsule_pointer.argtypes = [py_object, c_char_p]
_raw_capsule_pointer = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))
_malloc = ctypes.pythonapi.PyMem_RawMalloc
_malloc.restype = c_void_p
_malloc.argtypes = [c_size_t]
_free = ctypes.pythonapi.PyMem_RawFree
_free.argtypes = [c_void_p]


def _make_destructor(name: bytes, struct_type: type[Structure]) -> Any:
    def destroy(capsule: int | None) -> None:
        # An unconsumed stream or schema is released here; a consumer that moved it out left release NULL. The
        # capsule comes as a bare pointer: as a Python object it would be revived while it is being destroyed.
        address = _raw_capsule_pointer(capsule, name)
        if address:
            value = struct_type.from_address(address)
            if value.release:
                value.release(address)
            _free(address)
    return ctypes.PYFUNCTYPE(None, c_void_p)(destroy)


_stream_destructor = _make_destructor(_STREAM_NAME, ArrowArrayStream)
_schema_destructor = _make_destructor(_SCHEMA_NAME, ArrowSchema)


def _capsule(name: bytes, struct_type: type[Structure], destructor: Any) -> tuple[object, int]:
    """A capsule over a new zeroed struct_type in raw memory (the capsule frees it), and its address."""
    address = _malloc(ctypes.sizeof(struct_type))
    if not address:
        raise MemoryError("no memory for an Arrow struct")
    ctypes.memset(address, 0, ctypes.sizeof(struct_type))
    try:
        capsule = _capsule_new(address, name, ctypes.cast(destructor, c_void_p))
    except BaseException:
        _free(address)
        raise
    return capsule, address


def _export(reader: Reader, stream_address: int, dense_as_list: bool) -> None:
    """Fills the ArrowArrayStream at stream_address. A reader over memory gets a second native reader over the
    same bytes, owned by the stream, so batches point into them without a copy; any other reader is borrowed, and
    the Python Reader (its native reader held open) lives until the stream and its batches are released."""
    handle = reader._handle
    options = _ExportOptions(ctypes.sizeof(_ExportOptions), int(dense_as_list), 0, _release_hook, None)
    token = next(_tokens)
    with handle as pointer:
        memory: Any = handle._input_memory  # the ndarray over the bytes of a memory reader, else None
        if memory is not None:
            dialect = c_int()
            check(lib.dbdf_reader_dialect(pointer, byref(dialect)))
            own = c_void_p()
            check(lib.dbdf_reader_open_memory_with_options(c_void_p(memory.ctypes.data), memory.size,
                                                           byref(open_options(Dialect(dialect.value))), byref(own)))
            exported, kept = own, memory
            options.take_reader = 1
        else:
            keeper = _Keeper()
            handle.track_payload(keeper)  # the native reader outlives a close() until the keeper goes
            exported, kept = pointer, (reader, keeper)
        with _kept_lock:
            _kept[token] = kept
        options.release_context = token
        status = lib.dbdf_reader_export_arrow(exported, byref(options), c_void_p(stream_address))
        if status != 0 and options.take_reader:
            lib.dbdf_reader_free(exported)  # a failed export leaves the reader with the caller
        check(status)  # the hook ran already when it failed


class _Keeper:
    """Stands for a live stream in the reader handle's count of borrowers."""


def reader_stream_capsule(reader: Reader, requested_schema: object = None, dense_as_list: bool = False) -> object:
    """The reader's object as a capsule "arrow_array_stream". requested_schema is ignored, as the PyCapsule
    protocol allows: dbdf's values have one Arrow type each (docs/arrow.md)."""
    del requested_schema
    capsule, address = _capsule(_STREAM_NAME, ArrowArrayStream, _stream_destructor)
    _export(reader, address, dense_as_list)
    return capsule


def reader_schema_capsule(reader: Reader) -> object:
    """The schema of the reader's stream as a capsule "arrow_schema"."""
    stream = ArrowArrayStream()
    _export(reader, ctypes.addressof(stream), False)
    try:
        capsule, address = _capsule(_SCHEMA_NAME, ArrowSchema, _schema_destructor)
        get_schema = CFUNCTYPE(c_int, c_void_p, c_void_p)(stream.get_schema)
        if get_schema(ctypes.addressof(stream), address) != 0:
            raise RuntimeError("the Arrow stream gave no schema")
        return capsule
    finally:
        stream.release(ctypes.addressof(stream))


def has_arrow_stream(obj: object) -> bool:
    return hasattr(obj, "__arrow_c_stream__")


def _row_count(obj: Any) -> int:
    """The rows an Arrow stream producer delivers: len() (pyarrow Table, polars DataFrame), or shape[0] (DuckDB
    relations)."""
    try:
        return int(len(obj))
    except TypeError:
        pass
    shape = getattr(obj, "shape", None)
    if shape is not None:
        return int(shape[0])
    raise TypeError(f"{type(obj).__name__} has __arrow_c_stream__ but neither len() nor shape: dbdf needs the row "
                    "count before the first batch")


def write_arrow(writer: Writer, obj: Any, as_matrix: bool = False, booleans_as_u8: bool = False) -> None:
    """Writes the Arrow stream of `obj` (pyarrow Table, polars DataFrame, DuckDB relation...) with `writer`: a
    frame, or a dense matrix when asked. Nulls, strings and other types without a dbdf value type raise
    DbdfError naming the column."""
    rows = _row_count(obj)
    capsule = obj.__arrow_c_stream__()
    address = _capsule_pointer(capsule, _STREAM_NAME)
    options = _ImportOptions(ctypes.sizeof(_ImportOptions), int(as_matrix), int(booleans_as_u8))
    # The library releases the stream; the capsule's destructor then finds it released.
    writer._handle.call(lib.dbdf_writer_import_arrow, c_void_p(address), rows, byref(options))
