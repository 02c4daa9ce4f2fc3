"""Timing helpers shared by the comparison scripts: a warm-up, then repeated runs, reported as min and median."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass
from typing import Callable


@dataclass
class Timing:
    name: str
    seconds: list[float]
    bytes: int

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def gib_per_second(self) -> float:
        return self.bytes / self.median / 2**30

    def as_dict(self) -> dict:
        return {"name": self.name, "median_seconds": self.median, "min_seconds": self.best,
                "max_seconds": max(self.seconds), "bytes": self.bytes, "gib_per_second": self.gib_per_second}


def measure_interleaved(operations: dict[str, Callable[[], object]], nbytes: int, repeats: int,
                        prepare: Callable[[], object] | None = None) -> dict[str, Timing]:
    """Runs every operation once to warm up (page cache, allocator), then `repeats` rounds in which each runs once,
    in turn. Interleaving keeps the comparison fair when the machine's state drifts (page cache, memory reclaim,
    other load): every operation sees the same conditions. `prepare` runs untimed before each run (e.g. to drop
    the previous result so that its memory is returned)."""
    seconds: dict[str, list[float]] = {name: [] for name in operations}
    for run in range(repeats + 1):
        for name, operation in operations.items():
            if prepare is not None:
                prepare()
            start = time.perf_counter()
            operation()
            elapsed = time.perf_counter() - start
            if run > 0:
                seconds[name].append(elapsed)
    return {name: Timing(name, times, nbytes) for name, times in seconds.items()}


def report(timings: list[Timing]) -> str:
    """A table of the timings, each with its rate."""
    width = max(len(t.name) for t in timings)
    lines = [f"{'operation':<{width}}  {'median s':>9}  {'min s':>9}  {'GiB/s':>7}"]
    for t in timings:
        lines.append(f"{t.name:<{width}}  {t.median:9.4f}  {t.best:9.4f}  {t.gib_per_second:7.2f}")
    return "\n".join(lines)


def print_ratios(checks: list[tuple[str, float, float | None]], results: dict, json_path) -> None:
    """Prints each (name, ratio, target or None), adds them to `results` and writes `results` to `json_path` when
    one is given: the end of every comparison script."""
    print("\nRatios (above 1: dbdf is faster)")
    for name, value, target in checks:
        verdict = "" if target is None else f"   target >= {target:.1f}: {'met' if value >= target else 'MISSED'}"
        print(f"  {name:<55} {value:6.2f}{verdict}")
    results["ratios"] = {name: value for name, value, _ in checks}
    if json_path:
        json_path.write_text(json.dumps(results, indent=2))
