"""The matrix every language writes and checks (see examples/c/main.c): a DenseMatrix of f64, 6 x 5,
value(i, j) = 0.0 when (i + j) % 3 == 0, else (i * 5 + j) * 0.5, written in 4 x 3 blocks with automatic encoding.

    python3 cross_language_matrix.py write FILE     write the matrix
    python3 cross_language_matrix.py check FILE     exit 0 iff FILE holds exactly the matrix

Run by the cross-language CTest tests, next to the C example doing the same, with the package staged by the build
(so they also prove that it loads its bundled libdbdf by itself).
"""

from __future__ import annotations

import sys

import numpy as np

import dbdf

ROWS, COLS = 6, 5
BLOCK = (4, 3)


def values() -> np.ndarray:
    row, col = np.indices((ROWS, COLS))
    return np.where((row + col) % 3 == 0, 0.0, (row * COLS + col) * 0.5)


def write(path: str) -> None:
    dbdf.save(path, values(), block=BLOCK)


def mismatch(path: str) -> str | None:
    """None when the file holds exactly the matrix, else what differs."""
    with dbdf.Reader(path) as reader:
        info = reader.info
        if (info.data_type, info.value_type, info.shape) != (dbdf.DataType.DENSE, dbdf.ValueType.F64, (ROWS, COLS)):
            return f"header is {info}, expected a 6 x 5 DenseMatrix of F64"
        violations = reader.validate()
        if violations:
            return f"not a valid file: {violations[0].message}"
        actual = reader.read_dense()
    expected = values()
    differing = np.argwhere(actual.view(np.uint64) != expected.view(np.uint64))  # bit for bit
    if differing.size:
        row, col = differing[0]
        return f"value({row}, {col}) is {float(actual[row, col])!r}, expected {float(expected[row, col])!r}"
    return None


def main(arguments: list[str]) -> int:
    if len(arguments) != 2 or arguments[0] not in ("write", "check"):
        print("usage: cross_language_matrix.py write|check FILE", file=sys.stderr)
        return 2
    command, path = arguments
    try:
        if command == "write":
            write(path)
            print(f"wrote the cross-language matrix to {path}")
            return 0
        difference = mismatch(path)
    except dbdf.DbdfError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    if difference is not None:
        print(f"{path}: {difference}", file=sys.stderr)
        return 1
    print(f"{path}: holds the cross-language matrix (libdbdf from {dbdf.library_path})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
