#!/usr/bin/env python3
"""dbdf against what a user would pick instead, measured in one process so that the ratios hold even when the
machine's speed drifts between runs.

Dense: a float64 matrix (512 MiB by default) written and read with dbdf (spec and daphne dialect), numpy.save /
numpy.load, h5py, plain write()/read() of the same bytes, and a memcpy (numpy.copyto) of them.
Sparse: a 100k x 100k CSR matrix of 1% density written and read with dbdf and scipy.sparse.save_npz / load_npz.

Every file is read once before it is timed, so reads come from the page cache; writes go to the page cache too
(dbdf's file writer replaces its target atomically but, like the others, does not sync unless asked to). Every
timed write creates a new file, and earlier runs' files are deleted untimed (see Outputs).
Prints a table per suite and the ratios the performance targets name; --json writes every figure.
"""

from __future__ import annotations

import argparse
import gc
import mmap
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import Timing, measure_interleaved, print_ratios, report  # noqa: E402

import dbdf  # noqa: E402


class Holder:
    """Keeps the last result alive until the next run, so freeing it is not timed."""

    def __init__(self):
        self.value = None

    def clear(self):
        self.value = None
        gc.collect()


class Outputs:
    """Fresh file names for timed writes. Every run writes a new file, and the files of earlier runs are deleted,
    untimed, before the next one starts and before the kernel has written their data back. So a write costs what
    putting its bytes into the page cache costs, for every library alike; replacing an existing file instead would
    add the cost of freeing the old one, which depends on the file system and on whether it was written back."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.count = 0
        self.written: list[Path] = []

    def fresh(self, suffix: str) -> Path:
        self.count += 1
        path = self.directory / f"output-{self.count}{suffix}"
        self.written.append(path)
        return path

    def clean(self) -> None:
        for path in self.written:
            path.unlink(missing_ok=True)
            Path(str(path) + ".meta").unlink(missing_ok=True)
        self.written.clear()


class Suite:
    """Times operations on `nbytes` of data; each run's result and written files are dropped before the next."""

    def __init__(self, directory: Path, nbytes: int, repeats: int):
        self.held = Holder()
        self.outputs = Outputs(directory)
        self.nbytes = nbytes
        self.repeats = repeats
        self.timings: dict[str, Timing] = {}

    def prepare(self) -> None:
        self.held.clear()
        self.outputs.clean()

    def timed(self, operations: dict, runs: int | None = None) -> None:
        """Times the operations interleaved (see measure_interleaved); each keeps its result until the next run."""
        def keeping(operation):
            def run():
                self.held.value = operation()
            return run
        self.prepare()
        self.timings.update(measure_interleaved({name: keeping(op) for name, op in operations.items()}, self.nbytes,
                                                runs or self.repeats, prepare=self.prepare))
        self.prepare()


def huge_folio_share(path: Path) -> float | None:
    """The share of `path`'s bytes that the page cache holds in 2 MiB folios, as a read-only mapping of the whole
    file sees them (the share the kernel maps with 2 MiB page-table entries, FilePmdMapped in /proc/self/smaps);
    None where that is not reported. A program that maps its input (dbdf convert) pays per 4 KiB page for the rest,
    to populate the mapping, to read through it and to unmap it: this share moves its time by a third and more, and
    it depends on how fragmented memory was when the file entered the page cache, not on the program."""
    smaps = Path("/proc/self/smaps")
    populate = getattr(mmap, "MAP_POPULATE", None)
    if not smaps.exists() or populate is None or path.stat().st_size == 0:
        return None
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, prot=mmap.PROT_READ,
                                              flags=mmap.MAP_SHARED | populate) as mapping:
        size_kib = len(mapping) // 1024
        name = str(path.resolve())
        pmd_mapped = None
        in_mapping = False
        for line in smaps.read_text().splitlines():
            fields = line.split(None, 5)  # a path with spaces stays whole
            if not fields:
                continue
            if "-" in fields[0] and not fields[0].endswith(":"):  # a mapping's first line: range, flags, ..., path
                in_mapping = len(fields) == 6 and fields[5] == name
            elif in_mapping and fields[0] == "FilePmdMapped:":
                pmd_mapped = (pmd_mapped or 0) + int(fields[1])
    return None if pmd_mapped is None else min(1.0, pmd_mapped / max(size_kib, 1))


def write_raw(path: Path, buffers) -> None:
    with open(path, "wb", buffering=0) as file:
        for buffer in buffers:
            view = memoryview(buffer).cast("B")
            while view:
                written = file.write(view)
                view = view[written:]


def read_raw_into(path: Path, out: np.ndarray) -> np.ndarray:
    with open(path, "rb", buffering=0) as file:
        view = memoryview(out).cast("B")
        while view:
            got = file.readinto(view)
            if not got:
                raise EOFError(path)
            view = view[got:]
    return out


