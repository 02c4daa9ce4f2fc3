"""The Python example: loads a .dbdf file written by another language's example and prints it.

    python3 print_dbdf.py FILE [--written-by java|c] [--dialect spec|daphne]

Prints the object header, its blocks and a corner of its values. With --written-by, also checks every value
against the formula of the example that wrote the file (the Java example's sparse tiles, or the C example's
cross-language matrix) and exits with status 1 on a difference. --dialect daphne reads a file DAPHNE's own runtime
wrote (its layout differs from the published format; see docs/daphne-dialect.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np
import scipy.sparse

import dbdf


def java_sparse_tiles(rows: int, cols: int) -> np.ndarray:
    """SparseTilesExample.value(row, col) of examples/java, for every cell."""
    row, col = np.indices((rows, cols))
    tile_row, tile_col = row // 256, col // 256
    banded = np.where(np.abs(row - col) % 97 == 0, row * 0.25 - col, 0.0)
    values = np.where((tile_row == 3) & (tile_col == 2), (row + col) % 7 + 1.0, banded)
    return np.where((tile_row == 1) & (tile_col == 1), 0.0, values)


def c_cross_matrix(rows: int, cols: int) -> np.ndarray:
    """cross_value(row, col) of examples/c: 0 where (row + col) % 3 == 0, else (row * 5 + col) * 0.5."""
    row, col = np.indices((rows, cols))
    return np.where((row + col) % 3 == 0, 0.0, (row * 5 + col) * 0.5)


WRITERS = {
    "java": ("the Java example (SparseTilesExample)", java_sparse_tiles),
    "c": ("the C example (its cross-language matrix)", c_cross_matrix),
}


def print_object(path: str, dialect: str) -> object:
    with dbdf.Reader(path, dialect=dialect) as reader:
        info = reader.info
        kind = info.data_type.name.lower()
        value_type = info.value_type.name.lower() if info.value_type else "per column"
        print(f"{path}: {kind} {info.rows} x {info.cols}, values {value_type}, {info.total_bytes} bytes, "
              f"{reader.dialect.name.lower()} dialect")
        if not reader.labels_recoverable:
            print(f"  the column labels are not in the file; they read as {', '.join(reader.column_labels)}")
        blocks = list(reader)
        for block in blocks[:8]:
            stored = block.value_type.name.lower() if block.value_type else "-"
            print(f"  block {block.index:3d} at ({block.row:4d}, {block.col:4d}) {block.rows:4d} x {block.cols:4d} "
                  f"{block.block_type.name.lower():5s} {stored:3s} {block.stored_values:7d} stored values, "
                  f"{block.encoded_bytes:7d} bytes")
        if len(blocks) > 8:
            print(f"  ... {len(blocks) - 8} more blocks")
        by_type = Counter(block.block_type.name.lower() for block in blocks)
        print("  blocks by type: " + ", ".join(f"{name} {count}" for name, count in sorted(by_type.items())))
    return dbdf.load(path, dialect=dialect)


def print_values(loaded) -> np.ndarray | None:
    if isinstance(loaded, np.generic):
        print(f"loaded as a scalar of {loaded.dtype}: {loaded}")
        return np.array([[loaded]])
    if scipy.sparse.issparse(loaded):
        print(f"loaded as {type(loaded).__name__}: {loaded.nnz} stored entries, sum {loaded.sum():.2f}")
        dense = loaded.toarray()
    elif isinstance(loaded, np.ndarray):
        print(f"loaded as ndarray of {loaded.dtype}: {np.count_nonzero(loaded)} non-zeros, sum {loaded.sum():.2f}")
        dense = loaded
    else:
        print(f"loaded as {type(loaded).__name__} with columns {list(loaded.keys())}")
        print(loaded)
        return None
    with np.printoptions(precision=2, suppress=True, linewidth=120):
        print(f"top-left corner ({min(6, dense.shape[0])} x {min(8, dense.shape[1])}):")
        print(dense[:6, :8])
    return dense


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--written-by", choices=sorted(WRITERS))
    parser.add_argument("--dialect", choices=["spec", "daphne"], default="spec")
    arguments = parser.parse_args()

    print(f"dbdf for Python {dbdf.__version__}, libdbdf {dbdf.library_version()} from {dbdf.library_path}")
    if arguments.written_by:
        print(f"reading a file written by {WRITERS[arguments.written_by][0]}")
    try:
        dense = print_values(print_object(arguments.file, arguments.dialect))
    except dbdf.DbdfError as error:
        print(f"{arguments.file}: {error}", file=sys.stderr)
        return 1
    if arguments.written_by and dense is not None:
        expected = WRITERS[arguments.written_by][1](*dense.shape)
        if not np.array_equal(dense, expected):
            differing = np.argwhere(dense != expected)
            print(f"{len(differing)} values differ from what the writer wrote, first at {tuple(differing[0])}",
                  file=sys.stderr)
            return 1
        print(f"all {dense.size} values are the ones {WRITERS[arguments.written_by][0]} wrote")
    return 0


if __name__ == "__main__":
    sys.exit(main())
