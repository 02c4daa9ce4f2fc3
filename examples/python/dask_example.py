"""The Dask step of the demo: a matrix generated lazily, written chunk by chunk with dbdf.dask.to_dbdf, read back
with from_dbdf (one chunk per block), a slice and a sum computed from only the blocks they need, and a frame read as
a Dask dataframe.

    python3 dask_example.py FOLDER
"""

import sys
from pathlib import Path

import dask.array as da
import numpy as np

import dbdf
import dbdf.dask


def main() -> None:
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "dask_example.dbdf"

    # 2000 x 3000 float64 in 6 chunks: row index + column index, small integers that every block stores as u16.
    rows = da.arange(2000, chunks=1000, dtype=np.float64)[:, None]
    cols = da.arange(3000, chunks=1000, dtype=np.float64)[None, :]
    matrix = rows + cols
    dbdf.dask.to_dbdf(matrix, path)
    with dbdf.Reader(path) as reader:
        stored = sorted({reader.index_entry(index).value_type.name for index in range(len(reader))})
        print(f"wrote {path.name}: {reader.info.shape} {reader.info.value_type.name}, {len(reader)} blocks stored as "
              f"{', '.join(stored)}, {reader.info.total_bytes} bytes")

    array = dbdf.dask.from_dbdf(path)
    print("from_dbdf chunks:", array.chunks)
    corner = array[:3, :4].compute()
    total = float(array.sum().compute())
    expected = 2000 * 3000 * (1999 + 2999) / 2
    assert np.array_equal(corner, np.arange(3.0)[:, None] + np.arange(4.0)), corner
    assert total == expected, (total, expected)
    print("corner:\n", corner)
    print("sum:", total)

    frame_path = folder / "dask_example_frame.dbdf"
    dbdf.save(frame_path, {"id": np.arange(6, dtype=np.int32), "score": np.linspace(0, 1, 6)}, block=2)
    frame = dbdf.dask.read_dbdf(frame_path)
    print("read_dbdf:", frame.npartitions, "partitions, divisions", frame.divisions)
    print(frame.compute().to_string())


if __name__ == "__main__":
    main()
