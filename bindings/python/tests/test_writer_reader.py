"""Writer block by block and Reader navigation: call order, discarding on errors, index and seek, decoding into
caller arrays, payload lifetime."""

from __future__ import annotations

import gc

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import VECTORS_DIR, assert_same


def build_block_by_block(writer: dbdf.Writer) -> np.ndarray:
    """A 6 x 6 f64 matrix from one block of each kind; returns what it holds."""
    writer.begin_matrix("dense", np.float64, 6, 6)
    writer.add_dense(0, 0, np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), encoding="as-given")
    writer.add_csr(0, 3, (2, 3), [0, 1, 2], [2, 0], np.array([7.0, 8.0]), encoding="as-given")
    writer.add_coo(2, 0, (4, 3), [0, 3], [1, 2], np.array([9.0, -1.0]), encoding="as-given")
    writer.add_sparse(2, 3, scipy.sparse.coo_matrix(([0.5], ([1], [1])), shape=(2, 3)), encoding="as-given")
    writer.add_empty(4, 3, (2, 3))
    expected = np.zeros((6, 6))
    expected[0:2, 0:3] = [[1, 2, 3], [4, 5, 6]]
    expected[0, 5], expected[1, 3] = 7.0, 8.0
    expected[2, 1], expected[5, 2] = 9.0, -1.0
    expected[3, 4] = 0.5
    return expected


def test_block_by_block(tmp_path):
    path = tmp_path / "m.dbdf"
    with dbdf.Writer(path) as writer:
        expected = build_block_by_block(writer)
        writer.finish()
        assert writer.finished
        written = writer.bytes_written
    assert path.stat().st_size == written
    assert_same(dbdf.load(path), expected)
    with dbdf.Reader(path) as reader:
        assert [block.block_type for block in reader] == [
            dbdf.BlockType.DENSE, dbdf.BlockType.CSR, dbdf.BlockType.COO, dbdf.BlockType.CSR,
            dbdf.BlockType.EMPTY]


def test_leaving_with_normally_finishes(tmp_path):
    path = tmp_path / "m.dbdf"
    with dbdf.Writer(path) as writer:
        expected = build_block_by_block(writer)
    assert_same(dbdf.load(path), expected)


def test_leaving_with_an_exception_discards(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, np.full((2, 2), 9, dtype=np.uint8))
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match="stop"):
        with dbdf.Writer(path) as writer:
            build_block_by_block(writer)
            raise RuntimeError("stop")
    assert path.read_bytes() == before
    assert [entry.name for entry in tmp_path.iterdir()] == ["m.dbdf"]  # no temporary file left


def test_uncovered_cells_fail_finish_and_the_writer_stays_usable(tmp_path):
    path = tmp_path / "m.dbdf"
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("dense", np.int32, 2, 2)
        writer.add_dense(0, 0, np.array([[1, 2]], dtype=np.int32))
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.finish()
        assert caught.value.status == dbdf.Status.FORMAT
        assert "rule 1" in caught.value.message
        writer.add_dense(1, 0, np.array([[3, 4]], dtype=np.int32))
    assert_same(dbdf.load(path), np.array([[1, 2], [3, 4]], dtype=np.int32))


def test_leaving_with_uncovered_cells_raises_and_writes_nothing(tmp_path):
    path = tmp_path / "m.dbdf"
    with pytest.raises(dbdf.DbdfError) as caught:
        with dbdf.Writer(path) as writer:
            writer.begin_matrix("dense", np.int32, 2, 2)
    assert caught.value.status == dbdf.Status.FORMAT
    assert not path.exists()


def test_call_order_and_argument_errors(tmp_path):
    with dbdf.Writer.to_memory() as writer:
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.add_empty(0, 0, (1, 1))
        assert caught.value.status == dbdf.Status.CALL_ORDER
        writer.begin_matrix(dbdf.DataType.DENSE, dbdf.ValueType.U8, 2, 2)
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.begin_matrix("dense", np.uint8, 2, 2)
        assert caught.value.status == dbdf.Status.CALL_ORDER
        writer.add_empty(0, 0, (1, 2))
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.add_empty(0, 1, (2, 1))  # overlaps the first block
        assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.add_dense(1, 0, np.array([[1, 300]], dtype=np.int64))  # 300 is not a u8 (rule 8)
        assert caught.value.status == dbdf.Status.RANGE
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.add_csr(1, 0, (1, 2), [0, 2], [1, 0], np.array([1, 2], dtype=np.uint8))  # unsorted
        assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
        with pytest.raises(ValueError, match="indices"):
            writer.add_coo(1, 0, (1, 2), [0], [0, 1], np.array([1, 2], dtype=np.uint8))
        with pytest.raises(ValueError, match="negative"):
            writer.add_coo(1, 0, (1, 2), [0, -1], [0, 1], np.array([1, 2], dtype=np.uint8))
        writer.add_dense(1, 0, np.array([[1, 255]], dtype=np.int64))
        writer.finish()
        data = writer.getvalue()
    assert_same(dbdf.load(data), np.array([[0, 0], [1, 255]], dtype=np.uint8))
    with pytest.raises(ValueError, match="closed"):
        writer.finish()
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.Writer(tmp_path / "no such directory" / "m.dbdf")
    assert caught.value.status == dbdf.Status.IO


