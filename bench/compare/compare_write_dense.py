#!/usr/bin/env python3
"""The C ABI's dbdf_writer_write_dense (automatic encoding, 1 and 2 threads) and `dbdf convert` against numpy.save,
on the three data sets of compare_encoding.py, with what each costs apart from the wall clock.

The C functions are called straight through ctypes (open_file_with_options, begin_matrix, write_dense, finish):
no Python-level conversion runs between the caller's array and the library. Every operation writes a new file in
the page cache (compare_io.Outputs) and runs once per round, in turn with the others (interleaved, after a
warm-up); the wall-clock figures are medians over the rounds, each as a ratio to numpy.save's time in the same round
(above 1: faster than numpy.save), which is what a loaded machine still resolves. Beside them: the CPU time
(user + system) of the operation, from getrusage (children for `dbdf convert`, which runs as a process of its own).

--syscalls also runs each writer once more under `strace -f -c` and prints what it asked of the kernel: calls and
time per system call (write, writev, fallocate, ftruncate, fsync, rename ...), which does not depend on the load.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_encoding import ROWS, data_set, find_cli  # noqa: E402
from compare_io import Outputs, huge_folio_share  # noqa: E402

import dbdf  # noqa: E402  (for the path of the library it loaded)


class WriteOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("encoding", ctypes.c_int), ("block_rows", ctypes.c_uint32),
                ("block_cols", ctypes.c_uint32)]


class WriterOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("dialect", ctypes.c_int), ("write_meta", ctypes.c_int),
                ("durable", ctypes.c_int), ("threads", ctypes.c_uint)]


DBDF_DATA_DENSE = 1
DBDF_VALUE_F64 = 10


class CWriter:
    """dbdf_writer_write_dense of a C-contiguous float64 matrix into a file, automatic encoding."""

    def __init__(self, library_path: str):
        self.lib = ctypes.CDLL(library_path)
        self.lib.dbdf_last_error_message.restype = ctypes.c_char_p
        self.lib.dbdf_writer_open_file_with_options.argtypes = [ctypes.c_char_p, ctypes.POINTER(WriterOptions),
                                                                ctypes.POINTER(ctypes.c_void_p)]
        self.lib.dbdf_writer_begin_matrix.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_uint64,
                                                      ctypes.c_uint64]
        self.lib.dbdf_writer_write_dense.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                                                     ctypes.c_uint64, ctypes.POINTER(WriteOptions)]
        self.lib.dbdf_writer_finish.argtypes = [ctypes.c_void_p]
        self.lib.dbdf_writer_free.argtypes = [ctypes.c_void_p]

    def check(self, status: int, what: str) -> None:
        if status != 0:
            raise RuntimeError(f"{what}: status {status}: {self.lib.dbdf_last_error_message().decode()}")

    def save(self, path: Path, matrix: np.ndarray, threads: int) -> None:
        assert matrix.dtype == np.float64 and matrix.flags.c_contiguous
        writer = ctypes.c_void_p()
        options = WriterOptions(ctypes.sizeof(WriterOptions), 0, 1, 0, threads)
        self.check(self.lib.dbdf_writer_open_file_with_options(str(path).encode(), ctypes.byref(options),
                                                               ctypes.byref(writer)), "open")
        try:
            rows, cols = matrix.shape
            self.check(self.lib.dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, rows, cols),
                       "begin_matrix")
            write_options = WriteOptions(ctypes.sizeof(WriteOptions), 0, 0, 0)
            self.check(self.lib.dbdf_writer_write_dense(writer, DBDF_VALUE_F64, matrix.ctypes.data, matrix.size, cols,
                                                        ctypes.byref(write_options)), "write_dense")
            self.check(self.lib.dbdf_writer_finish(writer), "finish")
        finally:
            self.lib.dbdf_writer_free(writer)


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def interleaved(operations: dict, outputs: Outputs, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of each operation per round, after one warm-up round."""
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in operations}
    for run in range(rounds + 1):
        for name, (operation, who) in operations.items():
            outputs.clean()
            cpu_before, start = cpu_seconds(who), time.perf_counter()
            operation()
            wall, cpu = time.perf_counter() - start, cpu_seconds(who) - cpu_before
            if run > 0:
                figures[name].append((wall, cpu))
    outputs.clean()
    return figures


