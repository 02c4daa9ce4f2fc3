"""The package agrees with the dbdf CLI's .npy conversion in both directions."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import ALL_DTYPES, MATRICES, assert_same, ids, sparse_to_dense, vector_path

CLI = os.environ.get("DBDF_CLI")
if not CLI:
    pytest.skip("DBDF_CLI (path of the dbdf command-line tool) is not set", allow_module_level=True)


def convert(source, target) -> None:
    result = subprocess.run([CLI, "convert", str(source), str(target)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def as_dense(loaded) -> np.ndarray:
    return sparse_to_dense(loaded) if scipy.sparse.issparse(loaded) else loaded


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_cli_npy_of_every_golden_matrix_equals_load(tmp_path, vector):
    target = tmp_path / "out.npy"
    convert(vector_path(vector), target)
    assert_same(np.load(target), as_dense(dbdf.load(vector_path(vector))))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
@pytest.mark.parametrize("layout", ["C", "F", "big-endian", "1-D"])
def test_numpy_files_converted_by_the_cli_load_as_numpy_reads_them(tmp_path, dtype, layout):
    matrix = (np.arange(24).reshape(4, 6) * 37 % 101).astype(dtype)
    if np.dtype(dtype).kind == "f":
        matrix[1, 2], matrix[3, 5] = -0.0, np.nan
    array = {"C": matrix, "F": np.asfortranarray(matrix), "1-D": matrix[:, 1],
             "big-endian": matrix.astype(matrix.dtype.newbyteorder(">"))}[layout]
    source = tmp_path / "in.npy"
    np.save(source, array)
    target = tmp_path / "out.dbdf"
    convert(source, target)
    expected = np.load(source).astype(matrix.dtype)
    assert_same(dbdf.load(target), expected.reshape(expected.shape[0], -1))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_saved_files_converted_by_the_cli_match(tmp_path, dtype):
    matrix = (np.arange(300).reshape(20, 15) % 7 == 0).astype(dtype) * 3
    dense_path, sparse_path = tmp_path / "dense.dbdf", tmp_path / "sparse.dbdf"
    dbdf.save(dense_path, matrix, block=(8, 8))
    dbdf.save(sparse_path, scipy.sparse.csc_matrix(matrix), block=(8, 8))
    for path in (dense_path, sparse_path):
        target = path.with_suffix(".npy")
        convert(path, target)
        assert_same(np.load(target), matrix)
