"""Arrow's PyCapsule interface over the C ABI's Arrow section (dbdf.h, section 7; docs/arrow.md).

Reader.__arrow_c_stream__ hands out an ArrowArrayStream in a capsule named "arrow_array_stream", which pyarrow,
polars and DuckDB import; dbdf.save() writes any object with __arrow_c_stream__ through dbdf_writer_import_arrow.
What a stream needs stays alive until the library says the stream and every batch are released (the export's
release hook): the reader and the memory it reads."""

from __future__ import annotations

import ctypes
import gc
import sys
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
                ("release", _ReleaseHook), ("release_context", c_void_p), ("csr_as_arrays", c_int),
                ("released", c_void_p)]


class _ImportOptions(Structure):
    _fields_ = [("struct_size", c_size_t), ("as_matrix", c_int), ("booleans_as_u8", c_int)]


# What each live stream keeps alive, by the address of the flag the library sets once the stream and its last batch
# are released (options.released), until a sweep (below) finds the flag set. No release hook: the consumer may
# release a stream while an exception propagates (pyarrow does when a pull fails), and a ctypes callback run then
# fails on the pending exception and turns it into a SystemError, losing the library's message.
_kept: dict[int, object] = {}
_kept_lock = threading.Lock()


def _sweep_kept() -> None:
    """Drops what every released stream kept alive, and frees its flag."""
    if not _kept_lock.acquire(blocking=False):
        return  # a collection inside _export() on this thread, or another thread sweeping: the next sweep does it
    try:
        released = [address for address in _kept if c_int.from_address(address).value]
        dropped = [_kept.pop(address) for address in released]
    finally:
        _kept_lock.release()
    for address in released:
        _free(address)
    del dropped  # readers and memory go here, outside the lock


_STREAM_NAME = b"arrow_array_stream"
_SCHEMA_NAME = b"arrow_schema"
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = py_object
_capsule_new.argtypes = [c_void_p, c_char_p, c_void_p]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = c_void_p
_capsule_pointer.argtypes = [py_object, c_char_p]
_malloc = ctypes.pythonapi.PyMem_RawMalloc
_malloc.restype = c_void_p
_malloc.argtypes = [c_size_t]
_free = ctypes.pythonapi.PyMem_RawFree
_free.argtypes = [c_void_p]

# The capsules handed out, with the struct each points to, until they are swept (below). A capsule gets no
# destructor: CPython runs a capsule's destructor whenever the capsule dies, also while an exception is propagating
# (a consumer that fails drops the capsule in its error path), and a ctypes callback cannot run then: any call it
# makes fails on the pending exception, and returning from it turns the exception into a SystemError that ctypes
# prints and clears, so the caller's exception would vanish and the stream stay unreleased. Instead the capsule is
# held here and swept once nobody else holds it: at the start of each garbage collection (never run while an
# exception is pending) and before each export. Unconsumed streams and schemas are released then; a consumer that
# imported one left its release NULL, and only the struct's memory is freed.
_capsules: dict[int, tuple[object, int, type[Structure]]] = {}
_capsules_lock = threading.RLock()
# References to a swept capsule that are ours: the tuple in _capsules, the loop's variable, getrefcount's argument.
_OUR_REFERENCES = 3


def _sweep_capsules() -> None:
    """Releases the struct of every capsule nobody but this module holds any more."""
    if not _capsules_lock.acquire(blocking=False):
        return  # a collection inside _capsule() on this thread, or another thread sweeping: the next sweep does it
    try:
        for key, (capsule, address, struct_type) in list(_capsules.items()):
            if sys.getrefcount(capsule) > _OUR_REFERENCES:
                continue
            del _capsules[key]
            value = struct_type.from_address(address)
            if value.release:
                value.release(address)
            _free(address)
    finally:
        _capsules_lock.release()


def _sweep_on_collection(phase: str, info: dict[str, int]) -> None:
    del info
    if phase == "start":
        _sweep_capsules()  # releases unconsumed streams, whose flags the sweep of what they kept then finds set
        _sweep_kept()


gc.callbacks.append(_sweep_on_collection)


def _capsule(name: bytes, struct_type: type[Structure]) -> tuple[object, int]:
    """A capsule over a new zeroed struct_type in raw memory (freed when the capsule is swept), and its address."""
    _sweep_capsules()
    address = _malloc(ctypes.sizeof(struct_type))
    if not address:
        raise MemoryError("no memory for an Arrow struct")
    ctypes.memset(address, 0, ctypes.sizeof(struct_type))
    try:
        capsule = _capsule_new(address, name, None)
    except BaseException:
        _free(address)
        raise
    with _capsules_lock:
        _capsules[id(capsule)] = (capsule, address, struct_type)
    return capsule, address


