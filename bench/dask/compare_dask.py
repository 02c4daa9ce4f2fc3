"""dbdf.dask against zarr and .npy on a distributed.LocalCluster: from_dbdf(path).sum().compute() on 1 and 2
worker processes, side by side with the same float64 matrix as an uncompressed zarr array (dask.array.from_zarr)
and as a .npy file opened with numpy.load(mmap_mode="r") in each task (MappedNpy) and dask.array.from_array, all
with the same chunks (the dbdf file's blocks). Files are written once into --dir and read from the page cache; each
figure is the median of --repeats runs after a warm-up run.

    python3 bench/dask/compare_dask.py [--mib 1024] [--block 2048] [--repeats 3] [--dir /var/tmp] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import dask.array as da
import distributed
import numpy as np
import zarr

import dbdf
import dbdf.dask


def write_files(folder: Path, rows: int, cols: int, block: int) -> dict[str, Path]:
    paths = {"dbdf": folder / "dask_bench.dbdf", "zarr": folder / "dask_bench.zarr", "npy": folder / "dask_bench.npy"}
    if all(path.exists() for path in paths.values()):
        return paths
    matrix = np.random.default_rng(42).random((rows, cols))  # random doubles: stored as they are by every format
    dbdf.save(paths["dbdf"], matrix, block=block)
    np.save(paths["npy"], matrix)
    array = zarr.create_array(store=str(paths["zarr"]), shape=matrix.shape, chunks=(block, block), dtype="f8",
                              compressors=None, filters=None, overwrite=True)
    array[:] = matrix
    return paths


class MappedNpy:
    """A .npy file that each task maps itself (numpy.load(mmap_mode="r")) and slices. Given to from_array directly,
    the mapped array would be pickled into the graph with all of its bytes (1 GiB sent to the scheduler and to a
    worker for every computation), so this is how a .npy is read on a cluster."""

    def __init__(self, path: Path) -> None:
        self.path = path
        mapped = np.load(path, mmap_mode="r")
        self.shape, self.dtype, self.ndim = mapped.shape, mapped.dtype, mapped.ndim

    def __getitem__(self, key: object) -> np.ndarray:
        return np.load(self.path, mmap_mode="r")[key]


def summers(paths: dict[str, Path], block: int) -> dict[str, object]:
    """Each format's lazy sum, built the way a user would build it."""
    return {
        "dbdf": lambda: dbdf.dask.from_dbdf(paths["dbdf"]).sum(),
        "zarr": lambda: da.from_zarr(str(paths["zarr"])).sum(),
        "npy": lambda: da.from_array(MappedNpy(paths["npy"]), chunks=(block, block)).sum(),
    }


def timed(make_sum, repeats: int) -> tuple[float, float]:
    """(median, min) seconds of building and computing the sum, after a warm-up; checks the formats agree."""
    make_sum().compute()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        make_sum().compute()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=int, default=1024, help="matrix size in MiB (default 1024)")
    parser.add_argument("--block", type=int, default=2048, help="square block and chunk side (default 2048: 32 MiB)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", default=os.environ.get("DBDF_BENCH_DIR", "/var/tmp"))
    parser.add_argument("--json")
    arguments = parser.parse_args()
    cols = 8192
    rows = arguments.mib * 2**20 // 8 // cols
    paths = write_files(Path(arguments.dir), rows, cols, arguments.block)
    sums = summers(paths, arguments.block)
    print(f"{rows} x {cols} float64 ({arguments.mib} MiB), blocks and chunks of {arguments.block} x "
          f"{arguments.block}; median (min) of {arguments.repeats} runs")
    results: dict[str, dict[str, list[float]]] = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, memory_limit=0, silence_logs=40) as cluster:
            with distributed.Client(cluster):
                values = {name: float(make_sum().compute()) for name, make_sum in sums.items()}
                assert len(set(values.values())) == 1 or np.allclose(list(values.values()), values["dbdf"]), values
                results[str(workers)] = {name: list(timed(make_sum, arguments.repeats)) for name, make_sum in
                                         sums.items()}
        row = results[str(workers)]
        print(f"{workers} worker(s): " + ", ".join(f"{name} {median:.2f} s ({low:.2f})"
                                                     for name, (median, low) in row.items())
              + f"; dbdf vs zarr {row['zarr'][0] / row['dbdf'][0]:.2f}x, vs npy {row['npy'][0] / row['dbdf'][0]:.2f}x")
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
