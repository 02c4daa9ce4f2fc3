"""Writer: builds one .dbdf object block by block, into a file (atomically) or into memory."""

from __future__ import annotations

import ctypes
import os
from ctypes import byref, c_char_p, c_int, c_size_t, c_uint64, c_void_p
from typing import TYPE_CHECKING, Any, Iterable, TypeVar, overload

import numpy as np
import numpy.typing as npt

from ._arguments import block_shape, uint32, unsigned
from ._buffers import index_array, row_major, u32_pointer, u64_pointer, value_array, write_options
from ._handles import NativeHandle
from ._library import lib
from ._options import writer_options
from ._streams import is_path, open_sink_writer
from ._typing import (BlockArg, DataTypeArg, DialectArg, DTypeArg, EncodingArg, FrameColumns, Shape,
                      WriterTarget)
from .errors import check, check_open
from .types import Dialect, data_type_of, value_type_of

if TYPE_CHECKING:
    import scipy.sparse

_WriterT = TypeVar("_WriterT", bound="Writer")


class Writer:
    """Writes one object: begin_matrix() or begin_frame(), then blocks (add_*) or whole contents (write_*), then
    finish(). A file writer writes to a temporary file that finish() renames over `path`; until then an existing
    file is untouched.

    dialect: "spec" (the published format, the default) or "daphne" (the bytes DAPHNE's runtime writes: one
    block covering the object, given by write_dense / write_csr / write_sparse or one add_* call covering it, or
    for a dense matrix add_* calls of full-width row bands in order; frames column by column), or a Dialect. write_meta: a daphne file writer also writes DaphneDSL's
    "<path>.meta" sidecar after finish() (ignored otherwise).

    durable: finish() also syncs the file's data to the disk before moving it over `path`, and the directory
    after, so the new file survives a system crash (power loss) once finish() returns; this costs a flush of the
    data to the disk. Also applies to the .meta sidecar. False (the default): the replacement is still atomic
    (readers see the old file or the new one, never a part) but not synced, as with numpy.save, so after a crash
    the new contents may be missing. The bytes written are the same either way.

    threads: how many threads write_dense uses, the calling thread included; the others are started for the
    call and joined before it returns. Every one of them analyses the next tile not yet taken (the calling
    thread whenever the next tile to write is not analysed yet) while the calling thread encodes and writes the
    tiles in order. None or 0 (the default): one per processor core, at most four, for matrices of 16 MiB or
    more; one otherwise. 1: only the calling thread. More than max(64, the processor count) start only that
    many. The bytes written never depend on it; other calls always
    run on the calling thread.

    path may also be any binary file object with write() (an open file, io.BytesIO, a socket's makefile("wb"),
    an fsspec or other remote file): the bytes are written to it in order as they are made, from its position on,
    which is left after the last byte written; nothing is written to it atomically, so a failed write leaves part
    of an object there. write_meta and durable do not apply (durable=True raises ValueError). An exception its
    write() raises propagates unchanged out of the Writer call that wrote (the library's DbdfError is its
    __context__), and the writer is then failed: only close() remains.

    As a context manager, leaving the ``with`` block normally finishes the object (if finish() was not called);
    leaving it with an exception discards everything written.

    A writer is meant for one thread at a time. Calls from several threads are serialised, and close() from
    another thread waits for a call in progress; any use after close() raises ValueError."""

    def __init__(self, path: WriterTarget, dialect: DialectArg = "spec", write_meta: bool = True, *,
                 durable: bool = False, threads: int | None = None) -> None:
        if not is_path(path):  # a binary file object: written through the write callback
            if durable:
                raise ValueError("durable applies to a writer opened on a path, not on a file object")
            sink = open_sink_writer(path, writer_options(dialect, False, False, threads))  # type: ignore[arg-type]
            self._setup(None, handle=sink)
            return
        options = writer_options(dialect, write_meta, durable, threads)
        pointer = c_void_p()
        check_open(lib.dbdf_writer_open_file_with_options(os.fsencode(path), byref(options), byref(pointer)), path,
                   writing=True)
        self._setup(pointer)

    @classmethod
    def to_memory(cls: type[_WriterT], dialect: DialectArg = "spec", *, threads: int | None = None) -> _WriterT:
        """A writer into a growable memory buffer in `dialect`, with `threads` as for Writer(); getvalue() returns
        the bytes after finish()."""
        options = writer_options(dialect, write_meta=False, threads=threads)
        pointer = c_void_p()
        check(lib.dbdf_writer_open_memory_with_options(byref(options), byref(pointer)))
        writer = cls.__new__(cls)
        writer._setup(pointer)
        return writer

    def _setup(self, pointer: c_void_p | None, handle: NativeHandle | None = None) -> None:
        # pointer is None only when a handle is given
        self._handle = (handle if handle is not None
                        else NativeHandle(pointer, lib.dbdf_writer_free, "writer"))  # type: ignore[arg-type]
        self._finished = False
        self._labels: list[str] = []

    # -- lifetime -------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Frees the native writer. Without a successful finish() everything written is discarded (a file
        writer removes its temporary file). Calling it again does nothing."""
        handle = getattr(self, "_handle", None)
        if handle is not None:
            handle.close()

    @property
    def closed(self) -> bool:
        return self._handle.closed

    @property
    def dialect(self) -> Dialect:
        """The dialect the writer was opened with."""
        return Dialect(self._handle.query(lib.dbdf_writer_dialect, c_int))

    @property
    def finished(self) -> bool:
        return self._finished

    def __enter__(self: _WriterT) -> _WriterT:
        return self

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        try:
            if exc_type is None and not self._finished and not self.closed:
                self.finish()
        finally:
            self.close()

    def __del__(self) -> None:
        self.close()

    # -- headers --------------------------------------------------------------------------------------------

    def begin_matrix(self, data_type: DataTypeArg, value_type: DTypeArg, rows: int, cols: int) -> None:
        """Writes a matrix header. data_type: "dense" or "csr" (or a DataType); value_type: a dtype or ValueType.
        In the daphne dialect also "scalar" with rows = cols = 1: one value, then given as a 1 x 1 matrix's
        (write_dense of a 1 x 1 array)."""
        self._handle.call(lib.dbdf_writer_begin_matrix, data_type_of(data_type), value_type_of(value_type),
                          unsigned(rows, "rows"), unsigned(cols, "cols"))

    @overload
    def begin_frame(self, rows: int, columns: dict[str, DTypeArg]) -> None: ...

    @overload
    def begin_frame(self, rows: int, columns: Iterable[tuple[str, DTypeArg]]) -> None: ...

    def begin_frame(self, rows: int, columns: FrameColumns) -> None:
        """Writes a frame header. columns: {label: dtype} or a sequence of (label, dtype) pairs, in column order."""
        rows = unsigned(rows, "rows")
        pairs = list(columns.items()) if isinstance(columns, dict) else list(columns)
        labels = [label for label, _ in pairs]
        for label in labels:
            if not isinstance(label, str):
                raise TypeError(f"frame column labels must be str, not {type(label).__name__}")
        encoded = [label.encode("utf-8", "surrogateescape") for label in labels]
        count = len(pairs)
        column_types = (c_int * count)(*(value_type_of(dtype) for _, dtype in pairs))
        label_pointers = (c_char_p * count)(*encoded)
        label_lengths = (c_size_t * count)(*(len(label) for label in encoded))
        self._handle.call(lib.dbdf_writer_begin_frame, rows, count, column_types, label_pointers, label_lengths)
        self._labels = labels

    # -- blocks ---------------------------------------------------------------------------------------------

    def add_dense(self, row: int, col: int, values: npt.ArrayLike, *, encoding: EncodingArg | None = None) -> None:
        """Adds the block at (row, col) with the shape and dtype of `values` (a 2-D array; rows that are
        contiguous in memory are passed without copying)."""
        row, col = unsigned(row, "row"), unsigned(col, "col")
        matrix = row_major(values)
        rows, cols = block_shape(matrix.array.shape, "values.shape")
        self._handle.call(lib.dbdf_writer_add_dense, row, col, rows, cols, matrix.value_type, matrix.pointer,
                          matrix.count, matrix.row_stride, write_options(encoding))

    def add_csr(self, row: int, col: int, shape: Shape, row_offsets: npt.ArrayLike, col_indices: npt.ArrayLike,
                values: npt.ArrayLike, *, encoding: EncodingArg | None = None) -> None:
        """Adds a block from block-local CSR arrays: row_offsets (rows + 1), col_indices (strictly increasing
        within each row), values."""
        row, col = unsigned(row, "row"), unsigned(col, "col")
        rows, cols = block_shape(shape)
        offsets = index_array(row_offsets, np.uint64)
        indices = index_array(col_indices, np.uint32)
        data = value_array(values)
        self._check_lengths(indices, data)
        self._handle.call(lib.dbdf_writer_add_csr, row, col, rows, cols, value_type_of(data.dtype),
                          u64_pointer(offsets), u32_pointer(indices), c_void_p(data.ctypes.data), data.size,
                          write_options(encoding))

    def add_coo(self, row: int, col: int, shape: Shape, row_indices: npt.ArrayLike, col_indices: npt.ArrayLike,
                values: npt.ArrayLike, *, encoding: EncodingArg | None = None) -> None:
        """Adds a block from block-local COO triplets in strictly increasing (row, column) order."""
        row, col = unsigned(row, "row"), unsigned(col, "col")
        rows, cols = block_shape(shape)
        row_index = index_array(row_indices, np.uint32)
        col_index = index_array(col_indices, np.uint32)
        data = value_array(values)
        self._check_lengths(row_index, data)
        self._check_lengths(col_index, data)
        self._handle.call(lib.dbdf_writer_add_coo, row, col, rows, cols, value_type_of(data.dtype),
                          u32_pointer(row_index), u32_pointer(col_index), c_void_p(data.ctypes.data), data.size,
                          write_options(encoding))

    def add_sparse(self, row: int, col: int, matrix: scipy.sparse.spmatrix | scipy.sparse.sparray, *,
                   encoding: EncodingArg | None = None) -> None:
        """Adds a block from any scipy.sparse matrix or array (converted to canonical CSR)."""
        csr = _canonical_csr(matrix)
        self.add_csr(row, col, csr.shape, csr.indptr, csr.indices, csr.data, encoding=encoding)

    def add_empty(self, row: int, col: int, shape: Shape) -> None:
        """Adds an all-zero block (no payload)."""
        row, col = unsigned(row, "row"), unsigned(col, "col")
        rows, cols = block_shape(shape)
        self._handle.call(lib.dbdf_writer_add_empty, row, col, rows, cols)

    @staticmethod
    def _check_lengths(indices: npt.NDArray[Any], values: npt.NDArray[Any]) -> None:
        if indices.size != values.size:
            raise ValueError(f"{indices.size} indices but {values.size} values")

    # -- whole contents -------------------------------------------------------------------------------------

    def write_dense(self, values: npt.ArrayLike, *, encoding: EncodingArg | None = None,
                    block: BlockArg = None) -> None:
        """Writes the whole matrix from a 2-D array, tiled into blocks of `block` = (rows, cols) (None:
        automatic, a few MiB each). Only right after begin_matrix()."""
        matrix = row_major(values)
        self._handle.call(lib.dbdf_writer_write_dense, matrix.value_type, matrix.pointer, matrix.count,
                          matrix.row_stride, write_options(encoding, block))

    def write_csr(self, row_offsets: npt.ArrayLike, col_indices: npt.ArrayLike, values: npt.ArrayLike, *,
                  encoding: EncodingArg | None = None, block: BlockArg = None) -> None:
        """Writes the whole matrix from object-wide CSR arrays, tiled as write_dense() does."""
        offsets = index_array(row_offsets, np.uint64)
        indices = index_array(col_indices, np.uint64)
        data = value_array(values)
        self._check_lengths(indices, data)
        self._handle.call(lib.dbdf_writer_write_csr, value_type_of(data.dtype), u64_pointer(offsets),
                          u64_pointer(indices), c_void_p(data.ctypes.data), data.size, write_options(encoding, block))

    def write_sparse(self, matrix: scipy.sparse.spmatrix | scipy.sparse.sparray, *, encoding: EncodingArg | None = None,
                     block: BlockArg = None) -> None:
        """Writes the whole matrix from any scipy.sparse matrix or array."""
        csr = _canonical_csr(matrix)
        self.write_csr(csr.indptr, csr.indices, csr.data, encoding=encoding, block=block)

    def write_column(self, column: int | str, values: npt.ArrayLike, *, encoding: EncodingArg | None = None,
                     block_rows: int | None = None) -> None:
        """Writes frame column `column` (an index or a label given to begin_frame) from a 1-D array, one block per
        `block_rows` rows (None: automatic)."""
        if isinstance(column, str):
            if column not in self._labels:
                raise KeyError(f"no column labelled {column!r}")
            column = self._labels.index(column)
        column = unsigned(column, "column")
        block = None if block_rows is None else (uint32(block_rows, "block_rows"), 1)
        data = value_array(values)
        self._handle.call(lib.dbdf_writer_write_column, column, value_type_of(data.dtype),
                          c_void_p(data.ctypes.data), data.size, write_options(encoding, block))

    # -- end ------------------------------------------------------------------------------------------------

    def finish(self) -> None:
        """Checks that the blocks cover every cell, flushes, and for a file renames it into place."""
        self._handle.call(lib.dbdf_writer_finish)
        self._finished = True

    @property
    def bytes_written(self) -> int:
        written: int = self._handle.query(lib.dbdf_writer_bytes_written, c_uint64)
        return written

    def getvalue(self) -> bytes:
        """The bytes of a finished memory writer."""
        data = c_void_p()
        nbytes = c_size_t()
        with self._handle as pointer:  # the bytes are the writer's memory: copy them before anyone can free it
            check(lib.dbdf_writer_memory(pointer, byref(data), byref(nbytes)))
            return ctypes.string_at(data.value, nbytes.value) if nbytes.value else b""  # type: ignore[arg-type]


def _canonical_csr(matrix: Any) -> Any:
    """`matrix` as a CSR matrix with sorted, unique column indices; the caller's matrix is never modified."""
    import scipy.sparse
    if not scipy.sparse.issparse(matrix):
        raise TypeError(f"expected a scipy.sparse matrix or array, not {type(matrix).__name__}")
    if matrix.ndim != 2:
        raise ValueError("only 2-D sparse arrays can be stored")
    csr = scipy.sparse.csr_matrix(matrix)
    if not csr.has_canonical_format:
        csr = csr.copy()  # the conversion may share the caller's arrays, which sum_duplicates() would sort
        csr.sum_duplicates()
    return csr
