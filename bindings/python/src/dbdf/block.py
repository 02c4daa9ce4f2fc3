"""Blocks as a Reader yields them: their description, and decoding into ndarrays on request."""

from __future__ import annotations

from ctypes import byref, c_char, c_int, c_size_t, c_uint64, c_void_p, string_at
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ._buffers import out_value_type, u32_pointer, u64_pointer, writable_row_major
from ._library import BlockInfoStruct, lib
from ._typing import DTypeArg
from .errors import check
from .types import BlockType, PayloadLayout, ValueType

if TYPE_CHECKING:
    import scipy.sparse

    from .reader import Reader


@dataclass(frozen=True)
class BlockInfo:
    """One block as stored, known without decoding its payload."""
    index: int  # ordinal in the file, from 0
    row: int  # position of the block's first row in the object
    col: int
    rows: int
    cols: int
    block_type: BlockType
    value_type: ValueType  # ValueType.NONE for empty blocks
    stored_values: int
    offset: int  # byte offset of the block record in the input
    encoded_bytes: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @staticmethod
    def from_struct(info: BlockInfoStruct) -> "BlockInfo":
        return BlockInfo(info.index, info.row, info.col, info.rows, info.cols, BlockType(info.block_type),
                         ValueType(info.value_type), info.stored_values, info.offset, info.encoded_bytes)


def _signed_indices(indices: npt.NDArray[Any], bound: int) -> npt.NDArray[Any]:
    """Unsigned `indices`, each below `bound`, as the signed integers SciPy takes: a view of the same memory
    when `bound` fits the signed type of their width (the bits are then the same), else a copy as int64."""
    signed = np.dtype(f"i{indices.dtype.itemsize}")
    if bound - 1 <= np.iinfo(signed).max:
        return indices.view(signed)
    return indices.astype(np.int64)


class CsrArrays(NamedTuple):
    """A block (block-local indices) or an object as CSR arrays."""
    row_offsets: npt.NDArray[np.uint64]  # rows + 1 entries
    col_indices: npt.NDArray[np.uint32] | npt.NDArray[np.uint64]  # uint32 for blocks, uint64 for objects
    values: npt.NDArray[Any]
    shape: tuple[int, int]

    def to_scipy(self) -> scipy.sparse.csr_matrix:
        """A scipy.sparse.csr_matrix of these arrays. The indices are passed as views, not copies; SciPy keeps
        them when they have the index dtype it chooses (it prefers int32 for indices that fit)."""
        import scipy.sparse
        col_indices = _signed_indices(self.col_indices, self.shape[1])
        row_offsets = _signed_indices(self.row_offsets, self.values.size + 1)
        matrix: scipy.sparse.csr_matrix = scipy.sparse.csr_matrix((self.values, col_indices, row_offsets),
                                                                  shape=self.shape)
        return matrix


class CooArrays(NamedTuple):
    """A block as COO triplets with block-local indices, in row-major order."""
    row_indices: npt.NDArray[np.uint32]
    col_indices: npt.NDArray[np.uint32]
    values: npt.NDArray[Any]
    shape: tuple[int, int]

    def to_scipy(self) -> scipy.sparse.coo_matrix:
        """A scipy.sparse.coo_matrix of these triplets."""
        import scipy.sparse
        matrix: scipy.sparse.coo_matrix = scipy.sparse.coo_matrix((self.values, (self.row_indices, self.col_indices)),
                                                                  shape=self.shape)
        return matrix


