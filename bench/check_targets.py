#!/usr/bin/env python3
"""Reads the JSON output of the core benchmark suites (--benchmark_format=json) and prints each performance target
of the core with its measured value: decode and conversion bandwidth as a fraction of memcpy's in the same run,
the cost of opening and indexing a 1 GiB file, the sizes automatic encoding chooses, and what a second thread
gains."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load(paths: list[Path]) -> dict[str, dict]:
    benchmarks = {}
    for path in paths:
        for entry in json.loads(path.read_text())["benchmarks"]:
            if entry.get("run_type", "iteration") == "iteration":
                benchmarks[entry["name"]] = entry
    return benchmarks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="JSON files written by the benchmark suites")
    args = parser.parse_args()
    runs = load(args.results)
    rows: list[tuple[str, str, str, bool]] = []

    memcpy_runs = sorted((name for name in runs if name.startswith("BM_Memcpy/")),
                         key=lambda name: int(name.split("/")[1]))
    memcpy = runs[memcpy_runs[-1]]["bytes_per_second"]  # the largest copy: float64 output of a whole block
    payload_copy = next(entry for name, entry in runs.items() if name.startswith("BM_MemcpyFromPayloadOffset"))
    same_type = runs["BM_DecodeDense_f64_to_f64"]["bytes_per_second"] / payload_copy["bytes_per_second"]
    rows.append(("dense f64 block decoded as f64", f"{same_type:.2f}x memcpy of its payload", ">= 0.9x",
                 same_type >= 0.9))
    for name, entry in sorted(runs.items()):
        if name.startswith("BM_Decode") and name != "BM_DecodeDense_f64_to_f64":
            ratio = entry["bytes_per_second"] / memcpy
            rows.append((name.removeprefix("BM_"), f"{ratio:.2f}x memcpy", ">= 0.5x", ratio >= 0.5))

    # Automatic encoding's two passes (bench/core/analysis_bench.cpp): bytes of input per second against memcpy of
    # the same bytes on as many threads, in the same run.
    for threads in (1, 2):
        copy = runs.get(f"BM_MemcpyPerThread/real_time/threads:{threads}")
        if copy is None:
            continue
        for name, entry in sorted(runs.items()):
            measured_pass = (name.startswith("BM_Analyze") and "ValueByValue" not in name) or \
                name.startswith("BM_Narrow_")
            if measured_pass and name.endswith(f"/real_time/threads:{threads}"):
                ratio = entry["bytes_per_second"] / copy["bytes_per_second"]
                what = name.removeprefix("BM_").removesuffix(f"/real_time/threads:{threads}")
                rows.append((f"{what} ({threads} thread{'s' if threads > 1 else ''})",
                             f"{ratio:.2f}x memcpy", ">= 0.5x", ratio >= 0.5))
    before = runs.get("BM_AnalyzeValueByValue_f64_small_integers/real_time/threads:1")
    after = runs.get("BM_Analyze_f64_small_integers/real_time/threads:1")
    if before is not None and after is not None:
        rows.append(("  (analysis of small integers, whole chunks vs value by value)",
                     f"{after['bytes_per_second'] / before['bytes_per_second']:.1f}x", "-", True))

    index = runs.get("BM_OpenAndIndex_1GiB_1024_blocks")
    if index is not None:
        unit = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[index["time_unit"]]
        micros = index["real_time"] * unit
        rows.append(("open + index, 1 GiB file of 1024 blocks", f"{micros:.0f} us", "<= 1000 us", micros <= 1000))
        floor = runs.get("BM_PreadFloor_1024_records")
        if floor is not None:
            floor_micros = floor["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3}[floor["time_unit"]]
            rows.append(("  (its floor: 1024 pread() calls of one record)", f"{floor_micros:.0f} us", "-", True))

    # The partition check's regression guard: walking a band's blocks for every block took seconds here.
    wide = runs.get("BM_ValidateWideBands_65536_blocks")
    if wide is not None:
        millis = wide["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0}[wide["time_unit"]]
        rows.append(("validate 65536 blocks in 2 wide bands", f"{millis:.1f} ms", "<= 100 ms", millis <= 100))

    for name, entry in sorted(runs.items()):
        if name.startswith("BM_AutoEncodingSize"):
            label = entry.get("label", name)
            over_dense, over_smallest = entry["auto_over_dense"], entry["auto_over_smallest"]
            rows.append((f"auto size, {label}: / dense", f"{over_dense:.3f}", "<= 1.0", over_dense <= 1.0))
            rows.append((f"auto size, {label}: / smallest", f"{over_smallest:.3f}", "<= 1.05",
                         over_smallest <= 1.05))

    # Threads: each run on two threads against the same run on one (a report; the target is that it scales). Google
    # Benchmark's time per iteration is the wall time over the iterations of all threads, so this is the ratio of
    # the rates, whether the threads share one job or each has one of its own (the analysis suite).
    for name, entry in sorted(runs.items()):
        if "threads:1" not in name:
            continue
        two = runs.get(name.replace("threads:1", "threads:2"))
        if two is not None:
            speedup = entry["real_time"] / two["real_time"]
            what = name.removeprefix("BM_").replace("/threads:1", "")
            rows.append((f"{what}: 2 threads vs 1", f"{speedup:.2f}x", "report", True))

    width = max(len(row[0]) for row in rows)
    for what, measured, target, met in rows:
        print(f"{what:<{width}}  {measured:>14}  target {target:<10} {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
