"""Shared helpers: the golden vectors (tests/vectors, described by vectors.json) as NumPy arrays, and bitwise
comparison (so -0.0, NaN payloads and subnormals count)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import dbdf

VECTORS_DIR = Path(os.environ.get("DBDF_VECTORS_DIR", Path(__file__).resolve().parents[3] / "tests" / "vectors"))
VECTORS = json.loads((VECTORS_DIR / "vectors.json").read_text(encoding="utf-8"))
VALID = VECTORS["valid"]
INVALID = VECTORS["invalid"]
MATRICES = [vector for vector in VALID if vector["data_type"] != "frame"]
FRAMES = [vector for vector in VALID if vector["data_type"] == "frame"]

ALL_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64, np.float32,
              np.float64]


def value_type(name: str | None) -> dbdf.ValueType:
    """A value type from its name in vectors.json ("u8", ..., "f64"; null for none)."""
    return dbdf.ValueType.NONE if name is None else dbdf.ValueType[name.upper()]


def cells_to_array(cells, name: str) -> np.ndarray:
    """Cells as vectors.json writes them (decimal integers, hex bit patterns of floats) in the type `name`."""
    dtype = value_type(name).dtype
    if dtype.kind == "f":
        bits = np.array([int(cell, 16) for cell in cells], dtype=np.dtype(f"u{dtype.itemsize}"))
        return bits.view(dtype)
    return np.array([int(cell) for cell in cells], dtype=dtype)


def expected_matrix(vector) -> np.ndarray:
    flat = [cell for row in vector["values"] for cell in row]
    return cells_to_array(flat, vector["value_type"]).reshape(vector["rows"], vector["cols"])


def expected_columns(vector) -> dict[str, np.ndarray]:
    return {
        label: cells_to_array([row[column] for row in vector["values"]], vector["column_types"][column])
        for column, label in enumerate(vector["labels"])}


def bits(array: np.ndarray) -> np.ndarray:
    """The values' bit patterns, to compare floats exactly."""
    array = np.ascontiguousarray(array)
    return array.view(np.dtype(f"u{array.dtype.itemsize}")) if array.dtype.kind == "f" else array


def assert_same(actual: np.ndarray, expected: np.ndarray) -> None:
    """Same dtype, shape and bits."""
    assert isinstance(actual, np.ndarray)
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(bits(actual), bits(expected))


def vector_path(vector) -> str:
    return str(VECTORS_DIR / vector["file"])


def ids(vectors):
    return [vector["file"] for vector in vectors]


@pytest.fixture
def without_pandas(monkeypatch):
    """Frames come back as dicts, as they do where pandas is not installed."""
    monkeypatch.setattr(dbdf._frames, "pandas_module", lambda: None)


def sparse_to_dense(matrix) -> np.ndarray:
    """A scipy.sparse matrix as a dense array, entry by entry (toarray() sums into zeros, turning -0.0 into 0.0)."""
    coo = matrix.tocoo()
    dense = np.zeros(coo.shape, dtype=coo.dtype)
    dense[coo.row, coo.col] = coo.data
    return dense