def _export(reader: Reader, stream_address: int, dense_as_list: bool, csr_as_arrays: bool = False) -> None:
    """Fills the ArrowArrayStream at stream_address. A reader over memory gets a second native reader over the
    same bytes, owned by the stream, so batches point into them without a copy; any other reader is borrowed, and
    the Python Reader (its native reader held open) lives until the stream and its batches are released."""
    _sweep_kept()
    handle = reader._handle
    flag = _malloc(ctypes.sizeof(c_int))
    if not flag:
        raise MemoryError("no memory for an Arrow stream's release flag")
    ctypes.memset(flag, 0, ctypes.sizeof(c_int))
    options = _ExportOptions(ctypes.sizeof(_ExportOptions), int(dense_as_list), 0, _ReleaseHook(), None,
                             int(csr_as_arrays), flag)  # _ReleaseHook(): no hook (NULL)
    with handle as pointer:
        memory: Any = handle._input_memory  # the ndarray over the bytes of a memory reader, else None
        if memory is not None:
            dialect = c_int()
            check(lib.dbdf_reader_dialect(pointer, byref(dialect)))
            own = c_void_p()
            same_options = open_options(Dialect(dialect.value), reader._threads)  # its decode threads too
            check(lib.dbdf_reader_open_memory_with_options(c_void_p(memory.ctypes.data), memory.size,
                                                           byref(same_options), byref(own)))
            exported, kept = own, memory
            options.take_reader = 1
        else:
            keeper = _Keeper()
            handle.track_payload(keeper)  # the native reader outlives a close() until the keeper goes
            exported, kept = pointer, (reader, keeper)
        with _kept_lock:
            _kept[flag] = kept
        status = lib.dbdf_reader_export_arrow(exported, byref(options), c_void_p(stream_address))
        if status != 0 and options.take_reader:
            lib.dbdf_reader_free(exported)  # a failed export leaves the reader with the caller
        if status != 0:
            _sweep_kept()  # the flag is set already when the export failed
        check(status)


class _Keeper:
    """Stands for a live stream in the reader handle's count of borrowers."""


def reader_stream_capsule(reader: Reader, requested_schema: object = None, dense_as_list: bool = False,
                          csr_as_arrays: bool = False) -> object:
    """The reader's object as a capsule "arrow_array_stream". requested_schema is ignored, as the PyCapsule
    protocol allows: dbdf's values have one Arrow type each (docs/arrow.md)."""
    del requested_schema
    capsule, address = _capsule(_STREAM_NAME, ArrowArrayStream)
    _export(reader, address, dense_as_list, csr_as_arrays)
    return capsule


def reader_schema_capsule(reader: Reader, dense_as_list: bool = False, csr_as_arrays: bool = False) -> object:
    """The schema of the reader's stream as a capsule "arrow_schema"."""
    stream = ArrowArrayStream()
    _export(reader, ctypes.addressof(stream), dense_as_list, csr_as_arrays)
    try:
        capsule, address = _capsule(_SCHEMA_NAME, ArrowSchema)
        get_schema = CFUNCTYPE(c_int, c_void_p, c_void_p)(stream.get_schema)
        if get_schema(ctypes.addressof(stream), address) != 0:
            raise RuntimeError("the Arrow stream gave no schema")
        return capsule
    finally:
        stream.release(ctypes.addressof(stream))


class ArrowStream:
    """A reader's object as an Arrow stream with layout options (Reader.arrow_stream): implements the PyCapsule
    protocol, so pyarrow.table(), polars.DataFrame() and pyarrow.RecordBatchReader.from_stream() take it."""

    _DENSE = {"columns": False, "list": True}
    _CSR = {"triplets": False, "arrays": True}

    def __init__(self, reader: Reader, dense: str = "columns", csr: str = "triplets") -> None:
        if dense not in self._DENSE:
            raise ValueError(f"dense must be one of {sorted(self._DENSE)}, not {dense!r}")
        if csr not in self._CSR:
            raise ValueError(f"csr must be one of {sorted(self._CSR)}, not {csr!r}")
        self._reader = reader
        self._dense_as_list = self._DENSE[dense]
        self._csr_as_arrays = self._CSR[csr]

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return reader_stream_capsule(self._reader, requested_schema, self._dense_as_list, self._csr_as_arrays)

    def __arrow_c_schema__(self) -> object:
        return reader_schema_capsule(self._reader, self._dense_as_list, self._csr_as_arrays)


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
