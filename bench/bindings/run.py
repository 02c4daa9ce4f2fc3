#!/usr/bin/env python3
"""Binding overhead: the same 64 MiB float64 block decoded into a preallocated native array from C, Java, C#, Rust
and Python, each program timing its own decode calls (after a warm-up) and printing one JSON line. Reports each
language's median against C's. The programs are built by CMake with -DDBDF_BUILD_BENCH=ON (bench/CMakeLists.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import dbdf

TARGET_RATIO = 1.3  # each binding within 1.3x of C


def write_block_file(path: Path, mebibytes: int) -> None:
    """One dense float64 block of `mebibytes` MiB (1024 columns), values that need all 64 bits."""
    cols = 1024
    rows = mebibytes * 2**20 // (8 * cols)
    values = np.random.default_rng(11).random((rows, cols)) + 1.0
    with dbdf.Writer(path) as writer:
        writer.begin_matrix(dbdf.DataType.DENSE, np.float64, rows, cols)
        writer.add_dense(0, 0, values, encoding="dense")
        writer.finish()


def commands(build: Path, source: Path) -> dict[str, list[str]]:
    """The command of each language whose program was built, without the FILE and REPEATS arguments."""
    library = build / "capi" / "libdbdf.so"
    found = {"c": [str(build / "bench" / "dbdf_bench_block_read_c")]}
    jar = next((build / "bindings" / "java" / "maven").glob("dbdf-*.jar"), None)
    classes = build / "bench" / "block-read" / "java"
    if jar is not None and (classes / "BlockRead.class").exists():
        found["java"] = ["java", "-cp", f"{jar}{os.pathsep}{classes}", "BlockRead"]
    csharp = build / "bindings" / "csharp" / "bin" / "BlockRead.exe"
    if csharp.exists():
        found["csharp"] = ["mono", str(csharp)]
    rust = build / "bindings" / "rust" / "cargo-target" / "release" / "block_read"
    if rust.exists():
        found["rust"] = [str(rust)]
    found["python"] = [sys.executable, str(source / "bench" / "bindings" / "block_read.py")]
    for name, command in found.items():
        if name in ("c", "rust"):
            found[name] = ["env", f"LD_LIBRARY_PATH={library.parent}"] + command
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = Path(__file__).resolve().parents[2]
    parser.add_argument("--build", type=Path, default=source / "build", help="the CMake build tree (default build/)")
    parser.add_argument("--mib", type=int, default=64, help="size of the block (default 64)")
    parser.add_argument("--repeats", type=int, default=31, help="timed decodes per program (default 31)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times each program is run, alternating languages; the best median counts (default 3)")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()

    programs = commands(args.build.resolve(), source)
    results: dict[str, list[dict]] = {name: [] for name in programs}
    with tempfile.TemporaryDirectory(prefix="dbdf-block-read-", dir="/var/tmp") as folder:
        path = Path(folder) / "block.dbdf"
        write_block_file(path, args.mib)
        for _ in range(args.rounds):
            for name, command in programs.items():
                environment = dict(os.environ, PYTHONPATH=str(source / "bindings" / "python" / "src"))
                output = subprocess.run(command + [str(path), str(args.repeats)], check=True, capture_output=True,
                                        text=True, env=environment).stdout
                results[name].append(json.loads(output.strip().splitlines()[-1]))
    best = {name: min(runs, key=lambda run: run["median_seconds"]) for name, runs in results.items()}
    checks = {run["check"] for run in best.values()}
    if len(checks) != 1:
        print(f"the programs decoded different values: {checks}", file=sys.stderr)
        return 1
    c_seconds = best["c"]["median_seconds"]
    print(f"{args.mib} MiB float64 block decoded into a preallocated array; median of {args.repeats} decodes, best "
          f"of {args.rounds} runs per language")
    print(f"{'language':<8}  {'median ms':>9}  {'min ms':>8}  {'GiB/s':>6}  {'vs C':>5}")
    all_met = True
    for name, run in best.items():
        ratio = run["median_seconds"] / c_seconds
        met = ratio <= TARGET_RATIO
        all_met &= met
        print(f"{name:<8}  {run['median_seconds'] * 1e3:9.2f}  {run['min_seconds'] * 1e3:8.2f}  "
              f"{run['bytes'] / run['median_seconds'] / 2**30:6.2f}  {ratio:5.2f}"
              + ("" if name == "c" else f"   target <= {TARGET_RATIO}: {'met' if met else 'MISSED'}"))
    missing = sorted({"java", "csharp", "rust"} - programs.keys())
    if missing:
        print(f"not built here: {', '.join(missing)}")
    if args.json:
        args.json.write_text(json.dumps({"block_mib": args.mib, "results": best}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