class Block:
    """A block of a Reader. Decoding and the payload work at any time while the reader is open: if the reader
    has moved on, it is moved to this block for the call and back afterwards."""

    if TYPE_CHECKING:  # the attributes __getattr__ takes from info
        index: int
        row: int
        col: int
        rows: int
        cols: int
        shape: tuple[int, int]
        block_type: BlockType
        value_type: ValueType
        stored_values: int
        offset: int
        encoded_bytes: int

    def __init__(self, reader: Reader, info: BlockInfo) -> None:
        self._reader = reader
        self.info = info

    def __getattr__(self, name: str) -> Any:
        # index, row, col, rows, cols, shape, block_type, value_type, stored_values, offset, encoded_bytes
        return getattr(self.info, name)

    def __repr__(self) -> str:
        return f"<dbdf.Block {self.info}>"

    def decode_dense(self, dtype: DTypeArg = None, out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """The block as a rows x cols ndarray (zeros filled in for sparse and empty blocks).

        dtype: the result's dtype (default: the object's or column's value type); values must convert exactly.
        out: decode straight into this array (e.g. a window of a larger C-order array) instead of a new one."""
        if out is None:
            value_type = self._reader._default_value_type(self.info, dtype)
            out = np.empty(self.info.shape, dtype=value_type.dtype)
        row_stride, capacity = writable_row_major(out, self.info.shape)
        value_type = out_value_type(out, dtype)
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_decode_dense(pointer, value_type, c_void_p(out.ctypes.data), capacity,
                                                     row_stride))
        return out

    def count_entries(self) -> int:
        """Entries the block yields as CSR or COO: every stored entry of a sparse block, the bit-non-zero values
        of a dense block, none for an empty block."""
        count = c_uint64()
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_count_entries(pointer, byref(count)))
        return count.value

    def decode_csr(self, dtype: DTypeArg = None) -> CsrArrays:
        """The block as CSR arrays with block-local indices (uint64 row offsets, uint32 column indices)."""
        value_type = self._reader._default_value_type(self.info, dtype)
        entries = self.count_entries()
        row_offsets = np.empty(self.info.rows + 1, dtype=np.uint64)
        col_indices = np.empty(entries, dtype=np.uint32)
        values = np.empty(entries, dtype=value_type.dtype)
        decoded = c_uint64()
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_decode_csr(pointer, value_type, u64_pointer(row_offsets), row_offsets.size,
                                                   u32_pointer(col_indices), c_void_p(values.ctypes.data), entries,
                                                   byref(decoded)))
        return CsrArrays(row_offsets, col_indices, values, self.info.shape)

    def decode_coo(self, dtype: DTypeArg = None) -> CooArrays:
        """The block as COO triplets with block-local indices (uint32), in row-major order."""
        value_type = self._reader._default_value_type(self.info, dtype)
        entries = self.count_entries()
        row_indices = np.empty(entries, dtype=np.uint32)
        col_indices = np.empty(entries, dtype=np.uint32)
        values = np.empty(entries, dtype=value_type.dtype)
        decoded = c_uint64()
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_decode_coo(pointer, value_type, u32_pointer(row_indices),
                                                   u32_pointer(col_indices), c_void_p(values.ctypes.data), entries,
                                                   byref(decoded)))
        return CooArrays(row_indices, col_indices, values, self.info.shape)

    def payload(self) -> memoryview:
        """The block's payload bytes as stored, read-only (payload_layout() says how they are arranged,
        dbdf_reader_block_payload describes each layout). For a reader of bytes in memory (Reader.from_bytes) the
        view points into those bytes without copying; for a file it is a copy, because the native reader reads a
        file's payloads into a buffer it reuses for the next block. Either way the view stays valid after the
        reader moved on or was closed."""
        data = c_void_p()
        nbytes = c_size_t()
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_payload(pointer, byref(data), byref(nbytes)))
            if self._reader._reads_file:
                return memoryview(string_at(data.value, nbytes.value)  # type: ignore[arg-type]
                                  if nbytes.value else b"").toreadonly()
            exporter = (c_char * nbytes.value).from_address(data.value)  # type: ignore[arg-type]
            self._reader._handle.track_payload(exporter)  # before a close() on another thread could free it
        return memoryview(exporter).cast("B").toreadonly()

    def payload_layout(self) -> tuple[PayloadLayout, int]:
        """How the payload's bytes are arranged, and for PayloadLayout.STRIDED_COLUMN (a column of a daphne
        frame) the distance in bytes between consecutive values (0 for the other layouts). Decoding handles
        every layout; this matters only to readers of payload()."""
        layout = c_int()
        value_stride = c_uint64()
        with self._reader._on_block(self.info.index) as pointer:
            check(lib.dbdf_reader_block_payload_layout(pointer, byref(layout), byref(value_stride)))
        return PayloadLayout(layout.value), value_stride.value
