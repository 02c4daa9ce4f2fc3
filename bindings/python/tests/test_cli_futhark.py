"""The dbdf CLI's Futhark binary data conversion agrees with futhark-data (Futhark's own reader and writer of the
format) in both directions: every element type, scalars, rank-1 and rank-2 arrays, empty arrays, and files of
several values (a frame of columns)."""

from __future__ import annotations

import os
import subprocess

import futhark_data
import numpy as np
import pytest

import dbdf

CLI = os.environ.get("DBDF_CLI")
if not CLI:
    pytest.skip("DBDF_CLI (path of the dbdf command-line tool) is not set", allow_module_level=True)

# Futhark's element types as NumPy dtypes, and the dbdf value type each is read into (f16 into f32, bool into u8).
ELEMENTS = {np.int8: np.int8, np.int16: np.int16, np.int32: np.int32, np.int64: np.int64, np.uint8: np.uint8,
            np.uint16: np.uint16, np.uint32: np.uint32, np.uint64: np.uint64, np.float16: np.float32,
            np.float32: np.float32, np.float64: np.float64, np.bool_: np.uint8}

# Futhark shape -> dbdf shape: rank 0 is 1 x 1, rank 1 n x 1, rank 2 as it is. Every type in these; the empty rank-2
# shapes (0, 3) and (2, 0) for a few types (each case runs the tool twice).
SHAPES = [(), (5,), (0,), (2, 3)]
EMPTY_RANK_TWO = [(np.float16, (0, 3)), (np.bool_, (2, 0)), (np.int32, (0, 3)), (np.uint64, (2, 0))]


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([CLI, *arguments], capture_output=True, text=True)


def sample(dtype, shape) -> np.ndarray:
    """Values of `dtype` in `shape` that reach the type's extremes (and -0.0, infinities, NaN and subnormals for the
    float types)."""
    count = int(np.prod(shape))
    if dtype is np.bool_:
        values = np.arange(count) % 3 == 1
    elif np.dtype(dtype).kind == "f":
        info = np.finfo(dtype)
        pool = np.array([0.0, -0.0, 1.5, -2.25, info.max, info.min, info.tiny, info.smallest_subnormal, np.inf,
                         -np.inf, np.nan], dtype=dtype)
        values = pool[np.arange(count) % len(pool)]
    else:
        info = np.iinfo(dtype)
        pool = np.array([0, 1, info.max, info.min, info.max // 3], dtype=dtype)
        values = pool[np.arange(count) % len(pool)]
    return np.asarray(values, dtype=dtype).reshape(shape)


def dbdf_shape(shape) -> tuple[int, int]:
    return (1, 1) if len(shape) == 0 else (shape[0], 1) if len(shape) == 1 else shape


def same(expected: np.ndarray, actual: np.ndarray) -> None:
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    # Bit for bit, so -0.0 and NaN count.
    assert actual.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dtype,shape", [(dtype, shape) for dtype in ELEMENTS for shape in SHAPES] + EMPTY_RANK_TWO,
                         ids=lambda case: np.dtype(case).name if isinstance(case, type) else
                         "x".join(map(str, case)) or "scalar")
def test_futhark_data_files_convert_and_come_back(tmp_path, dtype, shape):
    value = sample(dtype, shape)
    source = tmp_path / "in.fut"
    source.write_bytes(futhark_data.dumpb(value[()] if shape == () else value))
    converted = tmp_path / "out.dbdf"
    result = run("convert", str(source), str(converted), "--from", "futhark")
    assert result.returncode == 0, result.stderr
    read_type = ELEMENTS[dtype]
    with dbdf.Reader(converted) as reader:
        assert reader.shape == dbdf_shape(shape)
        stored = reader.read_dense(read_type)
    # f16 widens exactly to f32, bool reads as 0 and 1.
    same(value.astype(read_type).reshape(dbdf_shape(shape)), stored)

    back = tmp_path / "back.fut"
    result = run("convert", str(converted), str(back), "--to", "futhark", *(["--bool"] if dtype is np.bool_ else []))
    assert result.returncode == 0, result.stderr
    (loaded,) = list(futhark_data.loadb(back.read_bytes()))
    expected = value.astype(np.float32) if dtype is np.float16 else value
    same(np.asarray(expected), np.asarray(loaded))
    if dtype is not np.float16:  # the same bytes futhark-data writes
        assert back.read_bytes() == source.read_bytes()


@pytest.mark.parametrize("dtype", [d for d in ELEMENTS if d not in (np.float16, np.bool_)],
                         ids=lambda dtype: np.dtype(dtype).name)
def test_dbdf_matrices_are_what_futhark_data_reads(tmp_path, dtype):
    matrix = sample(dtype, (4, 3))
    source = tmp_path / "m.dbdf"
    dbdf.save(source, matrix)
    target = tmp_path / "m.fut"
    result = run("convert", str(source), str(target), "--to", "futhark")
    assert result.returncode == 0, result.stderr
    (loaded,) = list(futhark_data.loadb(target.read_bytes()))
    same(matrix, loaded)


def test_several_values_are_a_frame_of_columns_and_come_back(tmp_path):
    columns = [sample(np.int16, (4,)), sample(np.float64, (4,)), sample(np.bool_, (4,)), sample(np.float16, (4,))]
    source = tmp_path / "cols.fut"
    source.write_bytes(b"".join(futhark_data.dumpb(column) for column in columns))
    frame = tmp_path / "cols.dbdf"
    result = run("convert", str(source), str(frame), "--from", "futhark")
    assert result.returncode == 0, result.stderr
    with dbdf.Reader(frame) as reader:
        assert reader.info.data_type == dbdf.DataType.FRAME
        read = reader.read_frame()
    assert list(read) == ["col_0", "col_1", "col_2", "col_3"]
    same(columns[0], read["col_0"])
    same(columns[1], read["col_1"])
    same(columns[2].astype(np.uint8), read["col_2"])
    same(columns[3].astype(np.float32), read["col_3"])
    back = tmp_path / "back.fut"
    result = run("convert", str(frame), str(back), "--to", "futhark", "--bool")
    assert result.returncode == 0, result.stderr
    loaded = list(futhark_data.loadb(back.read_bytes()))
    assert len(loaded) == 4
    for expected, actual in zip([columns[0], columns[1], columns[2], columns[3].astype(np.float32)], loaded):
        same(expected, actual)


def test_several_scalars_or_lengths_that_differ_are_refused(tmp_path):
    source = tmp_path / "ragged.fut"
    source.write_bytes(futhark_data.dumpb(np.arange(3, dtype=np.int32)) + futhark_data.dumpb(np.arange(2,
                                                                                                     dtype=np.int32)))
    result = run("convert", str(source), str(tmp_path / "r.dbdf"), "--from", "futhark")
    assert result.returncode == 1
    assert "value 2 at byte 27 has 2 elements where value 1 has 3" in result.stderr
    source.write_bytes(futhark_data.dumpb(np.zeros((2, 2, 2), dtype=np.float32)))
    result = run("convert", str(source), str(tmp_path / "r.dbdf"), "--from", "futhark")
    assert result.returncode == 1
    assert "an array of rank 3 cannot be a .dbdf object" in result.stderr
