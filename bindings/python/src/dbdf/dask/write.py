"""to_dbdf: a Dask array or dataframe written as one .dbdf object, one block per chunk, in file order, by one writer
in the calling process, while only a bounded number of chunks are computed ahead of it.

The workers do not send their chunks as they are: each encodes its chunk as a one-chunk .dbdf object in memory
(automatic encoding picks the smallest block type and the narrowest value type, exactly), and the writer takes
that object's blocks in their stored value types. So what crosses the network, and what the writing process
holds, is the encoded size (an eighth for float64 small integers, nothing for zeros), not the chunk's."""

from __future__ import annotations

import os
from collections import deque
from contextlib import ExitStack
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

import numpy as np

from .._frames import frame_columns
from ..reader import Reader
from ..types import BlockType, DataType
from ..writer import Writer
from ._source import Location, is_url

if TYPE_CHECKING:
    from .._typing import DialectArg, EncodingArg


def to_dbdf(data: Any, path: Location, encoding: EncodingArg = "auto", dialect: DialectArg = "spec",
            write_meta: bool = True, *, durable: bool = False, threads: int | None = None,
            in_flight: int | None = None, storage_options: Mapping[str, Any] | None = None) -> None:
    """Writes a dask.array.Array (a dense matrix; a CSR matrix when its chunks are scipy.sparse) or a
    dask.dataframe.DataFrame of numeric columns with str labels (a frame) to `path` as one .dbdf object.

    Each chunk becomes one block at its place (a 1-D array is one column; a dataframe partition becomes one block
    per column, since a frame block holds one value type). Chunks are computed and encoded on the cluster (or by
    Dask's default scheduler) and written in file order by one writer in this process; at most `in_flight` of them
    are computed ahead of the writer (None: twice the cluster's threads), so neither this process nor a worker ever
    holds more than those chunks, never the whole array. A dataframe's partitions are computed twice: once for
    their lengths (the frame header comes first), once for their values.

    encoding, dialect, write_meta, durable and threads are those of dbdf.save (`block` is the chunking here). A
    path is written atomically; an fsspec URL (storage_options passed to fsspec) is written through a file object,
    not atomically. The daphne dialect takes dense arrays whose chunks span every column."""
    import dask.array
    with ExitStack() as stack:
        target: Any = os.fspath(path)
        if is_url(target):
            from fsspec.core import url_to_fs
            file_system, file_path = url_to_fs(target, **dict(storage_options or {}))
            target = stack.enter_context(file_system.open(file_path, "wb"))
        writer = stack.enter_context(Writer(target, dialect, write_meta, durable=durable, threads=threads))
        if isinstance(data, dask.array.Array):
            _write_array(writer, data, encoding, in_flight)
        else:
            _write_frame(writer, data, encoding, in_flight)
        writer.finish()


def _write_array(writer: Writer, array: Any, encoding: EncodingArg, in_flight: int | None) -> None:
    import scipy.sparse
    from dask.delayed import delayed
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2:
        raise ValueError(f"a {array.ndim}-dimensional array cannot be stored; dbdf stores 1-D and 2-D arrays")
    if any(np.isnan(size) for sizes in array.chunks for size in sizes):
        raise ValueError("the array's chunk sizes are unknown; call compute_chunk_sizes() first")
    data_type = DataType.CSR if scipy.sparse.issparse(array._meta) else DataType.DENSE
    writer.begin_matrix(data_type, array.dtype, *array.shape)
    row_origins = [0, *accumulate(array.chunks[0])]
    col_origins = [0, *accumulate(array.chunks[1])]
    places = [(i, j) for i in range(len(array.chunks[0])) for j in range(len(array.chunks[1]))]
    encode = delayed(_encode_array_chunk, pure=True)
    chunks = [encode(chunk, data_type, encoding) for chunk in array.to_delayed().ravel()]  # row-major: file order
    for (i, j), encoded in zip(places, _computed_in_order(chunks, in_flight)):
        _add_blocks(writer, encoded, (row_origins[i], col_origins[j]),
                    (array.chunks[0][i], array.chunks[1][j]), encoding, f"chunk ({i}, {j})")


