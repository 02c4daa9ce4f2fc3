"""Every golden file of tests/vectors, read every way the package offers, against vectors.json."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import (FRAMES, MATRICES, VALID, assert_same, bits, expected_columns, expected_matrix, ids,
                      sparse_to_dense,
                      value_type, vector_path)


def expected_of(vector) -> np.ndarray:
    """The object as one 2-D array (frames: only used when every column has one type)."""
    if vector["data_type"] != "frame":
        return expected_matrix(vector)
    columns = list(expected_columns(vector).values())
    return np.stack(columns, axis=1) if columns else np.empty((vector["rows"], 0))


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_load_matrix(vector):
    loaded = dbdf.load(vector_path(vector))
    expected = expected_matrix(vector)
    if vector["data_type"] == "dense":
        assert_same(loaded, expected)
    else:
        assert isinstance(loaded, scipy.sparse.csr_matrix)
        assert loaded.shape == expected.shape
        assert loaded.dtype == expected.dtype
        assert_same(sparse_to_dense(loaded), expected)
        assert loaded.has_sorted_indices


@pytest.mark.parametrize("vector", FRAMES, ids=ids(FRAMES))
def test_load_frame_as_dataframe(vector):
    import pandas
    loaded = dbdf.load(vector_path(vector))
    assert isinstance(loaded, pandas.DataFrame)
    assert list(loaded.columns) == vector["labels"]
    for label, expected in expected_columns(vector).items():
        assert_same(loaded[label].to_numpy(), expected)


@pytest.mark.parametrize("vector", FRAMES, ids=ids(FRAMES))
def test_load_frame_as_dict(vector, without_pandas):
    loaded = dbdf.load(vector_path(vector))
    assert isinstance(loaded, dict)
    expected = expected_columns(vector)
    assert list(loaded) == list(expected)
    for label in expected:
        assert_same(loaded[label], expected[label])


@pytest.mark.parametrize("vector", VALID, ids=ids(VALID))
def test_header_and_block_list(vector):
    with dbdf.Reader(vector_path(vector)) as reader:
        info = reader.info
        assert info.data_type == dbdf.DataType[vector["data_type"].upper()]
        assert info.shape == (vector["rows"], vector["cols"])
        assert info.value_type == value_type(vector.get("value_type"))
        if vector["data_type"] == "frame":
            assert reader.column_labels == vector["labels"]
            assert reader.column_types == [value_type(name) for name in vector["column_types"]]
        else:
            assert reader.column_labels == []
        blocks = [block.info for block in reader]
        assert len(blocks) == len(vector["blocks"])
        for index, (block, described) in enumerate(zip(blocks, vector["blocks"])):
            assert block.index == index
            assert (block.row, block.col, block.rows, block.cols) == (
                described["row"], described["col"], described["rows"], described["cols"])
            assert block.block_type == dbdf.BlockType[described["block_type"].upper()]
            assert block.value_type == value_type(described["value_type"])
            assert block.stored_values == described["stored_values"]
        assert len(reader) == len(blocks)
        assert [reader.index_entry(index) for index in range(len(blocks))] == blocks


def frame_block_dtype(vector, block):
    if vector["data_type"] != "frame":
        return None
    types = {vector["column_types"][column] for column in range(block.col, block.col + block.cols)}
    return value_type(types.pop()).dtype if len(types) == 1 else None


@pytest.mark.parametrize("vector", VALID, ids=ids(VALID))
def test_every_block_decodes_dense_csr_and_coo(vector):
    columns = expected_columns(vector) if vector["data_type"] == "frame" else None
    with dbdf.Reader(vector_path(vector)) as reader:
        for block in reader:
            if columns is not None:
                window = np.stack([list(columns.values())[column][block.row:block.row + block.rows]
                                   for column in range(block.col, block.col + block.cols)], axis=1)
                window = window.reshape(block.rows, block.cols)
            else:
                matrix = expected_matrix(vector)
                window = matrix[block.row:block.row + block.rows, block.col:block.col + block.cols]
            assert_same(block.decode_dense(), window)

            csr = block.decode_csr()
            assert csr.row_offsets.dtype == np.uint64 and csr.col_indices.dtype == np.uint32
            assert csr.row_offsets[0] == 0 and csr.row_offsets[-1] == csr.values.size == block.count_entries()
            scattered = np.zeros_like(window)
            rows_of_entries = np.repeat(np.arange(block.rows), np.diff(csr.row_offsets.astype(np.int64)))
            scattered[rows_of_entries, csr.col_indices] = csr.values
            assert_same(scattered, window)
            assert_same(sparse_to_dense(csr.to_scipy()), window)

            coo = block.decode_coo()
            scattered = np.zeros_like(window)
            scattered[coo.row_indices, coo.col_indices] = coo.values
            assert_same(scattered, window)
            assert_same(coo.row_indices, rows_of_entries.astype(np.uint32))
            assert_same(coo.col_indices, csr.col_indices)
            assert_same(sparse_to_dense(coo.to_scipy()), window)

            if block.block_type == dbdf.BlockType.EMPTY:
                assert csr.values.size == 0
                assert window.size == 0 or not bits(window).any()


@pytest.mark.parametrize("vector", VALID, ids=ids(VALID))
def test_payload_is_the_stored_bytes(vector):
    with dbdf.Reader(vector_path(vector)) as reader:
        for block in reader:
            payload = block.payload()
            assert payload.readonly
            assert len(payload) < block.encoded_bytes
            if block.block_type == dbdf.BlockType.DENSE:
                own_type = block.value_type.dtype
                assert len(payload) == block.rows * block.cols * own_type.itemsize
                stored = np.frombuffer(payload, dtype=own_type.newbyteorder("<")).reshape(block.shape)
                assert_same(stored.astype(own_type), block.decode_dense(dtype=own_type))
            elif block.block_type == dbdf.BlockType.EMPTY:
                assert len(payload) == 0


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_whole_object_reads(vector):
    expected = expected_matrix(vector)
    rows, cols = expected.shape
    with dbdf.Reader(vector_path(vector)) as reader:
        assert_same(reader.read_dense(), expected)
        if rows >= 2 and cols >= 2:
            assert_same(reader.read_window(1, 1, rows - 1, cols - 1), expected[1:, 1:])
        for column in range(cols):
            assert_same(reader.read_column(column), expected[:, column])
        csr = reader.read_csr()
        assert_same(sparse_to_dense(csr), expected)
        assert reader.count_entries() == csr.nnz
        assert reader.validate() == []


@pytest.mark.parametrize("vector", FRAMES, ids=ids(FRAMES))
def test_frame_columns_by_index_and_label(vector):
    with dbdf.Reader(vector_path(vector)) as reader:
        for column, (label, expected) in enumerate(expected_columns(vector).items()):
            assert reader.column_label(column) == label
            assert_same(reader.read_column(column), expected)
            assert_same(reader.read_column(label), expected)
        with pytest.raises(KeyError):
            reader.read_column("no such column")


@pytest.mark.parametrize("vector", VALID, ids=ids(VALID))
def test_reading_from_memory_equals_reading_the_file(vector):
    with open(vector_path(vector), "rb") as file:
        data = file.read()
    with dbdf.Reader.from_bytes(data) as reader:
        assert reader.info == dbdf.Reader(vector_path(vector)).info
        assert [block.info for block in reader] == [block.info for block in dbdf.Reader(vector_path(vector))]
    from_memory = dbdf.load(bytearray(data), dtype=np.float64 if vector["data_type"] == "frame" else None)
    if vector["data_type"] == "dense":
        assert_same(from_memory, expected_matrix(vector))
    elif vector["data_type"] == "csr":
        assert_same(sparse_to_dense(from_memory), expected_matrix(vector))
