"""Reader: one .dbdf object, its header, its blocks one at a time, and whole-object reads."""

from __future__ import annotations

import ctypes
import os
from contextlib import contextmanager
from ctypes import byref, c_int, c_size_t, c_uint64, c_void_p
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ._arguments import unsigned
from ._buffers import allocate, out_value_type, u64_pointer, writable_row_major, writable_vector
from ._handles import ReaderHandle
from ._library import BlockInfoStruct, ObjectInfoStruct, ViolationCallback, lib
from ._options import open_options
from ._streams import is_path, open_source_reader
from ._typing import DialectArg, DTypeArg, FrameDTypeArg, ReaderSource
from .block import Block, BlockInfo, CsrArrays
from .errors import check, check_open
from .types import DataType, Dialect, Status, ValueType, value_type_of

if TYPE_CHECKING:
    import scipy.sparse
    from matplotlib.figure import Figure

_ReaderT = TypeVar("_ReaderT", bound="Reader")


@dataclass(frozen=True)
class ObjectInfo:
    """What the object header says."""
    data_type: DataType
    value_type: ValueType  # ValueType.NONE for frames: see Reader.column_types
    rows: int
    cols: int
    header_bytes: int
    total_bytes: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)


@dataclass(frozen=True)
class Violation:
    """One broken rule found by Reader.validate(); rule 0 is the format's published layout itself."""
    rule: int
    offset: int
    message: str


_BEFORE_FIRST = -1


