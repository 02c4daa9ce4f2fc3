"""Chunk grids over a .dbdf object's blocks: whether the blocks form a rectilinear grid (then one chunk is one
block), and which blocks each chunk of any other grid overlaps. Only the block index is used here, never a payload.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
from typing import Any, Sequence

from ..block import BlockInfo

#: Chunk sizes along each axis, as Dask writes them: ((rows of each chunk row), (columns of each chunk column)).
Chunks = tuple[tuple[int, ...], tuple[int, ...]]

# A grid made of every block boundary is used for blocks that are not rectilinear, unless it has more than this many
# chunks per block (boundaries that do not line up multiply): then Dask's automatic chunks, aligned to the blocks.
_MAX_CHUNKS_PER_BLOCK = 4


def sizes_between(bounds: Sequence[int]) -> tuple[int, ...]:
    return tuple(stop - start for start, stop in zip(bounds[:-1], bounds[1:]))


def boundaries(starts: set[int], extent: int) -> list[int]:
    """Sorted cut positions along an axis: 0, every start inside the extent, and the extent itself."""
    return sorted({0, extent} | {start for start in starts if 0 < start < extent})


def block_chunks(blocks: Sequence[BlockInfo], shape: tuple[int, int]) -> Chunks | None:
    """The chunks of a grid made of every block boundary, or None when that grid has many more chunks than there are
    blocks. Blocks partition the object (the reader's index checks it), so the grid has exactly one chunk per block
    when the blocks are rectilinear."""
    row_bounds = boundaries({block.row for block in blocks}, shape[0])
    col_bounds = boundaries({block.col for block in blocks}, shape[1])
    chunks = (sizes_between(row_bounds) or (0,), sizes_between(col_bounds) or (0,))
    if len(chunks[0]) * len(chunks[1]) > max(1, _MAX_CHUNKS_PER_BLOCK * len(blocks)):
        return None
    return chunks


def overlapping_blocks(chunks: Chunks, blocks: Sequence[BlockInfo]) -> dict[tuple[int, int], list[BlockInfo]]:
    """For each chunk (i, j) the blocks it overlaps, in file order (chunks that overlap none are absent)."""
    row_starts = [0, *accumulate(chunks[0])]
    col_starts = [0, *accumulate(chunks[1])]
    overlaps: dict[tuple[int, int], list[BlockInfo]] = {}
    for block in blocks:
        if block.rows == 0 or block.cols == 0:
            continue
        first_row = bisect.bisect_right(row_starts, block.row) - 1
        last_row = bisect.bisect_right(row_starts, block.row + block.rows - 1) - 1
        first_col = bisect.bisect_right(col_starts, block.col) - 1
        last_col = bisect.bisect_right(col_starts, block.col + block.cols - 1) - 1
        for i in range(first_row, last_row + 1):
            for j in range(first_col, last_col + 1):
                if chunks[0][i] and chunks[1][j]:
                    overlaps.setdefault((i, j), []).append(block)
    return overlaps


def chunk_byte_limit() -> int:
    """Dask's configured chunk size ("array.chunk-size", 128 MiB unless changed) in bytes: the most one chunk or
    partition of ours holds, so that a block of billions of rows (a file of a few hundred bytes can declare one in
    an empty block) becomes many bounded tasks instead of one allocation of its whole size."""
    import dask.config
    from dask.utils import parse_bytes
    return max(1, int(parse_bytes(dask.config.get("array.chunk-size"))))


# The most chunks or partitions a cut into Dask's chunk size may give (128 TiB at 128 MiB each): past it the
# graph alone would take minutes and gigabytes to build, so the cut is refused with a message saying what to do.
MAX_PIECES = 1 << 20


def split_sizes(sizes: Sequence[int], most: int) -> tuple[int, ...]:
    """`sizes` with every size above `most` cut into pieces of `most` (the last one shorter), in order."""
    most = max(1, most)
    pieces: list[int] = []
    for size in sizes:
        whole, rest = divmod(size, most)
        pieces.extend([most] * whole + ([rest] if rest else []))
    return tuple(pieces) or (0,)


def piece_count(sizes: Sequence[int], most: int) -> int:
    """How many sizes split_sizes(sizes, most) gives, without making them."""
    most = max(1, most)
    return max(1, sum(-(-size // most) for size in sizes))


def refuse_too_many(pieces: int, what: str, limit: int) -> None:
    if pieces > MAX_PIECES:
        raise ValueError(f"{what} would be cut into {pieces} pieces of at most {limit} bytes (Dask's "
                         f"array.chunk-size), more than the {MAX_PIECES} a graph here may hold; pass chunks "
                         "explicitly, or raise array.chunk-size")


def bounded_chunks(chunks: Chunks, bytes_per_cell: int, bytes_per_row: int, limit: int, what: str) -> Chunks:
    """`chunks` with chunks of more than `limit` bytes cut inside (a cut chunk still lies in the blocks it lay in):
    columns first, so that one row of a chunk fits, then rows. A chunk's bytes are its cells times
    `bytes_per_cell` (dense chunks) plus its rows times `bytes_per_row` (a sparse chunk's row pointers). Raises
    ValueError, naming `what`, when that gives more than MAX_PIECES chunks."""
    most_cols = limit // bytes_per_cell if bytes_per_cell else max(chunks[1], default=1)
    col_count = piece_count(chunks[1], most_cols)
    refuse_too_many(col_count, what, limit)
    widest = min(max(chunks[1], default=0), max(1, most_cols))
    row_bytes = max(1, widest * bytes_per_cell + bytes_per_row)
    refuse_too_many(col_count * piece_count(chunks[0], limit // row_bytes), what, limit)
    return split_sizes(chunks[0], limit // row_bytes), split_sizes(chunks[1], most_cols)


def chunk_origins(chunks: Chunks) -> tuple[list[int], list[int]]:
    """The first row of each chunk row and the first column of each chunk column."""
    return [0, *accumulate(chunks[0])][:-1], [0, *accumulate(chunks[1])][:-1]


def as_chunks(normalized: Any) -> Chunks:
    rows, cols = normalized
    return tuple(int(size) for size in rows), tuple(int(size) for size in cols)
