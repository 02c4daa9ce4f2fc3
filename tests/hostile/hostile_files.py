"""Hostile inputs built byte by byte from the layout tables of the format (spec: Header, Body, Block types) and of
the foreign formats the tool reads, so that each case is exactly the file the issue describes, however large the
object it claims to be."""

from __future__ import annotations

import struct
from pathlib import Path

DENSE, CSR, FRAME = 1, 2, 3
EMPTY_BLOCK, DENSE_BLOCK = 0, 1
U8, F64 = 1, 10


def matrix_header(data_type: int, rows: int, cols: int, value_type: int) -> bytes:
    """Version 1, data type, #r, #c (uint64), vt: 19 bytes."""
    return struct.pack("<BBQQB", 1, data_type, rows, cols, value_type)


def frame_header(rows: int, columns: list[tuple[int, bytes]]) -> bytes:
    """Version 1, data type 3, #r, #c, every column's vt, then every column's (len, label)."""
    types = bytes(value_type for value_type, _ in columns)
    labels = b"".join(struct.pack("<H", len(label)) + label for _, label in columns)
    return struct.pack("<BBQQ", 1, FRAME, rows, len(columns)) + types + labels


def empty_block(row: int, col: int, rows: int, cols: int) -> bytes:
    """A body entry: rx, cx (uint64), then #r, #c (uint32), bt 0."""
    return struct.pack("<QQIIB", row, col, rows, cols, EMPTY_BLOCK)


def dense_f64_block(row: int, col: int, values: list[list[float]]) -> bytes:
    rows, cols = len(values), len(values[0])
    cells = b"".join(struct.pack("<d", value) for line in values for value in line)
    return struct.pack("<QQIIBB", row, col, rows, cols, DENSE_BLOCK, F64) + cells


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def huge_empty_matrix(path: Path) -> Path:
    """44 bytes: a (2^32-1) x (2^32-1) dense f64 matrix that is one empty block."""
    side = 2**32 - 1
    return write(path, matrix_header(DENSE, side, side, F64) + empty_block(0, 0, side, side))


def staircase(path: Path, side: int) -> Path:
    """A side x side matrix whose column j is two empty blocks, rows [0, j + 1) and [j + 1, side) (the last column
    is one block): 2 * side - 1 blocks of every height, the layout on which a search bounded by the tallest block
    seen walks every earlier first row."""
    body = bytearray()
    for column in range(side):
        body += empty_block(0, column, column + 1, 1)
        if column + 1 < side:
            body += empty_block(column + 1, column, side - column - 1, 1)
    return write(path, matrix_header(DENSE, side, side, F64) + bytes(body))


def wide_frame(path: Path, columns: int) -> Path:
    """A 1-row frame of `columns` f64 columns, one 1 x 1 dense block each, column c holding c."""
    header = frame_header(1, [(F64, b"c%d" % c) for c in range(columns)])
    body = b"".join(dense_f64_block(0, c, [[float(c)]]) for c in range(columns))
    return write(path, header + body)


def frame_with_labels(path: Path, labels: list[bytes]) -> Path:
    """A 1-row frame whose f64 columns carry the given raw label bytes; column c holds c + 1."""
    header = frame_header(1, [(F64, label) for label in labels])
    body = b"".join(dense_f64_block(0, c, [[float(c + 1)]]) for c in range(len(labels)))
    return write(path, header + body)


def npy(path: Path, shape_text: str, descr: str = "<f8", data: bytes = b"", header_bytes: int = 0) -> Path:
    """An .npy file (format 2.0, 4-byte header length) with the header dictionary padded with spaces to
    `header_bytes` in all (at least what it needs), ending in a newline as numpy writes it."""
    dictionary = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    preamble = 6 + 2 + 4
    total = max(header_bytes, preamble + len(dictionary) + 1)
    total += -total % 64  # numpy aligns the data to 64 bytes
    header = dictionary.ljust(total - preamble - 1) + "\n"
    return write(path, b"\x93NUMPY\x02\x00" + struct.pack("<I", len(header)) + header.encode("latin1") + data)