def strace_summary(command: list[str]) -> str:
    """What `strace -f -c` reports for the system calls that move or commit the file's bytes."""
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as summary:
        subprocess.run(["strace", "-f", "-c", "-o", summary.name, *command], check=True, stdout=subprocess.DEVNULL)
        lines = summary.read().splitlines()
    wanted = ("write", "writev", "pwrite64", "pread64", "read", "fallocate", "ftruncate", "fsync", "fdatasync",
              "rename", "renameat", "renameat2", "linkat", "mmap", "munmap", "madvise")
    kept = [line for line in lines if line.split() and line.split()[-1] in wanted]
    return "\n".join(lines[:2] + kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=int, default=512, help="size of each float64 matrix (default 512)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds after one warm-up (default 5)")
    parser.add_argument("--dir", type=Path, default=None, help="where the files go (default: under /var/tmp)")
    parser.add_argument("--only", action="append", help="a data set to run (repeatable): random, integers, sparse")
    parser.add_argument("--cli-before", type=Path, default=None,
                        help="another dbdf tool whose `dbdf convert` runs in the same rounds (a build to compare with)")
    parser.add_argument("--syscalls", action="store_true", help="also print each writer's system calls (strace)")
    args = parser.parse_args()
    cols = args.mib * 2**20 // 8 // ROWS
    writer = CWriter(str(dbdf.library_path))
    cli = find_cli()
    kinds = {"random": "random doubles", "integers": "integers 0..99", "sparse": "1% non-zeros"}
    directory = Path(tempfile.mkdtemp(prefix="dbdf-write-dense-", dir=args.dir or "/var/tmp"))
    print(f"{ROWS} x {cols} float64 ({args.mib} MiB), {args.rounds} rounds; library {dbdf.library_path}; "
          f"load average {os.getloadavg()[0]:.1f}")
    try:
        for kind in [kinds[name] for name in (args.only or list(kinds))]:
            matrix = data_set(kind, cols)
            outputs = Outputs(directory)
            source = directory / "input.npy"
            np.save(source, matrix)
            self_, children = resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN
            operations = {
                "numpy.save": (lambda: np.save(outputs.fresh(".npy"), matrix), self_),
                "write_dense, 1 thread": (lambda: writer.save(outputs.fresh(".dbdf"), matrix, 1), self_),
                "write_dense, 2 threads": (lambda: writer.save(outputs.fresh(".dbdf"), matrix, 2), self_),
            }
            if cli is not None:
                operations["dbdf convert"] = (lambda: subprocess.run(
                    [str(cli), "convert", str(source), str(outputs.fresh(".dbdf"))], check=True), children)
            if args.cli_before is not None:
                operations["dbdf convert (before)"] = (lambda: subprocess.run(
                    [str(args.cli_before), "convert", str(source), str(outputs.fresh(".dbdf"))], check=True), children)
            share = huge_folio_share(source)
            figures = interleaved(operations, outputs, args.rounds)
            numpy_walls = [wall for wall, _ in figures["numpy.save"]]
            print(f"\n{kind}" + ("" if share is None else
                                 f" (the input of dbdf convert: {share:.0%} in 2 MiB page-cache folios)"))
            print(f"{'operation':<24} {'median s':>9} {'CPU s':>7} {'vs numpy.save':>14}")
            for name, runs in figures.items():
                ratio = statistics.median(numpy / wall for numpy, (wall, _) in zip(numpy_walls, runs))
                print(f"{name:<24} {statistics.median(w for w, _ in runs):9.3f} "
                      f"{statistics.median(c for _, c in runs):7.3f} {ratio:14.2f}")
            if args.syscalls:
                matrix_path = directory / "matrix.npy"
                np.save(matrix_path, matrix)
                python = [sys.executable, str(Path(__file__).resolve()), "--one-write"]
                for name, command in [("numpy.save", python + ["numpy", str(matrix_path)]),
                                      ("write_dense", python + ["write_dense", str(matrix_path)])] + (
                        [("dbdf convert", [str(cli), "convert", str(source), str(directory / "converted.dbdf")])]
                        if cli is not None else []):
                    print(f"\n{kind}: {name} under strace -f -c")
                    print(strace_summary(command))
            outputs.clean()
            for path in directory.iterdir():
                path.unlink()
    finally:
        for path in directory.iterdir():
            path.unlink()
        directory.rmdir()
    return 0


def one_write(which: str, matrix_path: str) -> int:
    """One write of the matrix in `matrix_path` (for --syscalls): the loading is traced too, and reads it."""
    matrix = np.load(matrix_path)
    target = Path(matrix_path).with_name("traced" + (".npy" if which == "numpy" else ".dbdf"))
    if which == "numpy":
        np.save(target, matrix)
    else:
        CWriter(str(dbdf.library_path)).save(target, matrix, 0)
    target.unlink()
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one-write":
        sys.exit(one_write(sys.argv[2], sys.argv[3]))
    sys.exit(main())
