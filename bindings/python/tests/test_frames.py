"""Frames: dicts of columns and pandas DataFrames in, DataFrames (or dicts without pandas) out."""

from __future__ import annotations

import numpy as np
import pandas
import pytest

import dbdf
from conftest import ALL_DTYPES, assert_same


def columns() -> dict[str, np.ndarray]:
    return {
        "id": np.array([1, 2, 3, -4], dtype=np.int64),
        "prix élevé": np.array([0.5, -0.0, np.inf, 1e-310], dtype=np.float64),
        "": np.array([0, 255, 1, 2], dtype=np.uint8),
        "ratio": np.array([1.5, 2.5, -3.5, 0.0], dtype=np.float32),
    }


def test_dict_of_columns_round_trips_as_dataframe(tmp_path):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, columns())
    loaded = dbdf.load(path)
    assert isinstance(loaded, pandas.DataFrame)
    assert list(loaded.columns) == list(columns())
    for label, expected in columns().items():
        assert_same(loaded[label].to_numpy(), expected)


def test_dataframe_round_trips(tmp_path):
    frame = pandas.DataFrame(columns())
    path = tmp_path / "f.dbdf"
    dbdf.save(path, frame)
    with dbdf.Reader(path) as reader:
        assert reader.info.data_type == dbdf.DataType.FRAME
        assert reader.column_labels == list(columns())
        assert reader.column_types == [dbdf.ValueType.I64, dbdf.ValueType.F64, dbdf.ValueType.U8,
                                       dbdf.ValueType.F32]
    pandas.testing.assert_frame_equal(dbdf.load(path), frame)


def test_without_pandas_frames_are_dicts(tmp_path, without_pandas):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, columns())
    loaded = dbdf.load(path)
    assert type(loaded) is dict
    assert list(loaded) == list(columns())
    for label, expected in columns().items():
        assert_same(loaded[label], expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_every_column_dtype(tmp_path, dtype, without_pandas):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "ui" else np.finfo(dtype)
    values = np.array([info.min, 0, info.max], dtype=dtype)
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {"c": values, "other": np.arange(3, dtype=np.int8)})
    assert_same(dbdf.load(path)["c"], values)


def test_dtype_for_all_columns_or_by_label(tmp_path, without_pandas):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {"a": np.array([1, 2], dtype=np.int32), "b": np.array([3, 4], dtype=np.uint16)})
    every = dbdf.load(path, dtype=np.float64)
    assert every["a"].dtype == every["b"].dtype == np.float64
    some = dbdf.load(path, dtype={"b": np.int64})
    assert some["a"].dtype == np.int32 and some["b"].dtype == np.int64
    assert_same(some["b"], np.array([3, 4], dtype=np.int64))


def test_rows_per_block(tmp_path):
    path = tmp_path / "f.dbdf"
    frame = {"x": np.arange(10, dtype=np.int64), "y": np.arange(10, dtype=np.float64) / 4}
    dbdf.save(path, frame, block=4)
    with dbdf.Reader(path) as reader:
        blocks = [(block.row, block.col, block.rows, block.cols) for block in reader]
    assert sorted(blocks) == sorted([(row, col, min(4, 10 - row), 1) for row in (0, 4, 8) for col in (0, 1)])
    loaded = dbdf.load(path)
    assert_same(loaded["y"].to_numpy(), frame["y"])


def test_empty_frames(tmp_path, without_pandas):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {"a": np.array([], dtype=np.int8)})
    assert_same(dbdf.load(path)["a"], np.array([], dtype=np.int8))
    dbdf.save(path, {})
    assert dbdf.load(path) == {}


def test_bad_frames_are_refused(tmp_path):
    path = tmp_path / "f.dbdf"
    with pytest.raises(ValueError, match="different lengths"):
        dbdf.save(path, {"a": [1, 2], "b": [1, 2, 3]})
    with pytest.raises(TypeError, match="labels must be str"):
        dbdf.save(path, {1: [1, 2]})
    with pytest.raises(TypeError, match="labels must be str"):
        dbdf.save(path, pandas.DataFrame(np.zeros((2, 2))))
    with pytest.raises(ValueError, match="1-D"):
        dbdf.save(path, {"a": np.zeros((2, 2))})
    with pytest.raises(TypeError, match="cannot be stored"):
        dbdf.save(path, {"a": np.array(["x", "y"])})
    duplicate = pandas.DataFrame([[1, 2]], columns=["same", "same"])
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.save(path, duplicate)
    assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
    assert "rule 16" in caught.value.message
    assert not path.exists()


def test_labels_that_are_not_utf8_or_hold_nul_bytes_survive(tmp_path, without_pandas):
    latin1 = b"caf\xe9".decode("utf-8", "surrogateescape")
    labels = [latin1, "a\x00b", "日本"]
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {label: np.array([1], dtype=np.int8) for label in labels})
    assert list(dbdf.load(path)) == labels


def test_frame_blocks_decode_with_their_column_types(tmp_path):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {"a": np.array([1, 2], dtype=np.int16), "b": np.array([0.5, 1.0], dtype=np.float32)})
    with dbdf.Reader(path) as reader:
        for block in reader:
            assert block.decode_dense().dtype == (np.int16 if block.col == 0 else np.float32)
        with pytest.raises(TypeError, match="several column types"):
            reader.read_dense()
        assert_same(reader.read_dense(dtype=np.float64), np.array([[1.0, 0.5], [2.0, 1.0]]))


def test_columns_decode_into_caller_arrays(tmp_path):
    path = tmp_path / "f.dbdf"
    dbdf.save(path, {"id": np.arange(5, dtype=np.int64), "score": np.linspace(0.0, 1.0, 5)}, block=2)
    with dbdf.Reader(path) as reader:
        out = np.full(5, -1, dtype=np.int64)
        assert reader.read_column("id", out=out) is out
        assert out.tolist() == [0, 1, 2, 3, 4]
        wider = np.empty(5, dtype=np.float32)
        assert reader.read_column(1, dtype=np.float32, out=wider) is wider
        assert wider.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
        buffer = np.zeros(8, dtype=np.int32)
        reader.read_column(0, out=buffer[2:7])  # a contiguous window of a larger array
        assert buffer.tolist() == [0, 0, 0, 1, 2, 3, 4, 0]
        with pytest.raises(ValueError, match="contiguous"):
            reader.read_column(0, out=np.empty(10, dtype=np.int64)[::2])
        with pytest.raises(ValueError, match="4 elements, the column has 5"):
            reader.read_column(0, out=np.empty(4, dtype=np.int64))
        with pytest.raises(ValueError, match="differs from out's dtype"):
            reader.read_column(0, dtype=np.int32, out=np.empty(5, dtype=np.int64))
        with pytest.raises(TypeError, match="1-D"):
            reader.read_column(0, out=np.empty((5, 1), dtype=np.int64))
        read_only = np.empty(5, dtype=np.int64)
        read_only.flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            reader.read_column(0, out=read_only)
        with pytest.raises(dbdf.DbdfError) as caught:  # 0.25 is no integer: converted exactly or not at all
            reader.read_column("score", out=np.empty(5, dtype=np.int64))
        assert caught.value.status == dbdf.Status.RANGE