def _write_frame(writer: Writer, frame: Any, encoding: EncodingArg, in_flight: int | None) -> None:
    import dask.dataframe
    from dask.delayed import delayed
    if not isinstance(frame, dask.dataframe.DataFrame):
        raise TypeError(f"to_dbdf writes a dask.array.Array or dask.dataframe.DataFrame, not {type(frame).__name__}")
    meta_columns = frame_columns(frame._meta)
    lengths = [int(length) for length in frame.map_partitions(len).compute()]
    writer.begin_frame(sum(lengths), [(label, values.dtype) for label, values in meta_columns])
    encode = delayed(_encode_partition, pure=True)
    partitions = [encode(partition, encoding) for partition in frame.to_delayed()]
    row = 0
    for index, (length, encoded) in enumerate(zip(lengths, _computed_in_order(partitions, in_flight))):
        _add_blocks(writer, encoded, (row, 0), (length, len(meta_columns)), encoding, f"partition {index}")
        row += length


def _encode_array_chunk(chunk: Any, data_type: DataType, encoding: EncodingArg) -> bytes:
    """Runs on a worker: the chunk as a .dbdf object of one block, encoded as `encoding` says."""
    with Writer.to_memory() as writer:
        if data_type == DataType.CSR:
            writer.begin_matrix(data_type, chunk.dtype, *chunk.shape)
            if chunk.shape[0] and chunk.shape[1]:
                writer.add_sparse(0, 0, chunk, encoding=encoding)
        else:
            values = np.asarray(chunk)
            writer.begin_matrix(data_type, values.dtype, *values.shape)
            if values.size:
                writer.add_dense(0, 0, values, encoding=encoding)
        writer.finish()
        return writer.getvalue()


def _encode_partition(partition: Any, encoding: EncodingArg) -> bytes:
    """Runs on a worker: a dataframe partition as a frame of one block per column."""
    columns = frame_columns(partition)
    rows = len(partition)
    with Writer.to_memory() as writer:
        writer.begin_frame(rows, [(label, values.dtype) for label, values in columns])
        for column, (_, values) in enumerate(columns):
            if rows:
                writer.add_dense(0, column, values.reshape(-1, 1), encoding=encoding)
        writer.finish()
        return writer.getvalue()


def _add_blocks(writer: Writer, encoded: bytes, origin: tuple[int, int], shape: tuple[int, int],
                encoding: EncodingArg, what: str) -> None:
    """Adds the blocks of the one-chunk object `encoded` at `origin`, each in the value type it is stored in (so
    the writer's exact encoding decides as it would on the chunk itself, without widening anything first)."""
    with Reader.from_bytes(encoded) as chunk:
        if chunk.shape != shape:
            raise ValueError(f"{what} computed to shape {chunk.shape}, not the {shape} its collection declares")
        for block in chunk:
            row, col = origin[0] + block.row, origin[1] + block.col
            if block.block_type == BlockType.EMPTY:
                writer.add_empty(row, col, block.shape)
            elif chunk.info.data_type == DataType.CSR:
                arrays = block.decode_csr(block.value_type)
                writer.add_csr(row, col, block.shape, arrays.row_offsets, arrays.col_indices, arrays.values,
                               encoding=encoding)
            else:
                writer.add_dense(row, col, block.decode_dense(block.value_type), encoding=encoding)


def _computed_in_order(chunks: Sequence[Any], in_flight: int | None) -> Iterator[Any]:
    """The values of `chunks` (Delayed objects) in order, at most `in_flight` of them computed or held at a time."""
    client = _distributed_client()
    if client is None:
        from dask.base import compute
        window = in_flight or 2 * (os.cpu_count() or 1)
        for start in range(0, len(chunks), window):
            yield from compute(*chunks[start:start + window])
        return
    window = in_flight or 2 * max(1, sum(client.nthreads().values()))
    pending: deque[Any] = deque()
    for chunk in chunks:
        pending.append(client.compute(chunk))
        if len(pending) >= window:
            yield _take(pending)
    while pending:
        yield _take(pending)


def _take(pending: deque[Any]) -> Any:
    future = pending.popleft()
    result = future.result()
    future.release()  # the worker may drop the chunk now
    return result


def _distributed_client() -> Any:
    """The distributed.Client that compute() would use, or None (not installed, or none running)."""
    try:
        from distributed import default_client
        return default_client()
    except (ImportError, ValueError):
        return None
