#!/usr/bin/env python3
"""What the kernel charges for putting the same bytes into the page cache in one write() or in pieces.

numpy.save hands a whole array to one write(); dbdf's writer hands each block (a 26-byte record header and about
4 MiB of payload straight from the caller's array) to one writev(). This writes the same array (random doubles,
512 MiB by default) to new files in both ways and in a few others, round by round in turn after a warm-up, and
prints the median wall and system time of each and each one's wall time as a ratio to the single write() in the
same round (above 1: faster than one write()). Every file is new and removed, untimed, before the next write.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def write_in_pieces(path: Path, data: memoryview, piece: int, lead: bytes = b"") -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        if lead:
            os.write(fd, lead)
        for start in range(0, len(data), piece):
            chunk = data[start:start + piece]
            while len(chunk):
                chunk = chunk[os.write(fd, chunk):]
    finally:
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=int, default=512, help="bytes written per file, in MiB (default 512)")
    parser.add_argument("--rounds", type=int, default=6, help="timed rounds after one warm-up (default 6)")
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"), help="where the files go (default /var/tmp)")
    args = parser.parse_args()
    values = np.random.default_rng(42).random(args.mib * 2**20 // 8) + 1.0
    data = memoryview(values).cast("B")
    ways = {
        "one write()": lambda path: write_in_pieces(path, data, len(data)),
        "4 MiB pieces": lambda path: write_in_pieces(path, data, 4 << 20),
        "4 MiB pieces after 128 B": lambda path: write_in_pieces(path, data, 4 << 20, b"\0" * 128),
        "64 MiB pieces": lambda path: write_in_pieces(path, data, 64 << 20),
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
    directory = Path(tempfile.mkdtemp(prefix="dbdf-write-pieces-", dir=args.dir))
    try:
        for run in range(args.rounds + 1):
            for name, write in ways.items():
                path = directory / "output"
                before, start = resource.getrusage(resource.RUSAGE_SELF).ru_stime, time.perf_counter()
                write(path)
                wall = time.perf_counter() - start
                system = resource.getrusage(resource.RUSAGE_SELF).ru_stime - before
                path.unlink()
                if run > 0:
                    figures[name].append((wall, system))
    finally:
        for path in directory.iterdir():
            path.unlink()
        directory.rmdir()
    print(f"{args.mib} MiB per file, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}, "
          f"kernel {os.uname().release}")
    whole = [wall for wall, _ in figures["one write()"]]
    print(f"{'way':<26} {'median s':>9} {'system s':>9} {'vs one write()':>15}")
    for name, runs in figures.items():
        ratio = statistics.median(one / wall for one, (wall, _) in zip(whole, runs))
        print(f"{name:<26} {statistics.median(w for w, _ in runs):9.3f} "
              f"{statistics.median(s for _, s in runs):9.3f} {ratio:15.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
