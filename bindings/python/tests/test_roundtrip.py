"""Dense round trips: every dtype with its extreme values, every encoding, C and Fortran order, views that are not
contiguous, tiling, and dtype conversion when loading."""

from __future__ import annotations

import numpy as np
import pytest

import dbdf
from conftest import ALL_DTYPES, assert_same


def extremes(dtype) -> np.ndarray:
    """A 5 x 7 matrix of `dtype` with the type's extremes, zeros, and for floats -0.0, infinities, a NaN with a
    payload and subnormals."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        uint = np.dtype(f"u{dtype.itemsize}")
        nan_with_payload = np.array([(1 << (8 * dtype.itemsize - 1)) - 1], dtype=uint).view(dtype)[0]
        special = [0.0, -0.0, np.inf, -np.inf, nan_with_payload, info.smallest_subnormal, -info.tiny, info.max,
                   info.min, 1.5, -0.25]
    else:
        info = np.iinfo(dtype)
        special = [0, 1, info.min, info.max, info.max - 1, 7, 0]
    values = np.zeros(35, dtype=dtype)
    for index in range(35):
        values[index] = special[(index * 3) % len(special)] if index % 4 else 0
    return values.reshape(5, 7)


ENCODINGS = ["auto", "as-given", "dense", "csr", "coo", dbdf.Encoding.AUTO]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
@pytest.mark.parametrize("encoding", ENCODINGS, ids=str)
def test_every_dtype_and_encoding_round_trips_bit_for_bit(tmp_path, dtype, encoding):
    matrix = extremes(dtype)
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix, encoding=encoding)
    assert_same(dbdf.load(path), matrix)


@pytest.mark.parametrize("encoding, block_type", [("dense", dbdf.BlockType.DENSE), ("csr", dbdf.BlockType.CSR),
                                                  ("coo", dbdf.BlockType.COO)])
def test_forced_encodings_store_that_block_type(tmp_path, encoding, block_type):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, extremes(np.float64), encoding=encoding, block=(2, 3))
    with dbdf.Reader(path) as reader:
        assert {block.block_type for block in reader} == {block_type}
        assert len(reader) == 3 * 3


def test_automatic_encoding_narrows_and_sparsifies(tmp_path):
    matrix = np.zeros((100, 100), dtype=np.float64)
    matrix[3, 4] = 2.0
    matrix[50:60, 50:60] = 1.0
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix, block=(50, 50))
    with dbdf.Reader(path) as reader:
        types = {(block.row, block.col): (block.block_type, block.value_type) for block in reader}
    assert types[(0, 50)] == (dbdf.BlockType.EMPTY, dbdf.ValueType.NONE)
    assert types[(0, 0)][1] == dbdf.ValueType.U8
    assert types[(0, 0)][0] in (dbdf.BlockType.CSR, dbdf.BlockType.COO)
    assert_same(dbdf.load(path), matrix)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_fortran_order_and_views_that_are_not_contiguous(tmp_path, dtype):
    base = extremes(dtype)
    views = {
        "fortran": np.asfortranarray(base),
        "transposed": base.T,
        "row slice": base[1:4],
        "column window": base[1:4, 2:6],
        "every other column": base[:, ::2],
        "reversed rows": base[::-1],
        "reversed both": base[::-1, ::-1],
        "big endian": base.astype(base.dtype.newbyteorder(">")),
        "one column": base[:, 3],
    }
    for view in views.values():
        path = tmp_path / "m.dbdf"
        dbdf.save(path, view, block=(2, 2))
        expected = np.asarray(view, dtype=base.dtype)
        if expected.ndim == 1:
            expected = expected.reshape(-1, 1)
        assert_same(dbdf.load(path), np.ascontiguousarray(expected))


def test_windows_of_a_larger_array_are_written_in_place(tmp_path):
    base = np.arange(20 * 30, dtype=np.int32).reshape(20, 30)
    window = base[2:12, 5:25]  # rows are contiguous, with a row stride of 30
    path = tmp_path / "m.dbdf"
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("dense", np.int32, 10, 20)
        writer.add_dense(0, 0, window[:5], encoding="dense")
        writer.add_dense(5, 0, window[5:], encoding="dense")
    assert_same(dbdf.load(path), window.copy())


@pytest.mark.parametrize("shape", [(0, 0), (0, 5), (5, 0), (1, 1), (1, 1000), (1000, 1)])
def test_degenerate_shapes(tmp_path, shape):
    matrix = np.arange(shape[0] * shape[1], dtype=np.float32).reshape(shape)
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix)
    assert_same(dbdf.load(path), matrix)


def test_lists_and_one_dimensional_arrays(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, [[1, 2], [3, 4]])
    assert_same(dbdf.load(path), np.array([[1, 2], [3, 4]], dtype=np.int64))
    dbdf.save(path, np.array([1.5, 2.5, 3.5], dtype=np.float32))
    assert_same(dbdf.load(path), np.array([[1.5], [2.5], [3.5]], dtype=np.float32))


def test_tiling(tmp_path):
    matrix = np.random.default_rng(7).integers(-1000, 1000, size=(37, 23)).astype(np.int64)
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix, block=(10, 8))
    with dbdf.Reader(path) as reader:
        shapes = [(block.row, block.col, block.rows, block.cols) for block in reader]
    assert len(shapes) == 4 * 3
    assert (30, 16, 7, 7) in shapes
    assert_same(dbdf.load(path), matrix)
    dbdf.save(path, matrix, block=10)
    with dbdf.Reader(path) as reader:
        assert len(reader) == 4 * 3


@pytest.mark.parametrize("target", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_loading_as_another_dtype_converts_exactly(tmp_path, target):
    matrix = np.array([[0, 1, 2], [100, 127, 5]], dtype=np.uint8)
    path = tmp_path / "m.dbdf"
    dbdf.save(path, matrix)
    assert_same(dbdf.load(path, dtype=target), matrix.astype(target))
    with dbdf.Reader(path) as reader:
        assert_same(reader.read_dense(dtype=dbdf.ValueType.F64), matrix.astype(np.float64))


def test_values_that_do_not_fit_are_refused_not_truncated(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, np.array([[1, 300]], dtype=np.int64))
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(path, dtype=np.uint8)
    assert caught.value.status == dbdf.Status.RANGE
    assert "300" in caught.value.message


def test_unsupported_arrays_are_refused(tmp_path):
    path = tmp_path / "m.dbdf"
    for values in (np.zeros((2, 2), dtype=np.float16), np.zeros((2, 2), dtype=np.complex128),
                   np.array([["a", "b"]]), np.zeros((2, 2), dtype=bool)):
        with pytest.raises(TypeError, match="cannot be stored"):
            dbdf.save(path, values)
    with pytest.raises(ValueError, match="3-dimensional"):
        dbdf.save(path, np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="encoding"):
        dbdf.save(path, np.zeros((2, 2)), encoding="zip")
    assert not path.exists()


def test_a_failed_save_leaves_the_existing_file_untouched(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, np.ones((2, 2)))
    before = path.read_bytes()
    with pytest.raises(TypeError):
        dbdf.save(path, np.zeros((2, 2), dtype=np.complex64))
    assert path.read_bytes() == before
    assert [entry.name for entry in tmp_path.iterdir()] == ["m.dbdf"]


def test_memory_round_trip():
    matrix = extremes(np.int16)
    with dbdf.Writer.to_memory() as writer:
        writer.begin_matrix(dbdf.DataType.DENSE, dbdf.ValueType.I16, *matrix.shape)
        writer.write_dense(matrix, block=(2, 3))
        writer.finish()
        data = writer.getvalue()
        assert writer.bytes_written == len(data)
    assert_same(dbdf.load(data), matrix)
