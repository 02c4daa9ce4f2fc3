"""load() and save(): whole objects in one call."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ._arrow import has_arrow_stream, write_arrow
from ._frames import frame_columns, is_frame
from ._typing import BlockArg, DialectArg, EncodingArg, FrameDTypeArg, LoadSource, SaveObject, WriterTarget
from .reader import Reader
from .types import DataType, Dialect, dialect_of
from .writer import Writer, _canonical_csr


def load(source: LoadSource, dtype: FrameDTypeArg = None, dialect: DialectArg = "spec", *,
         threads: int | None = None) -> Any:
    """Reads a whole .dbdf object from a path, a binary file object with seek() and read() (see Reader: only the
    bytes needed are fetched, and its position is back where it was when load() returns), or bytes in memory.

    Returns an ndarray for a dense matrix, a scipy.sparse.csr_matrix for a CSR matrix, and for a frame a
    pandas.DataFrame when pandas is installed, else a dict {label: 1-D ndarray}. dtype converts the values
    (exactly, or DbdfError with Status.RANGE); for frames it may be a mapping from labels to dtypes.
    dialect: "spec" (the published format) or "daphne" (files DAPHNE's runtime wrote; their frames have the
    labels col_0, col_1, ..., and a scalar loads as a NumPy scalar), or a Dialect.
    threads: how many threads decode the values of dense matrices and frame columns: None or 0 (the default) for
    one per processor core on objects of 16 MiB or more, 1 for the calling thread only (see Reader)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        reader = Reader.from_bytes(source, dialect, threads=threads)
    else:
        reader = Reader(source, dialect, threads=threads)
    with reader:
        return reader.read(dtype)


def save(path: WriterTarget, obj: SaveObject, encoding: EncodingArg = "auto", block: BlockArg = None,
         dialect: DialectArg = "spec", write_meta: bool = True, *, durable: bool = False,
         threads: int | None = None) -> None:
    """Writes `obj` to `path` as one .dbdf object, atomically (an existing file is replaced only on success); or
    into a binary file object with write(), from its position on, which is left after the object (see Writer).

    obj: an ndarray or anything numpy.asarray() turns into a 1-D or 2-D array of one of the ten numeric dtypes
    (a dense matrix; 1-D becomes one column); a scipy.sparse matrix or array of any format (a CSR matrix); a dict
    of 1-D columns or a pandas.DataFrame with str labels (a frame); any other object with __arrow_c_stream__ (a
    pyarrow Table, a polars DataFrame, a DuckDB relation: a frame of its numeric columns, written batch by batch;
    nulls and columns of other types raise DbdfError naming the column); in the daphne dialect also a NumPy scalar or
    0-D array (a scalar, as load() returns it; the spec has no scalar, so the spec dialect refuses it).
    encoding: "auto" (per block the smallest exact encoding with the narrowest value type), "as-given", "dense",
    "csr" or "coo".
    block: the tile shape, (rows, cols) or an int for square tiles (frames: rows per block); None for automatic
    tiles of a few MiB.
    dialect: "spec" (the published format) or "daphne" (the bytes DAPHNE's runtime writes: one block in the
    object's own value type, no tiles, so `block` must be None; int16 and uint16 have no DAPHNE type and are
    refused with DbdfError), or a Dialect. write_meta: in the daphne dialect also write DaphneDSL's
    "<path>.meta" sidecar (never for a scalar: the runtime writes none).
    durable: sync the file (and the sidecar) and its directory to the disk before returning, so the new file
    survives a system crash; by default the replacement is atomic but not synced (see Writer).
    threads: how many threads write a dense matrix, the calling thread included (all analyse the tiles ahead;
    the calling thread also writes them): None or 0 (the default) for one per core, at most four, for matrices
    of 16 MiB or more, 1 for the calling thread only. The bytes written are the same either way."""
    if dialect_of(dialect) is Dialect.DAPHNE and block is not None:
        raise ValueError("the daphne dialect stores every object as one block; block= does not apply")
    with Writer(path, dialect, write_meta, durable=durable, threads=threads) as writer:
        _write_object(writer, obj, encoding, block)
        writer.finish()


def _write_object(writer: Writer, obj: Any, encoding: EncodingArg, block: BlockArg) -> None:
    import scipy.sparse
    if scipy.sparse.issparse(obj):
        rows, cols = obj.shape
        csr = _canonical_csr(obj)
        writer.begin_matrix(DataType.CSR, csr.dtype, rows, cols)
        writer.write_csr(csr.indptr, csr.indices, csr.data, encoding=encoding, block=block)
    elif is_frame(obj):
        columns = frame_columns(obj)
        rows = columns[0][1].shape[0] if columns else 0
        writer.begin_frame(rows, [(label, array.dtype) for label, array in columns])
        tiles = cast(Any, block)  # None, an int, or a (rows, cols) pair
        block_rows = tiles if tiles is None or np.ndim(tiles) == 0 else tiles[0]
        for column, (_, array) in enumerate(columns):
            writer.write_column(column, array, encoding=encoding, block_rows=block_rows)
    elif has_arrow_stream(obj):
        write_arrow(writer, obj)
    else:
        array = np.asarray(obj)
        if array.ndim == 0 and writer.dialect is Dialect.DAPHNE:
            # DAPHNE's serialized single value; the writer takes its value as a 1 x 1 matrix's.
            writer.begin_matrix(DataType.SCALAR, array.dtype, 1, 1)
            writer.write_dense(array.reshape(1, 1), encoding=encoding)
            return
        if array.ndim == 1:
            array = array.reshape(-1, 1)
        if array.ndim != 2:
            raise ValueError(f"a {array.ndim}-dimensional array cannot be stored; dbdf stores 1-D and 2-D arrays "
                             "(and, in the daphne dialect, scalars)")
        writer.begin_matrix(DataType.DENSE, array.dtype, array.shape[0], array.shape[1])
        writer.write_dense(array, encoding=encoding, block=block)