def test_whole_matrix_from_csr_arrays_and_frame_columns_by_label(tmp_path):
    path = tmp_path / "m.dbdf"
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("csr", np.float32, 3, 4)
        writer.write_csr(np.array([0, 1, 1, 3]), np.array([3, 0, 2]), np.array([1.5, -2.0, 4.0], dtype=np.float32),
                         block=(2, 2))
    expected = np.array([[0, 0, 0, 1.5], [0, 0, 0, 0], [-2.0, 0, 4.0, 0]], dtype=np.float32)
    assert_same(dbdf.load(path).toarray(), expected)

    with dbdf.Writer(path) as writer:
        writer.begin_frame(3, {"a": np.int8, "b": dbdf.ValueType.F64})
        writer.write_column("b", np.array([0.5, 1.5, 2.5]), block_rows=2)
        writer.write_column(0, np.array([1, 2, 3], dtype=np.int64))  # values fit the column's i8
        with pytest.raises(KeyError):
            writer.write_column("c", np.array([1, 2, 3]))
    with dbdf.Reader(path) as reader:
        assert_same(reader.read_column("a"), np.array([1, 2, 3], dtype=np.int8))
        assert_same(reader.read_column("b"), np.array([0.5, 1.5, 2.5]))
        assert len(reader) == 3


def test_index_seek_and_random_access():
    with dbdf.Reader(VECTORS_DIR / "multi_block_shuffled.dbdf") as reader:
        infos = [block.info for block in reader]
        assert len(reader) == len(infos) == 9
        block = reader.seek(4)
        assert block.info == infos[4]
        assert reader.next_block().info == infos[5]
        assert reader[-1].info == infos[-1]
        assert reader[2].info == infos[2]
        with pytest.raises(IndexError):
            reader[9]
        with pytest.raises(IndexError):
            reader[-10]
        reader.rewind()
        assert reader.next_block().info == infos[0]


def test_decoding_an_earlier_block_does_not_disturb_iteration():
    expected = dbdf.load(VECTORS_DIR / "multi_block_shuffled.dbdf")
    with dbdf.Reader(VECTORS_DIR / "multi_block_shuffled.dbdf") as reader:
        seen = []
        first = None
        for block in reader:
            first = first or block
            assert_same(first.decode_dense(), expected[first.row:first.row + first.rows,
                                                       first.col:first.col + first.cols])
            seen.append(block.index)
        assert seen == list(range(9))
        assert reader.next_block() is None
        assert_same(first.decode_dense(), expected[first.row:first.row + first.rows, first.col:first.col + first.cols])
        assert reader.next_block() is None


def test_decoding_straight_into_a_window_of_a_caller_array():
    with dbdf.Reader(VECTORS_DIR / "multi_block_shuffled.dbdf") as reader:
        result = np.full(reader.shape, 99, dtype=reader.info.value_type.dtype)
        for block in reader:
            window = result[block.row:block.row + block.rows, block.col:block.col + block.cols]
            decoded = block.decode_dense(out=window)
            assert decoded is window and np.shares_memory(decoded, result)
        assert_same(result, reader.read_dense())
        with pytest.raises(ValueError, match="shape"):
            reader[0].decode_dense(out=np.empty((9, 9), dtype=result.dtype))
        with pytest.raises(ValueError, match="contiguous rows"):
            block = reader[1]
            reader[1].decode_dense(out=np.empty((block.cols, block.rows), dtype=result.dtype).T)
        out = np.empty(reader.shape, dtype=np.uint64)
        assert reader.read_dense(out=out) is out
        with pytest.raises(dbdf.DbdfError) as caught:  # it holds 2**64 - 1, which no float64 is
            reader.read_dense(dtype=np.float64)
        assert caught.value.status == dbdf.Status.RANGE


def test_payload_views_outlive_the_reader():
    reader = dbdf.Reader(VECTORS_DIR / "dense_u16.dbdf")
    payload = reader[0].payload()
    expected = bytes(payload)
    reader.close()
    assert reader.closed
    gc.collect()
    assert bytes(payload) == expected  # the input stays mapped while a view exists
    with pytest.raises(TypeError):
        payload[0] = 1
    values = np.frombuffer(payload, dtype="<u2")
    del payload
    gc.collect()
    assert values.tolist() == [0, 65535, 1, 256, 2, 3]


def test_validate_a_valid_file_from_memory():
    data = (VECTORS_DIR / "frame_mixed.dbdf").read_bytes()
    with dbdf.Reader.from_bytes(data) as reader:
        assert reader.validate() == []
        assert reader.info.total_bytes == len(data)


def test_readers_and_writers_in_several_threads(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    expected = dbdf.load(VECTORS_DIR / "multi_block_shuffled.dbdf")

    def work(number: int) -> bool:
        path = tmp_path / f"m{number}.dbdf"
        matrix = np.arange(number, number + 600, dtype=np.int64).reshape(20, 30)
        dbdf.save(path, matrix, block=(7, 9))
        same = True
        for _ in range(10):
            same &= np.array_equal(dbdf.load(VECTORS_DIR / "multi_block_shuffled.dbdf"), expected)
            same &= np.array_equal(dbdf.load(path), matrix)
        with pytest.raises(dbdf.DbdfError) as caught:  # each thread sees its own error message
            dbdf.load(tmp_path / f"missing{number}.dbdf")
        return same and f"missing{number}.dbdf" in caught.value.message

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert all(pool.map(work, range(8)))
