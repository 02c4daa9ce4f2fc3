"""dbdf.dask: .dbdf objects as Dask arrays and dataframes, read block by block and written chunk by chunk.

    import dbdf.dask
    x = dbdf.dask.from_dbdf("big.dbdf")           # dask.array.Array, one chunk per block
    s = x[:1000, :1000].sum().compute()           # decodes only the blocks the slice overlaps
    df = dbdf.dask.read_dbdf("frame.dbdf")        # dask.dataframe.DataFrame, one partition per row band
    dbdf.dask.to_dbdf(x * 2, "out.dbdf")          # one block per chunk, written in file order by one writer

Paths may be fsspec URLs ("memory://x.dbdf", "s3://bucket/x.dbdf", ...): the readers then read through the
file objects of fsspec (byte sources), fetching only the header, the block headers and the payloads they decode.
Needs dask (and, for dataframes, dask[dataframe]); pip install "dbdf[dask]".
"""

from __future__ import annotations

try:
    import dask.array  # noqa: F401  # the subpackage is useless without it: fail at import, saying what to install
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("dbdf.dask needs dask; install it with pip install 'dbdf[dask]'") from error

from .array import from_dbdf
from .frame import read_dbdf
from .write import to_dbdf

__all__ = ["from_dbdf", "read_dbdf", "to_dbdf"]
