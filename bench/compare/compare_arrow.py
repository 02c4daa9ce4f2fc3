"""The Arrow export against memcpy: opening the stream of a large and a small frame, pulling the batches of a frame
whose blocks are lent (u8 columns of a bytes reader: no copy), and pulling batches that are decoded (f64 columns of
a file reader; f64 columns of a bytes reader, lent only where a block happens to be 8-byte aligned), each against a
memcpy (numpy.copyto) of the bytes the batches hold. The readers decode on `--threads` threads (default: automatic,
one per core for batches of 16 MiB or more)."""

from __future__ import annotations

import argparse
import gc
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa

import dbdf
from timing import measure_interleaved, print_ratios, report

COLUMNS = 8


def write_frame(path: Path, dtype: np.dtype, nbytes: int) -> None:
    rows = nbytes // (COLUMNS * dtype.itemsize)
    generator = np.random.default_rng(7)
    if dtype.kind == "f":
        columns = {f"x{i}": generator.standard_normal(rows).astype(dtype) for i in range(COLUMNS)}
    else:
        columns = {f"x{i}": generator.integers(0, 255, rows, dtype=dtype) for i in range(COLUMNS)}
    dbdf.save(path, columns, encoding="as-given")


def pull_all(reader: dbdf.Reader) -> int:
    rows = 0
    for batch in pa.RecordBatchReader.from_stream(reader):
        rows += batch.num_rows
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, default=1024, help="size of the large frames (default 1024)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--threads", type=int, default=None,
                        help="decode threads of the readers (default: automatic; 1: the pulling thread only)")
    arguments = parser.parse_args()
    nbytes = arguments.mib << 20
    with tempfile.TemporaryDirectory(dir=arguments.dir) as directory:
        folder = Path(directory)
        write_frame(folder / "small.dbdf", np.dtype(np.float64), 1 << 20)
        write_frame(folder / "large.dbdf", np.dtype(np.float64), nbytes)
        write_frame(folder / "large_u8.dbdf", np.dtype(np.uint8), nbytes)
        threads = arguments.threads
        small = dbdf.Reader.from_bytes((folder / "small.dbdf").read_bytes(), threads=threads)
        large = dbdf.Reader.from_bytes((folder / "large.dbdf").read_bytes(), threads=threads)
        large_u8 = dbdf.Reader.from_bytes((folder / "large_u8.dbdf").read_bytes(), threads=threads)
        large_file = dbdf.Reader(folder / "large.dbdf", threads=threads)
        source = np.random.default_rng(1).integers(0, 255, nbytes, dtype=np.uint8)
        target = np.empty_like(source)
        opened = measure_interleaved({
            "open stream, 1 MiB frame": lambda: pa.RecordBatchReader.from_stream(small),
            f"open stream, {arguments.mib} MiB frame": lambda: pa.RecordBatchReader.from_stream(large),
        }, 1 << 20, arguments.repeats)
        pulled = measure_interleaved({
            "memcpy": lambda: np.copyto(target, source),
            "memcpy into new memory": lambda: source.copy(),
            "pull u8 frame from bytes (lent)": lambda: pull_all(large_u8),
            "pull f64 frame from bytes": lambda: pull_all(large),
            "pull f64 frame from a file": lambda: pull_all(large_file),
        }, nbytes, arguments.repeats, prepare=gc.collect)
        print(report(list(opened.values())))
        print()
        print(report(list(pulled.values())))
        memcpy = pulled["memcpy"].median
        small_open = opened["open stream, 1 MiB frame"].median
        large_open = opened[f"open stream, {arguments.mib} MiB frame"].median
        print_ratios([
            ("open 1 MiB / open large (1: the same cost)", small_open / large_open, None),
            ("u8 lent pull vs memcpy (times faster)", memcpy / pulled["pull u8 frame from bytes (lent)"].median, None),
            ("f64 pull from bytes vs memcpy", memcpy / pulled["pull f64 frame from bytes"].median, 0.5),
            ("f64 pull from a file vs memcpy", memcpy / pulled["pull f64 frame from a file"].median, 0.5),
            ("f64 pull from bytes vs memcpy into new memory",
             pulled["memcpy into new memory"].median / pulled["pull f64 frame from bytes"].median, None),
        ], {"open": [t.as_dict() for t in opened.values()], "pull": [t.as_dict() for t in pulled.values()]},
            arguments.json)
        for reader in (small, large, large_u8, large_file):
            reader.close()


if __name__ == "__main__":
    main()
