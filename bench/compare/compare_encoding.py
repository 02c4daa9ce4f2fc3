#!/usr/bin/env python3
"""Automatic encoding against what a user would pick instead, on the three kinds of content it tells apart: a
float64 matrix (4096 x 16384 = 512 MiB by default) of random doubles (no narrower type: dense f64), of integers
0..99 (dense u8, an eighth of the bytes) and with 1% non-zeros (CSR); and, run when asked by --only (the issue's
targets name the first three), integers 0..30000 (dense u16, a quarter) and halves 0.5..99.5 (dense f32, half).

For each data set, in one process and interleaved round by round (bench/compare/timing.py):
- writes: dbdf.save (automatic encoding; one call of the C ABI's dbdf_writer_write_dense), numpy.save, Arrow IPC
  (the matrix as one tensor message, pyarrow) and HDF5 (h5py);
- reads of those files into a new array: dbdf.load, numpy.load, Arrow IPC (read_tensor from a plain file, not a
  mapping, so the values are read) and h5py;
- in the rounds of the writes: `dbdf convert` of a .npy file of the matrix to .dbdf, a process of its own, and `cp`
  of the same .npy file (both read the input from the page cache and write a new file).
Files live in the page cache; every timed write creates a new file (compare_io.Outputs). Prints a table per data
set, the file sizes, how much of the .npy input the page cache holds in 2 MiB folios (compare_io.huge_folio_share:
a conversion's time moves with it), and the ratios the targets name (above 1: dbdf is faster); --json writes every
figure.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_io import Suite, huge_folio_share, ratio  # noqa: E402
from timing import print_ratios, report  # noqa: E402

import dbdf  # noqa: E402

ROWS = 4096


def data_set(kind: str, cols: int) -> np.ndarray:
    rng = np.random.default_rng(42)
    if kind == "random doubles":
        return rng.random((ROWS, cols)) + 1.0  # needs all 64 bits
    if kind == "integers 0..99":
        return rng.integers(0, 100, size=(ROWS, cols)).astype(np.float64)
    if kind == "integers 0..30000":
        return rng.integers(0, 30001, size=(ROWS, cols)).astype(np.float64)
    if kind == "halves 0.5..99.5":
        return rng.integers(0, 100, size=(ROWS, cols)).astype(np.float64) + 0.5
    matrix = np.zeros((ROWS, cols))
    cells = matrix.reshape(-1)
    chosen = rng.choice(cells.size, size=cells.size // 100, replace=False)
    cells[chosen] = rng.random(chosen.size) + 1.0
    return matrix


def find_cli() -> Path | None:
    built = Path(__file__).resolve().parents[2] / "build" / "cli" / "dbdf"
    if os.environ.get("DBDF_CLI"):
        return Path(os.environ["DBDF_CLI"])
    return built if built.exists() else shutil.which("dbdf") and Path(shutil.which("dbdf"))


def arrow_write(path: Path, matrix: np.ndarray) -> None:
    import pyarrow as pa
    with pa.OSFile(str(path), "wb") as sink:
        pa.ipc.write_tensor(pa.Tensor.from_numpy(matrix), sink)


def arrow_read(path: Path) -> np.ndarray:
    import pyarrow as pa
    with pa.OSFile(str(path), "rb") as source:
        return pa.ipc.read_tensor(source).to_numpy()


def h5_write(path: Path, matrix: np.ndarray) -> None:
    import h5py
    with h5py.File(path, "w") as file:
        file.create_dataset("m", data=matrix)


def h5_read(path: Path) -> np.ndarray:
    import h5py
    with h5py.File(path, "r") as file:
        return file["m"][...]


def run_process(command: list[str]) -> None:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def one_data_set(kind: str, directory: Path, cols: int, repeats: int, cli: Path | None, have: dict) -> dict:
    matrix = data_set(kind, cols)
    suite = Suite(directory, matrix.nbytes, repeats)
    outputs = suite.outputs
    paths = {name: directory / f"input.{name}" for name in ["npy", "dbdf", "arrow", "h5"]}
    np.save(paths["npy"], matrix)  # the input of `cp` and `dbdf convert`, which are timed with the other writes
    writes = {
        "numpy.save": lambda: np.save(outputs.fresh(".npy"), matrix),
        "dbdf.save (auto)": lambda: dbdf.save(outputs.fresh(".dbdf"), matrix),
    }
    if have["pyarrow"]:
        writes["Arrow IPC write"] = lambda: arrow_write(outputs.fresh(".arrow"), matrix)
    if have["h5py"]:
        writes["h5py write"] = lambda: h5_write(outputs.fresh(".h5"), matrix)
    if cli is not None:
        # In the same rounds as numpy.save, so that their ratio compares runs that met the same state of the machine.
        writes["cp of the .npy"] = lambda: run_process(["cp", str(paths["npy"]), str(outputs.fresh(".npy"))])
        writes["dbdf convert npy -> dbdf"] = lambda: run_process([str(cli), "convert", str(paths["npy"]),
                                                                  str(outputs.fresh(".dbdf"))])
    input_huge_share = [huge_folio_share(paths["npy"])]
    suite.timed(writes)
    input_huge_share.append(huge_folio_share(paths["npy"]))  # reclaim can split folios meanwhile

    dbdf.save(paths["dbdf"], matrix)
    reads = {"numpy.load": lambda: np.load(paths["npy"]), "dbdf.load": lambda: dbdf.load(paths["dbdf"])}
    if have["pyarrow"]:
        arrow_write(paths["arrow"], matrix)
        reads["Arrow IPC read"] = lambda: arrow_read(paths["arrow"])
    if have["h5py"]:
        h5_write(paths["h5"], matrix)
        reads["h5py read"] = lambda: h5_read(paths["h5"])
    suite.timed(reads)
    assert np.array_equal(dbdf.load(paths["dbdf"]), matrix)

    sizes = {name: path.stat().st_size for name, path in paths.items() if path.exists()}
    for path in paths.values():
        path.unlink(missing_ok=True)
    return {"timings": suite.timings, "sizes": sizes, "input_huge_share": input_huge_share}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=int, default=512, help="size of each float64 matrix (default 512: 4096 x "
                        "16384)")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds after one warm-up (default 3)")
    parser.add_argument("--dir", type=Path, default=None, help="where the files go (default: a temporary folder "
                        "under /var/tmp)")
    parser.add_argument("--only", action="append", help="a data set to run (repeatable): random, integers, sparse "
                        "(these three by default), wide, halves")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()
    cols = args.mib * 2**20 // 8 // ROWS
    have = {}
    for module in ["pyarrow", "h5py"]:
        try:
            __import__(module)
            have[module] = True
        except ImportError:
            have[module] = False
            print(f"{module} is not installed; its figures are left out", file=sys.stderr)
    cli = find_cli()
    if cli is None:
        print("the dbdf command-line tool was not found (build/cli/dbdf or DBDF_CLI); `dbdf convert` is left out",
              file=sys.stderr)
    kinds = {"random": "random doubles", "integers": "integers 0..99", "sparse": "1% non-zeros",
             "wide": "integers 0..30000", "halves": "halves 0.5..99.5"}
    targeted = {"random doubles": 1.0, "integers 0..99": 1.5, "1% non-zeros": 1.0}
    unknown = sorted(set(args.only or []) - set(kinds))
    if unknown:
        parser.error(f"unknown data set {', '.join(unknown)} (one of {', '.join(kinds)})")
    chosen = [kinds[name] for name in (args.only or ["random", "integers", "sparse"])]

    results, checks = {}, []
    with tempfile.TemporaryDirectory(prefix="dbdf-encoding-", dir=args.dir or "/var/tmp") as folder:
        directory = Path(folder)
        print(f"dbdf {dbdf.library_version()} ({dbdf.library_path}), numpy {np.__version__}, "
              f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, files in {directory}")
        for kind in chosen:
            measured = one_data_set(kind, directory, cols, args.repeats, cli, have)
            timings, sizes = measured["timings"], measured["sizes"]
            print(f"\n{kind}, {ROWS} x {cols} float64 ({args.mib} MiB)\n" + report(list(timings.values())))
            print("file sizes: " + ", ".join(f"{name} {size / 2**20:.1f} MiB" for name, size in sizes.items()))
            before, after = measured["input_huge_share"]
            if before is not None and after is not None and cli is not None:
                print(f"the .npy input of cp and dbdf convert in 2 MiB page-cache folios: {before:.0%} before the "
                      f"writes, {after:.0%} after them")
            write_target = targeted.get(kind)  # None: reported without a target
            checks.append((f"{kind}: dbdf.save vs numpy.save", ratio(timings, "numpy.save", "dbdf.save (auto)"),
                           write_target))
            checks.append((f"{kind}: dbdf.load vs numpy.load", ratio(timings, "numpy.load", "dbdf.load"), None))
            for other in ["Arrow IPC", "h5py"]:
                if f"{other} write" in timings:
                    checks.append((f"{kind}: dbdf.save vs {other} write",
                                   ratio(timings, f"{other} write", "dbdf.save (auto)"), None))
                    checks.append((f"{kind}: dbdf.load vs {other} read",
                                   ratio(timings, f"{other} read", "dbdf.load"), None))
            if "dbdf convert npy -> dbdf" in timings:
                # The yardstick is numpy.save; cp (a process that also reads the .npy) is shown beside it.
                checks.append((f"{kind}: dbdf convert vs numpy.save",
                               ratio(timings, "numpy.save", "dbdf convert npy -> dbdf"), write_target))
                checks.append((f"{kind}: dbdf convert vs cp of the .npy",
                               ratio(timings, "cp of the .npy", "dbdf convert npy -> dbdf"), None))
            results[kind] = {"timings": {k: v.as_dict() for k, v in timings.items()}, "sizes": sizes,
                             "npy_input_huge_folio_share": measured["input_huge_share"]}

    print_ratios(checks, results, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
