"""read_dbdf: a .dbdf frame as a dask.dataframe.DataFrame, one partition per row band of blocks."""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from ..block import BlockInfo
from ..types import BlockType, DataType
from ._grid import boundaries, chunk_byte_limit, piece_count, refuse_too_many, sizes_between, split_sizes
from ._source import Location, Source

if TYPE_CHECKING:
    import dask.dataframe
    import pandas

    from .._typing import DialectArg


def read_dbdf(path_or_url: Location, dialect: DialectArg = "spec", *, threads: int | None = 1,
              storage_options: Mapping[str, Any] | None = None) -> dask.dataframe.DataFrame:
    """A dask.dataframe.DataFrame of the frame in `path_or_url` (a path or an fsspec URL), with the frame's column
    labels and types and a RangeIndex of row numbers.

    Partitions are cut at every row where a block starts, so each is a band of rows that no block boundary
    crosses inside, and a band holding more than Dask's "array.chunk-size" bytes is cut into several; `divisions`
    are the bands' first rows (and the last row). A partition decodes only the rows
    of the blocks that overlap its band; a band of empty blocks costs no I/O. Building the graph reads the header
    and the block index only. dialect, threads and storage_options as for from_dbdf."""
    import dask.dataframe
    import pandas

    source = Source.of(path_or_url, dialect, threads, storage_options)
    with source.open() as reader:
        info = reader.info
        if info.data_type != DataType.FRAME:
            raise TypeError(f"{source.location} holds a {info.data_type.name} matrix, not a frame; use from_dbdf")
        schema = [(label, value_type.dtype) for label, value_type in zip(reader.column_labels, reader.column_types)]
        blocks = [reader.index_entry(index) for index in range(reader.build_index())]
    meta = pandas.DataFrame({label: np.empty(0, dtype=dtype) for label, dtype in schema})
    # Bands are cut at every row where a block starts, and bands of more than Dask's chunk size in bytes
    # ("array.chunk-size") are cut again, so that no partition is sized by a block of billions of rows alone.
    row_bytes = max(1, sum(dtype.itemsize for _, dtype in schema))
    limit = chunk_byte_limit()
    bands_at_blocks = sizes_between(boundaries({block.row for block in blocks}, info.rows))
    refuse_too_many(piece_count(bands_at_blocks, limit // row_bytes), f"a frame of {info.rows} rows", limit)
    band_rows = split_sizes(bands_at_blocks, limit // row_bytes)
    row_bounds = [0, *accumulate(band_rows)] if info.rows else [0]
    divisions: tuple[int | None, ...] = (None, None)  # unknown: a frame without rows has no first or last row
    if info.rows == 0:
        bands = [(0, 0, False)]
    else:
        bands = [(start, stop, _stores_values(blocks, start, stop))
                 for start, stop in zip(row_bounds, row_bounds[1:])]
        divisions = (*row_bounds[:-1], info.rows - 1)
    frame: dask.dataframe.DataFrame = dask.dataframe.from_map(
        _read_band, bands, args=(source, schema), meta=meta, divisions=divisions, label="read-dbdf",
        enforce_metadata=False)
    return frame


def _stores_values(blocks: list[BlockInfo], start: int, stop: int) -> bool:
    return any(block.block_type != BlockType.EMPTY and block.row < stop and start < block.row + block.rows
               for block in blocks)


def _read_band(band: tuple[int, int, bool], source: Source, schema: list[tuple[str, np.dtype[Any]]]) \
        -> pandas.DataFrame:
    """Rows [start, stop) of every column of `schema` ((label, dtype) pairs); zeros without opening the file when
    no block there stores values."""
    import pandas
    start, stop, stores_values = band
    values: dict[str, Any] = {}
    if not stores_values:
        values = {label: np.zeros(stop - start, dtype=dtype) for label, dtype in schema}
    else:
        with source.open() as reader:
            for column, (label, dtype) in enumerate(schema):
                values[label] = reader.read_window(start, column, stop - start, 1, dtype=dtype).reshape(-1)
    return pandas.DataFrame(values, index=pandas.RangeIndex(start, stop), copy=False)
