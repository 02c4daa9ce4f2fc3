"""from_dbdf: a .dbdf matrix as a dask.array.Array whose chunks are decoded block by block on the workers."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

from ..block import BlockInfo
from ..types import BlockType, DataType, value_type_of
from ._grid import Chunks, as_chunks, block_chunks, bounded_chunks, chunk_byte_limit, chunk_origins, overlapping_blocks
from ._source import Location, Source

if TYPE_CHECKING:
    import dask.array

    from .._typing import DialectArg, DTypeArg

#: The chunks argument: "blocks", or anything dask.array.core.normalize_chunks takes ("auto", 1000, (500, -1), ...).
ChunksArg = Union[str, int, Sequence[Any], Mapping[int, Any]]


def from_dbdf(path_or_url: Location, chunks: ChunksArg = "blocks", dtype: DTypeArg = None,
              dialect: DialectArg = "spec", *, sparse: bool | None = None, threads: int | None = 1,
              storage_options: Mapping[str, Any] | None = None) -> dask.array.Array:
    """A dask.array.Array of the matrix in `path_or_url` (a path, or an fsspec URL such as "memory://m.dbdf").

    chunks: "blocks" (the default) gives one chunk per block when the blocks form a rectilinear grid (a block larger
    than Dask's "array.chunk-size" is cut into several chunks of at most that size); otherwise the
    chunks are cut at every block boundary, or, when that would give many more chunks than blocks, are Dask's
    automatic chunks aligned to the first block's shape. Anything else is given to Dask's normalize_chunks
    ("auto", 1000, (4096, -1), ...). Either way each chunk decodes only the blocks that overlap it, and a chunk
    that overlaps only empty blocks (no stored values) costs no I/O at all.

    dtype: the chunks' dtype (values convert exactly, or the task raises DbdfError with Status.RANGE); None: the
    object's value type (a frame's single column type).
    sparse: whether chunks are scipy.sparse.csr_matrix (meta set accordingly) instead of ndarrays. None (the
    default): sparse for a CSR object read without a dtype, dense otherwise; so a dense dtype asks a CSR object
    for ndarray chunks, and sparse=True keeps them sparse in that dtype.
    dialect: "spec" or "daphne", as for dbdf.Reader. threads: each task's decoding threads (dbdf.Reader); 1 by
    default, since Dask already runs tasks side by side. storage_options: passed to fsspec for URLs.

    Building the graph reads the header and the block index only, never a payload. The graph holds the location
    and these options, not a reader: every task opens its own reader, on whichever worker runs it."""
    import dask.array
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    source = Source.of(path_or_url, dialect, threads, storage_options)
    with source.open() as reader:
        info = reader.info
        if info.data_type == DataType.SCALAR:
            raise TypeError(f"{source.location} holds a scalar, not a matrix; use dbdf.load")
        blocks = [reader.index_entry(index) for index in range(reader.build_index())]
        value_type = value_type_of(dtype) if dtype is not None else reader._matrix_value_type()
    as_sparse = (info.data_type == DataType.CSR and dtype is None) if sparse is None else sparse
    grid = _chunks_of(chunks, blocks, info.shape, value_type.dtype, as_sparse)
    overlaps = overlapping_blocks(grid, blocks)
    name = "from-dbdf-" + tokenize(source, info, blocks, grid, value_type, as_sparse)
    read_chunk = _read_sparse_chunk if as_sparse else _read_dense_chunk
    row_origins, col_origins = chunk_origins(grid)
    layer: dict[Any, Any] = {}  # keys (name, i, j), Dask's convention for array chunks
    for i, (row, rows) in enumerate(zip(row_origins, grid[0])):
        for j, (col, cols) in enumerate(zip(col_origins, grid[1])):
            stored = tuple(block for block in overlaps.get((i, j), ()) if block.block_type != BlockType.EMPTY)
            layer[(name, i, j)] = (partial(read_chunk, source, (row, col), (rows, cols), value_type.dtype, stored),)
    graph = HighLevelGraph.from_collections(name, layer, dependencies=())
    return dask.array.Array(graph, name, grid, meta=_meta(value_type.dtype, as_sparse))


def _chunks_of(chunks: ChunksArg, blocks: Sequence[BlockInfo], shape: tuple[int, int],
               dtype: np.dtype[Any], sparse: bool) -> Chunks:
    from dask.array.core import normalize_chunks
    if isinstance(chunks, str) and chunks == "blocks":
        cut_at_blocks = block_chunks(blocks, shape)
        if cut_at_blocks is not None:
            # A sparse chunk holds a row pointer per row (its entries are what the blocks store); a dense one
            # every cell.
            cell_bytes, row_bytes = (0, np.dtype(np.int64).itemsize) if sparse else (dtype.itemsize, 0)
            return bounded_chunks(cut_at_blocks, cell_bytes, row_bytes, chunk_byte_limit(), f"a {shape} matrix")
        chunks = "auto"
    previous = (blocks[0].rows, blocks[0].cols) if blocks and chunks == "auto" else None
    return as_chunks(normalize_chunks(chunks, shape, dtype=dtype, previous_chunks=previous))


def _meta(dtype: np.dtype[Any], sparse: bool) -> Any:
    if sparse:
        import scipy.sparse
        return scipy.sparse.csr_matrix((0, 0), dtype=dtype)
    return np.empty((0, 0), dtype=dtype)


def _read_dense_chunk(source: Source, origin: tuple[int, int], shape: tuple[int, int], dtype: np.dtype[Any],
                      stored: tuple[BlockInfo, ...]) -> npt.NDArray[Any]:
    """The window of the object at `origin` of `shape`; `stored` are the blocks with values it overlaps."""
    if not stored:
        return np.zeros(shape, dtype=dtype)  # only empty blocks (or no cells): nothing to read
    with source.open() as reader:
        return reader.read_window(origin[0], origin[1], shape[0], shape[1], dtype=dtype)


def _read_sparse_chunk(source: Source, origin: tuple[int, int], shape: tuple[int, int], dtype: np.dtype[Any],
                       stored: tuple[BlockInfo, ...]) -> Any:
    """The window as a scipy.sparse.csr_matrix, from the entries of the blocks it overlaps (a block's entries are
    what dbdf.load's CSR result holds: the stored entries of sparse blocks, the bit-non-zero values of dense ones)."""
    import scipy.sparse
    row_parts: list[npt.NDArray[np.int64]] = []
    col_parts: list[npt.NDArray[np.int64]] = []
    value_parts: list[npt.NDArray[Any]] = []
    if stored:
        with source.open() as reader:
            for block in stored:
                triplets = reader[block.index].decode_coo(dtype)
                rows = triplets.row_indices.astype(np.int64) + (block.row - origin[0])
                cols = triplets.col_indices.astype(np.int64) + (block.col - origin[1])
                inside = (rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])
                row_parts.append(rows[inside])
                col_parts.append(cols[inside])
                value_parts.append(triplets.values[inside])
    values = np.concatenate(value_parts) if value_parts else np.empty(0, dtype=dtype)
    rows = np.concatenate(row_parts) if row_parts else np.empty(0, dtype=np.int64)
    cols = np.concatenate(col_parts) if col_parts else np.empty(0, dtype=np.int64)
    # Blocks do not overlap, so there are no duplicates to sum; explicit zeros stay, as in dbdf.load.
    return scipy.sparse.csr_matrix((values, (rows, cols)), shape=shape, dtype=dtype)