class Reader:
    """A reader over one .dbdf file, a binary file object, or bytes in memory (from_bytes). Use it as a context
    manager, or call close(). Iterating yields the blocks in file order (from the first block, each time).

    path: a path, or any binary file object with seek() and read() (an open file, io.BytesIO, an fsspec or other
    remote file), read through a byte source: only the header, the block headers needed and the payloads decoded
    are fetched (with seek() and readinto() where the object has it, else read()), small reads coalesced through a
    read-ahead window of `read_ahead` bytes (None: 64 KiB). The object's position moves while the reader is open
    and is put back where it was when the reader is closed. An exception its methods raise propagates unchanged
    out of the Reader call that needed the bytes (the library's DbdfError is its __context__), and the reader
    stays usable. Whole-object reads of a file object decode on the calling thread alone.

    dialect: "spec" (the published format, the default) or "daphne" (the layout DAPHNE's runtime writes), or a
    Dialect. It is never guessed.

    threads: how many threads the whole-object reads (read_dense, read_window, read_column, and read, read_frame
    and load through them) decode on, the calling thread included; they are started for the call and joined
    before it returns. None or 0 (the default): one per processor core for reads of 16 MiB or more, the calling
    thread alone for smaller ones. 1: only the calling thread. More than max(64, the processor count) start only
    that many. The values read never depend on it; decoding
    block by block always runs on the calling thread.

    A reader is meant for one thread at a time. Calls from several threads are serialised, and close() from
    another thread waits for a call in progress; any use after close() raises ValueError."""

    def __init__(self, path: ReaderSource, dialect: DialectArg = "spec", *, threads: int | None = None,
                 read_ahead: int | None = None) -> None:
        options = open_options(dialect, threads)
        if not is_path(path):  # a binary file object: read through a byte source
            source = open_source_reader(path, options, read_ahead)  # type: ignore[arg-type]  # not a path here
            self._setup(None, keep_alive=None, handle=source)
            return
        pointer = c_void_p()
        check_open(lib.dbdf_reader_open_file_with_options(os.fsencode(path), byref(options), byref(pointer)), path,
                   writing=False)
        self._setup(pointer, keep_alive=None)

    @classmethod
    def from_bytes(cls: type[_ReaderT], data: bytes | bytearray | memoryview, dialect: DialectArg = "spec", *,
                   threads: int | None = None) -> _ReaderT:
        """A reader over bytes in memory (bytes, bytearray, memoryview, ...) in `dialect`, with `threads` as for
        Reader(). The reader keeps a reference to `data`; a mutable buffer must not change while the reader is
        open."""
        options = open_options(dialect, threads)
        buffer = np.frombuffer(data, dtype=np.uint8)  # no copy; holds the buffer as long as the reader
        pointer = c_void_p()
        check(lib.dbdf_reader_open_memory_with_options(c_void_p(buffer.ctypes.data), buffer.size,
                                                       byref(options), byref(pointer)))
        reader = cls.__new__(cls)
        reader._setup(pointer, keep_alive=buffer)
        reader._threads = threads  # for the second native reader an Arrow export opens over the same bytes
        return reader

    def _setup(self, pointer: c_void_p | None, keep_alive: object, handle: ReaderHandle | None = None) -> None:
        # pointer is None only when a handle is given
        self._handle = (handle if handle is not None
                        else ReaderHandle(pointer, lib.dbdf_reader_free, keep_alive))  # type: ignore[arg-type]
        # A file (or file object) is read into buffers the native reader reuses from block to block, so its
        # payloads are copied.
        self._reads_file = keep_alive is None
        self._current = _BEFORE_FIRST
        self._finished = False
        self._threads: int | None = None
        info = ObjectInfoStruct()
        self._handle.call(lib.dbdf_reader_object_info, byref(info))
        self.info = ObjectInfo(DataType(info.data_type), ValueType(info.value_type), info.rows, info.cols,
                               info.header_bytes, info.total_bytes)

    # -- lifetime -------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Frees the native reader (once no payload view is left). Calling it again does nothing."""
        self._handle.close()

    @property
    def closed(self) -> bool:
        return self._handle.closed

    def __enter__(self: _ReaderT) -> _ReaderT:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None:
            handle.close()

    # -- header ---------------------------------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return self.info.shape

    @property
    def dialect(self) -> Dialect:
        """The dialect the reader was opened with."""
        return Dialect(self._handle.query(lib.dbdf_reader_dialect, c_int))

    @property
    def labels_recoverable(self) -> bool:
        """Whether column_labels are the file's labels: False when the file does not hold them and they are
        DAPHNE's defaults col_0, col_1, ... (frames in the daphne dialect). True for matrices."""
        return bool(self._handle.query(lib.dbdf_reader_labels_recoverable, c_int))

    def column_type(self, column: int) -> ValueType:
        """A frame column's value type (for a matrix, the object's value type)."""
        return ValueType(self._handle.query(lib.dbdf_reader_column_type, c_int, unsigned(column, "column")))

    def column_label(self, column: int) -> str:
        """A frame column's label (stored bytes decoded as UTF-8; bytes that are not UTF-8 are kept as
        surrogate escapes, so writing the label back reproduces them)."""
        column = unsigned(column, "column")
        label = c_void_p()
        length = c_size_t()
        with self._handle as pointer:  # the label is the reader's memory: copy it before anyone can free it
            check(lib.dbdf_reader_column_label(pointer, column, byref(label), byref(length)))
            stored = ctypes.string_at(label.value, length.value)  # type: ignore[arg-type]
        return stored.decode("utf-8", "surrogateescape")

    @property
    def column_types(self) -> list[ValueType]:
        return [self.column_type(column) for column in range(self.info.cols)]

    @property
    def column_labels(self) -> list[str]:
        """Labels of a frame's columns ([] for matrices, which have none)."""
        if self.info.data_type != DataType.FRAME:
            return []
        return [self.column_label(column) for column in range(self.info.cols)]

    def _default_value_type(self, block: BlockInfo, dtype: DTypeArg) -> ValueType:
        if dtype is not None:
            return value_type_of(dtype)
        if self.info.data_type != DataType.FRAME:
            return self.info.value_type
        types = {self.column_type(column) for column in range(block.col, block.col + block.cols)}
        if len(types) != 1:
            raise TypeError(f"block {block.index} spans frame columns of several types; pass dtype=")
        return types.pop()

    # -- blocks ---------------------------------------------------------------------------------------------

    def next_block(self) -> Block | None:
        """Moves to the next block and returns it; None past the last block (after checking that the blocks
        partition the object)."""
        info = BlockInfoStruct()
        with self._handle as pointer:
            status = check(lib.dbdf_reader_next_block(pointer, byref(info)))
            if status == Status.END_OF_BLOCKS:
                self._finished = True
                return None
            self._current = info.index
        return Block(self, BlockInfo.from_struct(info))

    def rewind(self) -> None:
        """Goes back before the first block."""
        with self._handle as pointer:
            check(lib.dbdf_reader_rewind(pointer))
            self._current = _BEFORE_FIRST
            self._finished = False

    def __iter__(self) -> Iterator[Block]:
        self.rewind()
        while True:
            block = self.next_block()
            if block is None:
                return
            yield block

    def build_index(self) -> int:
        """Walks every block header once (payloads are skipped) and returns the number of blocks."""
        blocks: int = self._handle.query(lib.dbdf_reader_build_index, c_uint64)
        return blocks

    def __len__(self) -> int:
        return self.build_index()

    def index_entry(self, index: int) -> BlockInfo:
        """Block `index` (file order) as the index describes it."""
        info = BlockInfoStruct()
        self._handle.call(lib.dbdf_reader_index_entry, unsigned(index, "index"), byref(info))
        return BlockInfo.from_struct(info)

    def seek(self, index: int) -> Block:
        """Makes block `index` (file order) the current block and returns it; next_block() continues after it."""
        index = unsigned(index, "index")
        info = BlockInfoStruct()
        with self._handle as pointer:
            check(lib.dbdf_reader_seek_block(pointer, index))
            self._current = index
            self._finished = False
            check(lib.dbdf_reader_block_info(pointer, byref(info)))
        return Block(self, BlockInfo.from_struct(info))

    def __getitem__(self, index: int) -> Block:
        """Block `index` in file order (negative counts from the end), without moving the reader."""
        blocks = self.build_index()
        position = index + blocks if index < 0 else index
        if not 0 <= position < blocks:
            raise IndexError(f"block index {index} is out of range for {blocks} blocks")
        return Block(self, self.index_entry(position))

    @contextmanager
    def _on_block(self, index: int) -> Iterator[c_void_p]:
        """Holds the reader with block `index` current and gives its pointer; afterwards the reader is back where
        it was, so an iteration in progress is not disturbed."""
        with self._handle as pointer:
            moved = self._current != index or self._finished
            if moved:
                check(lib.dbdf_reader_seek_block(pointer, index))
            try:
                yield pointer
            finally:
                if moved:
                    self._return_to_current(pointer)

    def _return_to_current(self, pointer: c_void_p) -> None:
        if self._current == _BEFORE_FIRST:
            check(lib.dbdf_reader_rewind(pointer))
            return
        check(lib.dbdf_reader_seek_block(pointer, self._current))
        if self._finished:
            check(lib.dbdf_reader_next_block(pointer, None))

    # -- whole-object reads ---------------------------------------------------------------------------------

    def read_dense(self, dtype: DTypeArg = None, out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """The whole object as a rows x cols ndarray (default dtype: the object's value type)."""
        return self.read_window(0, 0, self.info.rows, self.info.cols, dtype=dtype, out=out)

    def read_window(self, row: int, col: int, rows: int, cols: int, dtype: DTypeArg = None,
                    out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """Rows [row, row + rows) and columns [col, col + cols) as an ndarray; only the blocks that intersect the
        window are decoded. out: decode into this array (C order, or a window of a C-order array) instead."""
        row, col = unsigned(row, "row"), unsigned(col, "col")
        rows, cols = unsigned(rows, "rows"), unsigned(cols, "cols")
        self.build_index()  # checks the layout before a header's shape decides how much memory to allocate
        if out is None:
            value_type = value_type_of(dtype) if dtype is not None else self._matrix_value_type()
            out = allocate((rows, cols), value_type.dtype)
        row_stride, capacity = writable_row_major(out, (rows, cols))
        value_type = out_value_type(out, dtype)
        self._handle.call(lib.dbdf_reader_read_dense_window, value_type, row, col, rows, cols,
                          c_void_p(out.ctypes.data), capacity, row_stride)
        return out

    def _matrix_value_type(self) -> ValueType:
        if self.info.data_type == DataType.FRAME:
            types = set(self.column_types)
            if len(types) != 1:
                raise TypeError("a frame with several column types has no single dtype; pass dtype=")
            return types.pop()
        return self.info.value_type

    def read_column(self, column: int | str, dtype: DTypeArg = None,
                    out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """Column `column` (an index, or a frame column's label) as a 1-D ndarray (default dtype: its type).
        out: decode into this contiguous 1-D array of `rows` elements instead of a new one."""
        if isinstance(column, str):
            labels = self.column_labels
            if column not in labels:
                raise KeyError(f"no column labelled {column!r}")
            column = labels.index(column)
        column = unsigned(column, "column")
        self.build_index()
        if out is None:
            value_type = value_type_of(dtype) if dtype is not None else self.column_type(column)
            out = allocate((self.info.rows,), value_type.dtype)
        capacity = writable_vector(out, self.info.rows)
        value_type = out_value_type(out, dtype)
        self._handle.call(lib.dbdf_reader_read_column, column, value_type, c_void_p(out.ctypes.data), capacity)
        return out

    def count_entries(self) -> int:
        """Entries the whole object yields as CSR."""
        entries: int = self._handle.query(lib.dbdf_reader_count_entries, c_uint64)
        return entries

    def read_csr_arrays(self, dtype: DTypeArg = None) -> CsrArrays:
        """The whole object as CSR arrays with object-wide indices (uint64 row offsets and column indices)."""
        value_type = value_type_of(dtype) if dtype is not None else self._matrix_value_type()
        entries = self.count_entries()
        row_offsets = allocate((self.info.rows + 1,), np.uint64)
        col_indices = np.empty(entries, dtype=np.uint64)
        values = np.empty(entries, dtype=value_type.dtype)
        decoded = c_uint64()
        self._handle.call(lib.dbdf_reader_read_csr, value_type, u64_pointer(row_offsets), row_offsets.size,
                          u64_pointer(col_indices), c_void_p(values.ctypes.data), entries, byref(decoded))
        return CsrArrays(row_offsets, col_indices, values, self.info.shape)

    def read_csr(self, dtype: DTypeArg = None) -> scipy.sparse.csr_matrix:
        """The whole object as a scipy.sparse.csr_matrix."""
        return self.read_csr_arrays(dtype).to_scipy()

    def read_frame(self, dtype: FrameDTypeArg = None) -> dict[str, npt.NDArray[Any]]:
        """Every column as {label: 1-D ndarray}, in column order. dtype: one dtype for every column, or a
        mapping from labels to dtypes (columns not named keep their own type)."""
        columns: dict[str, npt.NDArray[Any]] = {}
        for column, label in enumerate(self.column_labels):
            column_dtype = cast(DTypeArg, dtype.get(label)) if isinstance(dtype, dict) else dtype
            columns[label] = self.read_column(column, column_dtype)
        return columns

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The object as an Arrow C stream in a PyCapsule ("arrow_array_stream"), so that pyarrow.table(reader),
        polars.DataFrame(reader) and duckdb.sql("select ... from reader") read it: one field per frame column (or
        c0, c1, ... per matrix column; row, col, value for a CSR matrix), one batch per row band of blocks, decoded
        as the consumer pulls (docs/arrow.md). A reader over bytes lends them without a copy where a block already
        has Arrow's layout; the bytes and the reader stay alive until the consumer released every batch. The reader
        must not be used while a consumer pulls from the stream. requested_schema is ignored."""
        from ._arrow import reader_stream_capsule
        return reader_stream_capsule(self, requested_schema)

    def __arrow_c_schema__(self) -> object:
        """The Arrow schema of __arrow_c_stream__ in a PyCapsule ("arrow_schema")."""
        from ._arrow import reader_schema_capsule
        return reader_schema_capsule(self)

    def arrow_stream(self, dense: str = "columns", csr: str = "triplets") -> Any:
        """The object as an Arrow stream with a chosen layout, an object with __arrow_c_stream__ (and
        __arrow_c_schema__) for pyarrow, polars or DuckDB. dense: "columns" (c0, c1, ...) or "list" (one
        fixed-size-list field "values"); csr: "triplets" (row, col, value per entry) or "arrays" (one batch per
        row band: row_begin and the band's row_offsets, col and value as one-row large lists). docs/arrow.md."""
        from ._arrow import ArrowStream
        return ArrowStream(self, dense, csr)

    def read(self, dtype: FrameDTypeArg = None) -> Any:
        """The whole object: an ndarray (dense), a scipy.sparse.csr_matrix (CSR), for frames a pandas.DataFrame
        when pandas is installed, else a dict of columns, and for a scalar (daphne dialect) a NumPy scalar."""
        if self.info.data_type == DataType.DENSE:
            return self.read_dense(cast(DTypeArg, dtype))
        if self.info.data_type == DataType.CSR:
            return self.read_csr(cast(DTypeArg, dtype))
        if self.info.data_type == DataType.SCALAR:
            return self.read_dense(cast(DTypeArg, dtype))[0, 0]
        from ._frames import frame_result
        return frame_result(self.read_frame(dtype))

    # -- validation -----------------------------------------------------------------------------------------

    def validate(self) -> list[Violation]:
        """Checks every rule of the format strictly; returns the violations found ([] for a valid object)."""
        violations: list[Violation] = []

        def on_violation(_context: object, rule: int, offset: int, message: bytes) -> None:
            violations.append(Violation(rule, offset, message.decode("utf-8", "replace")))

        callback = ViolationCallback(on_violation)
        count = c_uint64()
        with self._handle as pointer:
            status = lib.dbdf_reader_validate(pointer, callback, None, byref(count))
        if status < 0 and not violations:
            check(status)  # a failure other than a violation (e.g. out of memory)
        return violations

    # -- picture --------------------------------------------------------------------------------------------

    def plot(self, title: str | None = None) -> Figure:
        """A matplotlib Figure of the object's blocks, the picture `dbdf map` draws: each block a rectangle at its
        position and shape, coloured by block type and shaded by its stored values per cell, with a legend and the
        object's shape and size. Reads the block index only. Needs matplotlib (an optional dependency): raises
        ImportError saying so when it is missing."""
        from ._plot import plot_blocks
        return plot_blocks(self, title)