def dense_suite(directory: Path, mebibytes: int, repeats: int) -> dict[str, Timing]:
    side = int((mebibytes * 2**20 // 8) ** 0.5)
    matrix = np.random.default_rng(42).random((side, side)) + 1.0  # needs all 64 bits: no narrowing possible
    suite = Suite(directory, matrix.nbytes, repeats)
    timed, outputs = suite.timed, suite.outputs

    def h5_write(path):
        import h5py
        with h5py.File(path, "w") as file:
            file.create_dataset("m", data=matrix)

    def h5_read(path):
        import h5py
        with h5py.File(path, "r") as file:
            return file["m"][...]

    try:
        import h5py  # noqa: F401
        have_h5py = True
    except ImportError:
        have_h5py = False
        print("h5py is not installed; its figures are left out", file=sys.stderr)

    target = np.empty_like(matrix)
    timed({"memcpy into an existing array": lambda: np.copyto(target, matrix),
           "copy into a new array": lambda: matrix.copy()})
    writes = {
        "write() of the bytes": lambda: write_raw(outputs.fresh(".raw"), [matrix]),
        "numpy.save": lambda: np.save(outputs.fresh(".npy"), matrix),
        "dbdf.save (auto)": lambda: dbdf.save(outputs.fresh(".dbdf"), matrix),
        "dbdf.save (dense)": lambda: dbdf.save(outputs.fresh(".dbdf"), matrix, encoding="dense"),
        "dbdf.save (daphne dialect)": lambda: dbdf.save(outputs.fresh(".dbdf"), matrix, dialect="daphne"),
    }
    if have_h5py:
        writes["h5py write"] = lambda: h5_write(outputs.fresh(".h5"))
    timed(writes)

    # The files the reads read, written once; each is read once before it is timed (the warm-up run).
    paths = {name: directory / f"dense.{name}" for name in ["raw", "npy", "h5", "dbdf", "daphne.dbdf"]}
    write_raw(paths["raw"], [matrix])
    np.save(paths["npy"], matrix)
    dbdf.save(paths["dbdf"], matrix)
    dbdf.save(paths["daphne.dbdf"], matrix, dialect="daphne")
    if have_h5py:
        h5_write(paths["h5"])
    reads = {
        "read() into a new array": lambda: read_raw_into(paths["raw"], np.empty_like(matrix)),
        "numpy.load": lambda: np.load(paths["npy"]),
        "dbdf.load": lambda: dbdf.load(paths["dbdf"]),
        "dbdf.load (daphne dialect)": lambda: dbdf.load(paths["daphne.dbdf"], dialect="daphne"),
    }
    if have_h5py:
        reads["h5py read"] = lambda: h5_read(paths["h5"])
    timed(reads)
    assert np.array_equal(dbdf.load(paths["dbdf"]), matrix)
    assert np.array_equal(dbdf.load(paths["daphne.dbdf"], dialect="daphne"), matrix)
    for path in paths.values():
        path.unlink(missing_ok=True)
        Path(str(path) + ".meta").unlink(missing_ok=True)
    return suite.timings


def sparse_matrix(side: int, density: float):
    """side x side CSR with side * density entries in every row: one column in each stride, at a random place."""
    import scipy.sparse
    per_row = max(1, int(side * density))
    stride = side // per_row
    rng = np.random.default_rng(7)
    columns = (np.arange(per_row, dtype=np.int32) * stride)[None, :] + rng.integers(
        0, stride, size=(side, per_row), dtype=np.int32)
    values = rng.random(side * per_row) + 1.0
    offsets = np.arange(0, side * per_row + 1, per_row, dtype=np.int64)
    return scipy.sparse.csr_matrix((values, columns.reshape(-1), offsets), shape=(side, side))


def sparse_suite(directory: Path, side: int, density: float, repeats: int) -> dict[str, Timing]:
    import scipy.sparse
    matrix = sparse_matrix(side, density)
    suite = Suite(directory, matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes, repeats)
    timed, outputs = suite.timed, suite.outputs
    arrays = [matrix.indptr, matrix.indices, matrix.data]

    timed({"write() of the three arrays": lambda: write_raw(outputs.fresh(".raw"), arrays),
           "save_npz (uncompressed)": lambda: scipy.sparse.save_npz(outputs.fresh(".npz"), matrix, compressed=False),
           "dbdf.save (auto)": lambda: dbdf.save(outputs.fresh(".dbdf"), matrix)})
    # Compression takes tens of seconds at this size: one timed run.
    timed({"save_npz (compressed, default)": lambda: scipy.sparse.save_npz(outputs.fresh(".npz"), matrix)}, runs=1)

    paths = {name: directory / f"sparse.{name}" for name in ["npz", "zip.npz", "dbdf"]}
    scipy.sparse.save_npz(paths["npz"], matrix, compressed=False)
    scipy.sparse.save_npz(paths["zip.npz"], matrix)
    dbdf.save(paths["dbdf"], matrix)
    timed({"load_npz (uncompressed)": lambda: scipy.sparse.load_npz(paths["npz"]),
           "dbdf.load": lambda: dbdf.load(paths["dbdf"])})
    timed({"load_npz (compressed, default)": lambda: scipy.sparse.load_npz(paths["zip.npz"])}, runs=1)
    assert (dbdf.load(paths["dbdf"]) != matrix).nnz == 0
    for path in paths.values():
        path.unlink(missing_ok=True)
    return suite.timings


def ratio(timings: dict[str, Timing], other: str, ours: str) -> float:
    """How many times faster `ours` is than `other` (above 1: dbdf is faster): the median of the ratios of the runs
    of each round when the two were timed interleaved, else the ratio of the medians."""
    mine, theirs = timings[ours].seconds, timings[other].seconds
    if len(mine) == len(theirs):
        return statistics.median(their / my for their, my in zip(theirs, mine))
    return timings[other].median / timings[ours].median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dense-mib", type=int, default=512, help="size of the dense matrix (default 512)")
    parser.add_argument("--sparse-side", type=int, default=100_000, help="rows and columns (default 100000)")
    parser.add_argument("--density", type=float, default=0.01, help="sparse density (default 0.01)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs after one warm-up (default 5)")
    parser.add_argument("--dir", type=Path, default=None, help="where the files go (default: a temporary "
                        "folder under /var/tmp, on disk rather than in memory)")
    parser.add_argument("--skip-sparse", action="store_true", help="only the dense suite")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="dbdf-compare-", dir=args.dir or "/var/tmp") as folder:
        directory = Path(folder)
        print(f"dbdf {dbdf.library_version()} ({dbdf.library_path}), numpy {np.__version__}, "
              f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, files in {directory}")
        dense = dense_suite(directory, args.dense_mib, args.repeats)
        print(f"\nDense float64, {args.dense_mib} MiB\n" + report(list(dense.values())))
        results = {"dense": {k: v.as_dict() for k, v in dense.items()}}
        checks = [
            ("dense write: dbdf.save (auto) vs numpy.save", ratio(dense, "numpy.save", "dbdf.save (auto)"), 1.0),
            ("dense write: dbdf.save (dense) vs numpy.save", ratio(dense, "numpy.save", "dbdf.save (dense)"), 1.0),
            ("dense read: dbdf.load vs numpy.load", ratio(dense, "numpy.load", "dbdf.load"), 1.2),
            ("dense read: dbdf.load vs read() into a new array", ratio(dense, "read() into a new array",
                                                                        "dbdf.load"), None),
            ("dense read: dbdf.load vs copy into a new array", ratio(dense, "copy into a new array", "dbdf.load"),
             None),
            ("dense write: daphne dialect vs spec (auto)", ratio(dense, "dbdf.save (auto)",
                                                                 "dbdf.save (daphne dialect)"), None),
            ("dense read: daphne dialect vs spec", ratio(dense, "dbdf.load", "dbdf.load (daphne dialect)"), None),
        ]
        if "h5py write" in dense:
            checks += [("dense write: dbdf.save (auto) vs h5py", ratio(dense, "h5py write", "dbdf.save (auto)"),
                        None),
                       ("dense read: dbdf.load vs h5py", ratio(dense, "h5py read", "dbdf.load"), None)]
        if not args.skip_sparse:
            sparse = sparse_suite(directory, args.sparse_side, args.density, args.repeats)
            print(f"\nSparse CSR float64, {args.sparse_side} x {args.sparse_side}, density {args.density}\n" +
                  report(list(sparse.values())))
            results["sparse"] = {k: v.as_dict() for k, v in sparse.items()}
            checks += [
                ("sparse write: dbdf.save vs save_npz (uncompressed)",
                 ratio(sparse, "save_npz (uncompressed)", "dbdf.save (auto)"), None),
                ("sparse write: dbdf.save vs save_npz (compressed)",
                 ratio(sparse, "save_npz (compressed, default)", "dbdf.save (auto)"), None),
                ("sparse read: dbdf.load vs load_npz (uncompressed)",
                 ratio(sparse, "load_npz (uncompressed)", "dbdf.load"), None),
                ("sparse read: dbdf.load vs load_npz (compressed)",
                 ratio(sparse, "load_npz (compressed, default)", "dbdf.load"), None),
            ]
    print_ratios(checks, results, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
