#!/usr/bin/env python3
"""Writes the golden .dbdf files of tests/vectors/ and vectors.json, byte by byte from the layout tables of the format
description (spec/daphne-binary-data-format.md) and the numbered rules (docs/format-rules.md). This is an
implementation of the layout independent of dbdf's own codec: it never calls dbdf. Run it again to reproduce the
files exactly.

Usage: python3 tests/vectors/generate.py [output-folder]

Without an argument the files are written next to this script (tests/vectors/). A test writes them to a temporary
folder and compares them with the committed files byte for byte.
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Value type codes and struct formats (spec, "value types").
TYPES = {
    "u8": (1, "B"), "u16": (2, "H"), "u32": (3, "I"), "u64": (4, "Q"),
    "i8": (5, "b"), "i16": (6, "h"), "i32": (7, "i"), "i64": (8, "q"),
    "f32": (9, "f"), "f64": (10, "d"),
}
DATA_TYPES = {"dense": 1, "csr": 2, "frame": 3}
BLOCK_TYPES = {"empty": 0, "dense": 1, "csr": 2, "coo": 3}


class Bits:
    """A float given by its exact bit pattern (NaN payloads, -0.0, subnormals)."""

    def __init__(self, pattern):
        self.pattern = pattern


def is_float(vt):
    return vt in ("f32", "f64")


def pack_value(vt, value):
    code, fmt = TYPES[vt]
    if isinstance(value, Bits):
        return struct.pack("<I" if vt == "f32" else "<Q", value.pattern)
    if is_float(vt):
        return struct.pack("<" + fmt, float(value))
    return struct.pack("<" + fmt, int(value))


def as_float(vt, value):
    """The Python float of a stored value (exact for every value used here)."""
    if isinstance(value, Bits):
        raw = struct.pack("<I" if vt == "f32" else "<Q", value.pattern)
        return struct.unpack("<f" if vt == "f32" else "<d", raw)[0]
    return float(value)


def cell_text(declared, stored_vt, value):
    """The JSON text of a cell in its declared type: decimal for integers, the hex bit pattern for floats."""
    if declared in ("f32", "f64"):
        width = "I" if declared == "f32" else "Q"
        if isinstance(value, Bits) and stored_vt == declared:
            pattern = value.pattern
        elif isinstance(value, Bits) and stored_vt == "f32" and declared == "f64":
            pattern = struct.unpack("<Q", struct.pack("<d", as_float("f32", value)))[0]
            # A float NaN widens to a double NaN with the payload shifted left by 29 bits.
            raw = value.pattern
            if (raw & 0x7F800000) == 0x7F800000 and (raw & 0x7FFFFF):
                pattern = ((raw & 0x80000000) << 32) | 0x7FF0000000000000 | ((raw & 0x7FFFFF) << 29)
        else:
            number = as_float(stored_vt, value) if is_float(stored_vt) else float(value)
            pattern = struct.unpack("<" + width, struct.pack("<" + ("f" if declared == "f32" else "d"), number))[0]
        return "0x%0*x" % (8 if declared == "f32" else 16, pattern)
    if not is_float(stored_vt):
        return str(int(value))
    number = as_float(stored_vt, value)
    assert number == int(number), "a float stored in an integer column must be integral"
    return str(int(number))


def zero_text(declared):
    return {"f32": "0x00000000", "f64": "0x0000000000000000"}.get(declared, "0")


class Obj:
    """An object under construction: header fields and blocks in file order."""

    def __init__(self, data_type, rows, cols, value_type=None, column_types=None, labels=None):
        self.data_type = data_type
        self.rows = rows
        self.cols = cols
        self.value_type = value_type
        self.column_types = column_types
        self.labels = labels
        self.blocks = []  # (row, col, rows, cols, block_type, vt, cells {(r, c): value}, encoded bytes)

    def declared(self, col):
        return self.value_type if self.data_type != "frame" else self.column_types[col]

    def header(self):
        out = struct.pack("<BBQQ", 1, DATA_TYPES[self.data_type], self.rows, self.cols)
        if self.data_type != "frame":
            return out + struct.pack("<B", TYPES[self.value_type][0])
        out += bytes(TYPES[t][0] for t in self.column_types)
        for label in self.labels:
            text = label.encode("utf-8")
            out += struct.pack("<H", len(text)) + text
        return out

    def add(self, block_type, row, col, rows, cols, vt=None, cells=None):
        """Adds a block; `cells` maps block-local (r, c) to values of `vt` (missing cells are zero)."""
        cells = dict(cells or {})
        body = struct.pack("<QQIIB", row, col, rows, cols, BLOCK_TYPES[block_type])
        if block_type == "dense":
            body += struct.pack("<B", TYPES[vt][0])
            for r in range(rows):
                for c in range(cols):
                    body += pack_value(vt, cells.get((r, c), 0))
        elif block_type == "csr":
            entries = sorted(cells)
            body += struct.pack("<BQ", TYPES[vt][0], len(entries))
            for r in range(rows):
                in_row = [key for key in entries if key[0] == r]
                body += struct.pack("<I", len(in_row))
                for key in in_row:
                    body += struct.pack("<I", key[1]) + pack_value(vt, cells[key])
        elif block_type == "coo":
            entries = sorted(cells)
            body += struct.pack("<BI", TYPES[vt][0], len(entries))
            for key in entries:
                body += struct.pack("<I", key[0])
                if cols != 1:  # rule 13: the single-column variant has no column field
                    body += struct.pack("<I", key[1])
                body += pack_value(vt, cells[key])
        self.blocks.append((row, col, rows, cols, block_type, vt, cells, body))
        return self

    def encode(self):
        return self.header() + b"".join(block[7] for block in self.blocks)

    def description(self, file_name, text):
        grid = [[zero_text(self.declared(c)) for c in range(self.cols)] for _ in range(self.rows)]
        blocks = []
        for row, col, rows, cols, block_type, vt, cells, _ in self.blocks:
            for (r, c), value in cells.items():
                grid[row + r][col + c] = cell_text(self.declared(col + c), vt, value)
            stored = {"empty": 0, "dense": rows * cols}.get(block_type, len(cells))
            blocks.append({"row": row, "col": col, "rows": rows, "cols": cols, "block_type": block_type,
                           "value_type": vt if block_type != "empty" else None, "stored_values": stored})
        entry = {"file": file_name, "description": text, "data_type": self.data_type, "rows": self.rows,
                 "cols": self.cols, "value_type": self.value_type, "blocks": blocks, "values": grid}
        if self.data_type == "frame":
            entry["column_types"] = self.column_types
            entry["labels"] = self.labels
        return entry


def full(rows, cols, values):
    """Cells of a dense block given row-major values."""
    return {(r, c): values[r][c] for r in range(rows) for c in range(cols)}


NAN32 = Bits(0x7FC00123)
NAN64 = Bits(0x7FF8000000000123)
INF = float("inf")

DENSE_VALUES = {
    "u8": [[0, 1, 255], [7, 128, 2]],
    "u16": [[0, 65535, 1], [256, 2, 3]],
    "u32": [[0, 4294967295, 1], [65536, 2, 3]],
    "u64": [[0, 18446744073709551615, 1], [4294967296, 2, 3]],
    "i8": [[-128, 127, 0], [-1, 1, 5]],
    "i16": [[-32768, 32767, 0], [-1, 1, 5]],
    "i32": [[-2147483648, 2147483647, 0], [-1, 1, 5]],
    "i64": [[-9223372036854775808, 9223372036854775807, 0], [-1, 1, 5]],
    "f32": [[0.0, Bits(0x80000000), INF], [-INF, NAN32, Bits(0x00000001)]],
    "f64": [[1.5, Bits(0x8000000000000000), INF], [-INF, NAN64, Bits(0x0000000000000001)]],
}

CSR_VALUES = {  # (max-ish, 1, low) for entries (0,1), (0,3), (2,2); (2,0) is an explicit zero
    "u8": (255, 1, 2), "u16": (65535, 1, 2), "u32": (4294967295, 1, 2), "u64": (18446744073709551615, 1, 2),
    "i8": (127, 1, -128), "i16": (32767, 1, -32768), "i32": (2147483647, 1, -2147483648),
    "i64": (9223372036854775807, 1, -9223372036854775808),
    "f32": (2.5, Bits(0x80000000), NAN32), "f64": (2.5, Bits(0x8000000000000000), NAN64),
}


def valid_objects():
    objects = []
    for vt, rows in DENSE_VALUES.items():
        objects.append((f"dense_{vt}.dbdf", f"2 x 3 DenseMatrix of {vt}, one dense block with the type's extremes",
                        Obj("dense", 2, 3, vt).add("dense", 0, 0, 2, 3, vt, full(2, 3, rows))))
    for vt, (a, b, c) in CSR_VALUES.items():
        objects.append((f"csr_{vt}.dbdf",
                        f"3 x 4 CSRMatrix of {vt}, one CSR block; row 1 empty, an explicit zero at (2, 0)",
                        Obj("csr", 3, 4, vt).add("csr", 0, 0, 3, 4, vt, {(0, 1): a, (0, 3): b, (2, 0): 0, (2, 2): c})))
    for vt, (a, b, c) in CSR_VALUES.items():
        if vt == "f32":
            continue  # coo_multi_column.dbdf
        objects.append((f"coo_{vt}.dbdf",
                        f"3 x 4 CSRMatrix of {vt}, one COO block (multi-column variant) of the CSR file's entries, "
                        "the explicit zero at (2, 0) included",
                        Obj("csr", 3, 4, vt).add("coo", 0, 0, 3, 4, vt, {(0, 1): a, (0, 3): b, (2, 0): 0, (2, 2): c})))
    objects.append(("coo_single_column.dbdf", "5 x 1 DenseMatrix of i16, one COO block (single-column variant)",
                    Obj("dense", 5, 1, "i16").add("coo", 0, 0, 5, 1, "i16", {(1, 0): -300, (4, 0): 7})))
    objects.append(("coo_multi_column.dbdf", "3 x 4 CSRMatrix of f32, one COO block (multi-column variant)",
                    Obj("csr", 3, 4, "f32").add("coo", 0, 0, 3, 4, "f32", {(0, 3): 1.25, (2, 0): -2.0, (2, 1): 0.5})))
    objects.append(("empty_block.dbdf", "2 x 3 DenseMatrix of f64 stored as one empty block",
                    Obj("dense", 2, 3, "f64").add("empty", 0, 0, 2, 3)))
    objects.append(("zero_by_zero.dbdf", "0 x 0 DenseMatrix of f64: header only, no blocks (rule 4)",
                    Obj("dense", 0, 0, "f64")))
    objects.append(("zero_by_five.dbdf", "0 x 5 CSRMatrix of i32: header only, no blocks (rule 4)",
                    Obj("csr", 0, 5, "i32")))
    objects.append(("one_by_one.dbdf", "1 x 1 DenseMatrix of u64 holding 42",
                    Obj("dense", 1, 1, "u64").add("dense", 0, 0, 1, 1, "u64", {(0, 0): 42})))
    shuffled = Obj("dense", 5, 7, "u64")
    shuffled.add("coo", 2, 3, 2, 3, "u64", {(0, 2): 18446744073709551615, (1, 0): 9})   # middle tile
    shuffled.add("dense", 0, 0, 2, 3, "u8", full(2, 3, [[1, 0, 3], [0, 5, 6]]))        # u8 block in u64 object
    shuffled.add("empty", 4, 6, 1, 1)                                                   # ragged corner
    shuffled.add("csr", 0, 3, 2, 3, "u16", {(0, 0): 300, (1, 2): 7})
    shuffled.add("dense", 4, 0, 1, 3, "u64", full(1, 3, [[10, 11, 12]]))               # ragged bottom row
    shuffled.add("empty", 0, 6, 2, 1)                                                   # ragged right column
    shuffled.add("csr", 2, 0, 2, 3, "u32", {(1, 1): 70000})
    shuffled.add("coo", 2, 6, 2, 1, "u8", {(1, 0): 200})                                # single-column COO
    shuffled.add("dense", 4, 3, 1, 3, "u16", full(1, 3, [[0, 1000, 0]]))
    objects.append(("multi_block_shuffled.dbdf",
                    "5 x 7 DenseMatrix of u64 in 2 x 3 ragged tiles written out of order, all four block types and "
                    "narrower block value types", shuffled))
    mixed = Obj("dense", 2, 4, "f64")
    mixed.add("dense", 0, 0, 2, 2, "f32", full(2, 2, [[0.5, -1.25], [3.0, 0.0]]))
    mixed.add("dense", 0, 2, 2, 2, "f64", full(2, 2, [[0.1, 2.0], [NAN64, -0.75]]))
    objects.append(("mixed_block_types_f64.dbdf", "2 x 4 DenseMatrix of f64: an f32 block beside an f64 block", mixed))
    sparse_in_dense = Obj("dense", 4, 4, "f64")
    sparse_in_dense.add("csr", 0, 0, 2, 4, "f64", {(0, 0): 1.5, (1, 3): -2.5})
    sparse_in_dense.add("coo", 2, 0, 2, 4, "i8", {(0, 1): -7, (1, 2): 100})
    objects.append(("dense_matrix_sparse_blocks.dbdf", "4 x 4 DenseMatrix of f64 held in a CSR block and an i8 COO block",
                    sparse_in_dense))
    dense_in_csr = Obj("csr", 2, 4, "i32")
    dense_in_csr.add("dense", 0, 0, 2, 2, "i32", full(2, 2, [[-1, 0], [0, 2147483647]]))
    dense_in_csr.add("dense", 0, 2, 2, 2, "u8", full(2, 2, [[0, 255], [3, 0]]))
    objects.append(("csr_matrix_dense_blocks.dbdf", "2 x 4 CSRMatrix of i32 held in two dense blocks (i32 and u8)",
                    dense_in_csr))
    frame = Obj("frame", 4, 4, None, ["i64", "f64", "u8", "u8"], ["id", "prix élevé", "", "count"])
    frame.add("dense", 0, 0, 2, 1, "i64", full(2, 1, [[-9223372036854775808], [1]]))
    frame.add("dense", 2, 0, 2, 1, "i32", full(2, 1, [[2], [-3]]))
    frame.add("coo", 0, 1, 4, 1, "f32", {(1, 0): 0.5, (3, 0): -8.0})
    frame.add("dense", 0, 2, 4, 2, "u8", full(4, 2, [[1, 2], [3, 4], [0, 255], [9, 0]]))  # spans two u8 columns
    objects.append(("frame_mixed.dbdf",
                    "4-row frame: i64, f64, u8, u8 columns; UTF-8 and empty labels; one block spans two columns",
                    frame))
    return objects


def invalid_objects():
    """(file, description, bytes, status, rule, offset, fails_on)."""
    items = []

    def matrix(dt, rows, cols, vt):
        return struct.pack("<BBQQB", 1, dt, rows, cols, vt)

    def block(rx, cx, rows, cols, bt):
        return struct.pack("<QQIIB", rx, cx, rows, cols, bt)

    ok_header = matrix(1, 1, 1, 10)
    one_value = block(0, 0, 1, 1, 1) + struct.pack("<Bd", 10, 1.0)
    items.append(("truncated_header.dbdf", "input ends inside the object header", ok_header[:10],
                  "truncated", 0, 10, "open"))
    frame_head = struct.pack("<BBQQ", 1, 3, 1, 2) + bytes([10, 10]) + struct.pack("<H", 1) + b"a"
    items.append(("truncated_frame_label.dbdf", "the second frame label claims 3 bytes, 1 follows",
                  frame_head + struct.pack("<H", 3) + b"b", "truncated", 16, 23, "open"))
    items.append(("truncated_block_header.dbdf", "10 bytes after the header cannot form a block header (rule 5)",
                  ok_header + bytes(10), "truncated", 5, 19, "iterate"))
    items.append(("truncated_payload.dbdf", "a 1 x 2 dense f64 block with one value",
                  matrix(1, 1, 2, 10) + block(0, 0, 1, 2, 1) + struct.pack("<Bd", 10, 1.0), "truncated", 5, 19, "iterate"))
    items.append(("trailing_partial_block.dbdf", "a complete object followed by one stray byte (rule 5)",
                  ok_header + one_value + b"\x00", "truncated", 5, 19 + len(one_value), "iterate"))
    items.append(("bad_version.dbdf", "format version 2 (rule 6)", b"\x02" + ok_header[1:] + one_value,
                  "format", 6, 0, "open"))
    items.append(("data_type_0.dbdf", "reserved data type 0 (rule 6)", matrix(0, 1, 1, 10) + one_value,
                  "format", 6, 1, "open"))
    items.append(("data_type_9.dbdf", "unknown data type 9", matrix(9, 1, 1, 10) + one_value, "format", 0, 1, "open"))
    items.append(("header_value_type_0.dbdf", "reserved object value type 0 (rule 6)", matrix(1, 1, 1, 0) + one_value,
                  "format", 6, 18, "open"))
    items.append(("header_value_type_11.dbdf", "unknown object value type 11", matrix(1, 1, 1, 11) + one_value,
                  "format", 0, 18, "open"))
    items.append(("block_value_type_0.dbdf", "a dense block with reserved value type 0 (rule 6)",
                  ok_header + block(0, 0, 1, 1, 1) + struct.pack("<Bd", 0, 1.0), "format", 6, 44, "iterate"))
    items.append(("block_value_type_11.dbdf", "a dense block with unknown value type 11",
                  ok_header + block(0, 0, 1, 1, 1) + struct.pack("<Bd", 11, 1.0), "format", 0, 44, "iterate"))
    items.append(("block_type_4.dbdf", "unknown block type 4", ok_header + block(0, 0, 1, 1, 4),
                  "format", 0, 43, "iterate"))
    items.append(("block_out_of_bounds.dbdf", "a 2 x 2 block at row 1 of a 2 x 2 object (rule 2)",
                  matrix(1, 2, 2, 10) + block(1, 0, 2, 2, 0), "format", 2, 19, "iterate"))
    items.append(("overlapping_blocks.dbdf", "a 1 x 1 block inside an earlier 2 x 2 block (rule 1)",
                  matrix(1, 2, 2, 10) + block(0, 0, 2, 2, 0) + block(1, 1, 1, 1, 0), "format", 1, 44, "iterate"))
    uncovered = matrix(1, 2, 2, 10) + block(0, 0, 2, 1, 0)
    items.append(("uncovered_cells.dbdf", "column 1 of a 2 x 2 object is covered by no block (rule 1)",
                  uncovered, "format", 1, len(uncovered), "iterate"))
    csr_head = matrix(2, 2, 2, 10) + block(0, 0, 2, 2, 2)
    items.append(("csr_count_mismatch.dbdf", "#nzb says 2 but the row counts add up to 1 (rule 12)",
                  csr_head + struct.pack("<BQ", 10, 2) + struct.pack("<IId", 1, 0, 1.0) + struct.pack("<I", 0)
                  + bytes(12), "format", 12, 45, "decode"))
    items.append(("csr_unsorted_columns.dbdf", "row 0 lists column 1 before column 0 (rule 12)",
                  csr_head + struct.pack("<BQ", 10, 2) + struct.pack("<IIdId", 2, 1, 1.0, 0, 2.0) + struct.pack("<I", 0),
                  "format", 12, 69, "decode"))
    items.append(("csr_column_out_of_range.dbdf", "column index 2 in a 2-column block (rule 12)",
                  csr_head + struct.pack("<BQ", 10, 1) + struct.pack("<IId", 1, 2, 1.0) + struct.pack("<I", 0),
                  "format", 12, 57, "decode"))
    coo_head = matrix(2, 2, 2, 10) + block(0, 0, 2, 2, 3)
    items.append(("coo_out_of_order.dbdf", "entry (0, 1) follows entry (1, 0) (rule 13)",
                  coo_head + struct.pack("<BI", 10, 2) + struct.pack("<IId", 1, 0, 1.0) + struct.pack("<IId", 0, 1, 2.0),
                  "format", 13, 65, "decode"))
    items.append(("coo_index_out_of_range.dbdf", "single-column COO entry at row 3 of a 3-row block (rule 13)",
                  matrix(1, 3, 1, 10) + block(0, 0, 3, 1, 3) + struct.pack("<BI", 10, 1) + struct.pack("<Id", 3, 1.0),
                  "format", 13, 49, "decode"))
    items.append(("not_representable_u16_in_u8.dbdf", "a u16 block holds 300 inside a u8 object (rule 8)",
                  matrix(1, 1, 2, 1) + block(0, 0, 1, 2, 1) + struct.pack("<BHH", 2, 7, 300), "range", 8, 47, "decode"))
    items.append(("not_representable_half_in_i32.dbdf", "an f64 block holds 0.5 inside an i32 object (rule 8)",
                  matrix(1, 1, 1, 7) + block(0, 0, 1, 1, 1) + struct.pack("<Bd", 10, 0.5), "range", 8, 45, "decode"))
    huge = matrix(1, 1 << 63, 1, 10) + block(0, 0, 1, 1, 0)
    items.append(("absurd_rows.dbdf", "the header claims 2^63 rows; one 1 x 1 block is all there is (rule 1)",
                  huge, "format", 1, len(huge), "iterate"))
    items.append(("absurd_csr_entries.dbdf", "a CSR block claims 2^62 non-zeros in a 53-byte file (rule 5)",
                  matrix(2, 2**64 - 1, 2**64 - 1, 10) + block(0, 0, 2**32 - 1, 2**32 - 1, 2) + struct.pack("<BQ", 10, 1 << 62),
                  "truncated", 5, 19, "iterate"))
    items.append(("absurd_dense_block.dbdf", "a dense block claims (2^32-1)^2 values in a 45-byte file (rule 5)",
                  matrix(1, 2**64 - 1, 2**64 - 1, 10) + block(0, 0, 2**32 - 1, 2**32 - 1, 1) + struct.pack("<B", 10),
                  "truncated", 5, 19, "iterate"))
    columns = struct.pack("<BBQQ", 1, 3, 1, 1 << 63) + bytes([10] * 22)
    items.append(("absurd_frame_columns.dbdf", "a frame header claims 2^63 columns in a 40-byte file (rule 7)",
                  columns, "truncated", 7, 10, "open"))
    return items


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else HERE
    document = {"valid": [], "invalid": []}
    for file_name, text, obj in valid_objects():
        with open(os.path.join(folder, file_name), "wb") as out:
            out.write(obj.encode())
        document["valid"].append(obj.description(file_name, text))
    os.makedirs(os.path.join(folder, "invalid"), exist_ok=True)
    for file_name, text, data, status, rule, offset, fails_on in invalid_objects():
        with open(os.path.join(folder, "invalid", file_name), "wb") as out:
            out.write(data)
        document["invalid"].append({"file": "invalid/" + file_name, "description": text, "status": status,
                                    "rule": rule, "offset": offset, "fails_on": fails_on})
    with open(os.path.join(folder, "vectors.json"), "w", encoding="utf-8") as out:
        json.dump(document, out, indent=1, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
