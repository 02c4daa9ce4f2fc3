"""Binding overhead, Python: decodes the only block of FILE (float64, dense) into a preallocated ndarray REPEATS
times and prints one JSON line with the median and minimum seconds (see block_read.c)."""

import json
import statistics
import sys
import time

import numpy as np

import dbdf


def main() -> int:
    path, repeats = sys.argv[1], int(sys.argv[2])
    with dbdf.Reader(path) as reader:
        block = next(iter(reader))
        values = np.empty(block.info.shape, dtype=np.float64)
        seconds = []
        for run in range(repeats + 1):  # the first run warms up
            start = time.perf_counter()
            block.decode_dense(out=values)
            if run > 0:
                seconds.append(time.perf_counter() - start)
    print(json.dumps({"language": "python", "median_seconds": statistics.median(seconds),
                      "min_seconds": min(seconds), "bytes": values.nbytes, "check": float(values.flat[-1])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
