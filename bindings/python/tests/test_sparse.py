"""SciPy sparse matrices in and out: every format becomes a CSR object, values and explicit zeros survive, the
caller's matrix is never modified."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import ALL_DTYPES, VECTORS_DIR, assert_same, sparse_to_dense


def sample(dtype=np.float64) -> scipy.sparse.csr_matrix:
    dense = np.zeros((40, 30), dtype=dtype)
    dense[0, 0] = 1
    dense[3, 29] = 2
    dense[17, 5:15] = 3
    dense[39, 29] = 4
    return scipy.sparse.csr_matrix(dense)


FORMATS = ["csr", "csc", "coo", "lil", "dok", "bsr", "dia"]


@pytest.mark.parametrize("format_name", FORMATS)
def test_every_scipy_format_is_saved_as_csr(tmp_path, format_name):
    matrix = sample().asformat(format_name)
    path = tmp_path / "s.dbdf"
    dbdf.save(path, matrix, block=(16, 16))
    with dbdf.Reader(path) as reader:
        assert reader.info.data_type == dbdf.DataType.CSR
        assert reader.info.value_type == dbdf.ValueType.F64
    loaded = dbdf.load(path)
    assert isinstance(loaded, scipy.sparse.csr_matrix)
    assert loaded.nnz == sample().nnz
    assert_same(loaded.toarray(), sample().toarray())


def test_sparse_arrays_as_well_as_matrices(tmp_path):
    path = tmp_path / "s.dbdf"
    dbdf.save(path, scipy.sparse.csr_array(sample()))
    assert_same(dbdf.load(path).toarray(), sample().toarray())


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda dtype: np.dtype(dtype).name)
def test_every_dtype(tmp_path, dtype):
    matrix = sample(dtype)
    path = tmp_path / "s.dbdf"
    dbdf.save(path, matrix, encoding="csr")
    loaded = dbdf.load(path)
    assert loaded.dtype == np.dtype(dtype)
    assert_same(loaded.toarray(), matrix.toarray())


def test_negative_zero_and_nan_survive(tmp_path):
    matrix = scipy.sparse.csr_matrix((np.array([-0.0, np.nan, 5e-324]), np.array([1, 0, 2]), np.array([0, 1, 3])),
                                     shape=(2, 3))
    path = tmp_path / "s.dbdf"
    dbdf.save(path, matrix, encoding="as-given")
    assert_same(sparse_to_dense(dbdf.load(path)), sparse_to_dense(matrix))


def test_explicit_zeros_are_kept_when_the_encoding_is_given(tmp_path):
    matrix = scipy.sparse.csr_matrix((np.array([0.0, 2.0]), np.array([0, 1]), np.array([0, 2])), shape=(1, 2))
    path = tmp_path / "s.dbdf"
    dbdf.save(path, matrix, encoding="csr")
    with dbdf.Reader(path) as reader:
        assert [block.stored_values for block in reader] == [2]
    assert dbdf.load(path).nnz == 2


def test_unsorted_and_duplicate_entries_are_canonicalised_without_touching_the_input(tmp_path):
    coo = scipy.sparse.coo_matrix((np.array([1.0, 2.0, 3.0, 4.0]), (np.array([1, 0, 1, 0]), np.array([2, 1, 2, 0]))),
                                  shape=(2, 3))
    csr = scipy.sparse.csr_matrix((np.array([2.0, 1.0]), np.array([2, 0]), np.array([0, 2, 2])), shape=(2, 3))
    assert not csr.has_sorted_indices
    indices_before = csr.indices.copy()
    path = tmp_path / "s.dbdf"
    dbdf.save(path, coo)
    assert_same(dbdf.load(path).toarray(), np.array([[4.0, 2.0, 0.0], [0.0, 0.0, 4.0]]))
    dbdf.save(path, csr)
    assert_same(dbdf.load(path).toarray(), np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0]]))
    np.testing.assert_array_equal(csr.indices, indices_before)


@pytest.mark.parametrize("shape", [(0, 0), (0, 4), (4, 0), (5, 5)])
def test_matrices_without_entries(tmp_path, shape):
    path = tmp_path / "s.dbdf"
    dbdf.save(path, scipy.sparse.csr_matrix(shape, dtype=np.int32))
    loaded = dbdf.load(path)
    assert loaded.shape == shape and loaded.nnz == 0 and loaded.dtype == np.int32


def test_a_dense_object_read_as_csr_and_a_csr_object_read_dense():
    with dbdf.Reader(VECTORS_DIR / "mixed_block_types_f64.dbdf") as reader:
        dense = reader.read_dense()
        csr = reader.read_csr()
        arrays = reader.read_csr_arrays(dtype=np.float64)
    assert_same(sparse_to_dense(csr), dense)
    assert arrays.col_indices.dtype == np.uint64
    assert_same(arrays.values, csr.data)
    with dbdf.Reader(VECTORS_DIR / "csr_matrix_dense_blocks.dbdf") as reader:
        assert_same(reader.read_dense(), sparse_to_dense(reader.read_csr()))


def test_loading_sparse_as_another_dtype(tmp_path):
    path = tmp_path / "s.dbdf"
    dbdf.save(path, sample(np.int16))
    loaded = dbdf.load(path, dtype=np.float32)
    assert loaded.dtype == np.float32
    assert_same(loaded.toarray(), sample(np.float32).toarray())


def test_a_large_sparse_matrix_over_many_tiles(tmp_path):
    matrix = scipy.sparse.random(3000, 2000, density=0.001, format="csr", dtype=np.float64,
                                 random_state=np.random.default_rng(3))
    path = tmp_path / "s.dbdf"
    dbdf.save(path, matrix, block=(512, 512))
    with dbdf.Reader(path) as reader:
        assert len(reader) == 6 * 4
    loaded = dbdf.load(path)
    assert (loaded != matrix).nnz == 0


def test_block_csr_arrays_become_scipy_without_copying_the_column_indices():
    with dbdf.Reader(VECTORS_DIR / "csr_f64.dbdf") as reader:
        for block in reader:
            arrays = block.decode_csr()
            matrix = arrays.to_scipy()
            assert_same(sparse_to_dense(matrix), block.decode_dense())
            # uint32 block-local indices are viewed as int32, the index dtype SciPy picks for them
            assert matrix.indices.dtype == np.int32
            assert arrays.col_indices.size == 0 or np.shares_memory(matrix.indices, arrays.col_indices)
        assert any(block.count_entries() for block in reader)


def test_object_csr_arrays_with_64_bit_indices_become_scipy_without_copies():
    cols = 3_000_000_000  # more columns than int32 indices can address: SciPy keeps int64 indices
    with dbdf.Writer.to_memory() as writer:
        writer.begin_matrix("csr", np.float64, 2, cols)
        writer.add_csr(0, 0, (2, cols), [0, 1, 2], [cols - 1, 7], np.array([1.5, -2.0]))
        writer.finish()
        data = writer.getvalue()
    with dbdf.Reader.from_bytes(data) as reader:
        arrays = reader.read_csr_arrays()
        matrix = arrays.to_scipy()
        assert matrix.indices.dtype == np.int64 and matrix.indptr.dtype == np.int64
        assert np.shares_memory(matrix.indices, arrays.col_indices)
        assert np.shares_memory(matrix.indptr, arrays.row_offsets)
        assert matrix.indices.tolist() == [cols - 1, 7]
        assert matrix[0, cols - 1] == 1.5 and matrix[1, 7] == -2.0
        loaded = reader.read_csr()
        assert loaded.shape == (2, cols) and loaded.indptr.tolist() == [0, 1, 2]
