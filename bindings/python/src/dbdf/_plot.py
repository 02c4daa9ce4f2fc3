"""Reader.plot(): the picture `dbdf map` draws, as a matplotlib figure. Each block is a rectangle at its position and
shape, coloured by block type and shaded by its stored values per cell; a legend and the object's shape and size.
Made from the block infos of the reader's index alone, so no payload is read. Files of more than MAX_DRAWN_BLOCKS
blocks are drawn as a GRID x GRID image of what falls into each cell, as the command does.

matplotlib is an optional dependency: it is imported here, when a picture is asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import numpy.typing as npt

from .types import BlockType, DataType

if TYPE_CHECKING:
    from matplotlib.figure import Figure as _Figure

    from .block import BlockInfo
    from .reader import Reader

MAX_DRAWN_BLOCKS = 10000
GRID = 160

# The colours `dbdf map` uses, per block type.
COLOURS: dict[BlockType, str] = {BlockType.EMPTY: "#d9d9d9", BlockType.DENSE: "#1f77b4", BlockType.CSR: "#2ca02c",
           BlockType.COO: "#d62728"}


def _matplotlib() -> tuple[Any, Any, Any, Any, Any]:
    try:
        from matplotlib.collections import PatchCollection
        from matplotlib.colors import to_rgba
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch, Rectangle
    except ImportError as error:
        raise ImportError("Reader.plot() draws with matplotlib, an optional dependency of dbdf that is not "
                          "installed: pip install matplotlib") from error
    return PatchCollection, to_rgba, Figure, Patch, Rectangle


def _opacity(block_type: BlockType, share: float) -> float:
    """As `dbdf map`: empty blocks solid grey, others from 0.3 (few values stored) to 1 (every cell)."""
    return 1.0 if block_type == BlockType.EMPTY else 0.3 + 0.7 * min(1.0, share)


def _size_text(size: int) -> str:
    if size < 10000:
        return f"{size} bytes"
    value = size / 1000
    for unit in ("kB", "MB", "GB", "TB"):
        if value < 1000:
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} PB"


def plot_blocks(reader: Reader, title: str | None = None) -> _Figure:
    """The figure of `reader`'s blocks (see Reader.plot)."""
    PatchCollection, to_rgba, Figure, Patch, Rectangle = _matplotlib()
    info = reader.info
    blocks = [reader.index_entry(index) for index in range(reader.build_index())]
    figure: _Figure = Figure(figsize=(8, 6))
    axes = figure.add_subplot()
    rows, cols = max(1, info.rows), max(1, info.cols)
    if not blocks:
        pass
    elif len(blocks) <= MAX_DRAWN_BLOCKS:
        rectangles, colours = [], []
        for block in blocks:
            share = block.stored_values / max(1, block.rows * block.cols)
            rectangles.append(Rectangle((block.col, block.row), block.cols, block.rows))
            colours.append(to_rgba(COLOURS[block.block_type], _opacity(block.block_type, share)))
        # The edge in the fill's colour keeps a block thinner than a pixel visible.
        axes.add_collection(PatchCollection(rectangles, facecolors=colours, edgecolors=colours, linewidths=0.5))
    else:
        axes.imshow(_aggregated_image(blocks, rows, cols, to_rgba), extent=(0, cols, rows, 0), aspect="auto",
                    interpolation="nearest")
    axes.set_xlim(0, cols)
    axes.set_ylim(rows, 0)  # row 0 at the top, as in the matrix
    # Each axis its own scale when the object is far from square, so a 10^6 x 3 matrix is no line.
    axes.set_aspect("equal" if max(rows, cols) <= 5 * min(rows, cols) else "auto")
    axes.set_xlabel("column")
    axes.set_ylabel("row")
    counts = {block_type: 0 for block_type in BlockType}
    for block in blocks:
        counts[block.block_type] += 1
    axes.legend(handles=[Patch(color=COLOURS[t], label=f"{t.name.lower()}: {counts[t]} blocks") for t in BlockType],
                loc="upper left", bbox_to_anchor=(1.02, 1), title="block type (shade: values per cell)")
    value_types = (info.value_type.name.lower() if info.data_type != DataType.FRAME
                   else ", ".join(t.name.lower() for t in reader.column_types[:8])
                   + (f", ... ({info.cols} columns)" if info.cols > 8 else ""))
    drawn = f", drawn as a {GRID} x {GRID} grid" if len(blocks) > MAX_DRAWN_BLOCKS else ""
    axes.set_title((f"{title}\n" if title else "") +
                   f"{info.rows} x {info.cols} {info.data_type.name.lower()} of {value_types}, "
                   f"{_size_text(info.total_bytes)} in {len(blocks)} blocks{drawn}", fontsize=10)
    figure.tight_layout()
    return figure


def _aggregated_image(blocks: list[BlockInfo], rows: int, cols: int,
                      to_rgba: Callable[..., tuple[float, float, float, float]]) -> npt.NDArray[np.float64]:
    """A GRID x GRID RGBA image: per cell the block type covering most of it, shaded by the stored values per cell
    (each block's spread evenly over its area)."""
    grid_rows, grid_cols = min(GRID, rows), min(GRID, cols)
    cell_rows, cell_cols = rows / grid_rows, cols / grid_cols
    area = np.zeros((4, grid_rows, grid_cols))
    stored = np.zeros((grid_rows, grid_cols))
    for block in blocks:
        first_row, last_row = int(block.row // cell_rows), int(min(grid_rows - 1, (block.row + block.rows) // cell_rows))
        first_col, last_col = int(block.col // cell_cols), int(min(grid_cols - 1, (block.col + block.cols) // cell_cols))
        r = np.arange(first_row, last_row + 1)
        c = np.arange(first_col, last_col + 1)
        overlap_rows = np.clip(np.minimum(block.row + block.rows, (r + 1) * cell_rows)
                               - np.maximum(block.row, r * cell_rows), 0, None)
        overlap_cols = np.clip(np.minimum(block.col + block.cols, (c + 1) * cell_cols)
                               - np.maximum(block.col, c * cell_cols), 0, None)
        overlap = np.outer(overlap_rows, overlap_cols)
        area[int(block.block_type), first_row:last_row + 1, first_col:last_col + 1] += overlap
        stored[first_row:last_row + 1, first_col:last_col + 1] += (
            block.stored_values * overlap / max(1, block.rows * block.cols))
    image = np.ones((grid_rows, grid_cols, 4))
    covered = area.sum(axis=0)
    dominant = area.argmax(axis=0)
    for block_type in BlockType:
        colour = np.array(to_rgba(COLOURS[block_type]))
        where = (dominant == int(block_type)) & (covered > 0)
        share = np.divide(stored, covered, out=np.zeros_like(stored), where=covered > 0)
        image[where, :3] = colour[:3]
        image[where, 3] = 1.0 if block_type == BlockType.EMPTY else 0.3 + 0.7 * np.minimum(1.0, share[where])
    return image
