"""Arrays that are not aligned for their dtype (a view at an odd byte offset, which numpy.ascontiguousarray keeps as
it is) are valid arguments: save() writes the same bytes as for an aligned copy, and reads into such an `out`
receive the same values, bit for bit (-0.0 and a NaN payload included)."""

from __future__ import annotations

import numpy as np
import pytest

import dbdf
from conftest import ALL_DTYPES, assert_same


def unaligned(array: np.ndarray) -> np.ndarray:
    """A C-order copy of `array` that starts one byte into its buffer, so it is misaligned for every dtype wider than
    one byte."""
    buffer = np.zeros(array.nbytes + 1, dtype=np.uint8)
    view = np.frombuffer(buffer, dtype=array.dtype, count=array.size, offset=1).reshape(array.shape)
    view[...] = array
    return view


def sample(dtype, rows: int = 9, cols: int = 6) -> np.ndarray:
    """Half zeros (so sparse blocks come up), the rest varied; floats also hold -0.0 and a NaN with a payload."""
    dtype = np.dtype(dtype)
    values = (np.arange(rows * cols) * 37 % 101).astype(dtype)
    values[::2] = 0
    if dtype.kind == "f":
        bits = np.dtype(f"u{dtype.itemsize}")
        values.view(bits)[1] = np.array([1 << (8 * dtype.itemsize - 1)], dtype=bits)[0]  # -0.0
        values.view(bits)[3] = np.array([(1 << (8 * dtype.itemsize - 1)) - 3], dtype=bits)[0]  # NaN, payload
    return values.reshape(rows, cols)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
@pytest.mark.parametrize("encoding", ["auto", "as-given", "csr", "coo"])
def test_save_of_an_unaligned_array_writes_the_bytes_of_an_aligned_one(tmp_path, dtype, encoding):
    matrix = sample(dtype)
    moved = unaligned(matrix)
    if moved.dtype.itemsize > 1:
        assert not moved.flags.aligned and not np.ascontiguousarray(moved).flags.aligned
    dbdf.save(tmp_path / "aligned.dbdf", matrix, encoding=encoding, block=(4, 4))
    dbdf.save(tmp_path / "moved.dbdf", moved, encoding=encoding, block=(4, 4))
    assert (tmp_path / "moved.dbdf").read_bytes() == (tmp_path / "aligned.dbdf").read_bytes()
    assert_same(dbdf.load(tmp_path / "moved.dbdf"), matrix)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_reads_into_an_unaligned_out_give_the_values_bit_for_bit(tmp_path, dtype):
    matrix = sample(dtype)
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix, block=(4, 4))
    with dbdf.Reader(path) as reader:
        out = unaligned(np.full_like(matrix, 7))
        assert reader.read_dense(out=out) is out
        assert_same(out, matrix)
        column = unaligned(np.zeros(matrix.shape[0], dtype=matrix.dtype))
        reader.read_column(2, out=column)
        assert_same(column, matrix[:, 2])


def test_frame_columns_that_are_unaligned_round_trip(tmp_path):
    columns = {f"c{index}": sample(dtype, 9, 1)[:, 0] for index, dtype in enumerate(ALL_DTYPES)}
    moved = {label: unaligned(column) for label, column in columns.items()}
    dbdf.save(tmp_path / "aligned.dbdf", columns)
    dbdf.save(tmp_path / "moved.dbdf", moved)
    assert (tmp_path / "moved.dbdf").read_bytes() == (tmp_path / "aligned.dbdf").read_bytes()
    loaded = dbdf.load(tmp_path / "moved.dbdf")
    for label, column in columns.items():
        assert_same(np.asarray(loaded[label]), column)
