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


def chunk_origins(chunks: Chunks) -> tuple[list[int], list[int]]:
    """The first row of each chunk row and the first column of each chunk column."""
    return [0, *accumulate(chunks[0])][:-1], [0, *accumulate(chunks[1])][:-1]


def as_chunks(normalized: Any) -> Chunks:
    rows, cols = normalized
    return tuple(int(size) for size in rows), tuple(int(size) for size in cols)
