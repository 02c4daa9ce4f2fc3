"""The options readers and writers are opened with beyond the dialect: the threads of the whole-object reads and of
write_dense never change a value or a byte, a durable file write gives the same file as a default one and leaves
nothing else in its directory, and thread counts that are not counts are refused before the library is called."""

from __future__ import annotations

import os

import numpy as np
import pytest

import dbdf
from conftest import assert_same

# 1200 x 1800 float64, 17.3 MB: above the 16 MiB from which the automatic choice uses several threads.
ROWS, COLS, TILE = 1200, 1800, 256


def tiled_matrix() -> np.ndarray:
    """Tiles of four kinds, so the automatic encoding analysed ahead on the helper thread differs from tile to
    tile: empty, sparse, small integers (stored as int8) and floats that need all 64 bits."""
    rows, cols = np.meshgrid(np.arange(ROWS, dtype=np.int64), np.arange(COLS, dtype=np.int64), indexing="ij")
    kind = (rows // TILE + cols // TILE) % 4
    sparse = np.where((rows * 7 + cols * 13) % 97 == 0, rows - cols - 0.5, 0.0)
    small = ((rows * 31 + cols * 17) % 200 - 100).astype(np.float64)
    wide = np.sin(rows * 0.37 + cols * 1.0e-3)
    return np.select([kind == 0, kind == 1, kind == 2], [0.0, sparse, small], wide)


@pytest.fixture(scope="module")
def matrix() -> np.ndarray:
    return tiled_matrix()


@pytest.fixture(scope="module")
def matrix_bytes(matrix) -> bytes:
    with dbdf.Writer.to_memory() as writer:
        writer.begin_matrix("dense", np.float64, ROWS, COLS)
        writer.write_dense(matrix, block=TILE)
        writer.finish()
        return writer.getvalue()


def written_in_memory(matrix: np.ndarray, threads) -> bytes:
    with dbdf.Writer.to_memory(threads=threads) as writer:
        writer.begin_matrix("dense", np.float64, ROWS, COLS)
        writer.write_dense(matrix, block=TILE)
        writer.finish()
        return writer.getvalue()


def test_write_dense_writes_the_same_bytes_on_one_or_two_threads(tmp_path, matrix, matrix_bytes):
    one = written_in_memory(matrix, threads=1)
    assert written_in_memory(matrix, threads=2) == one
    assert written_in_memory(matrix, threads=0) == one
    assert matrix_bytes == one
    with dbdf.Reader.from_bytes(one) as reader:
        block_types = {block.block_type for block in reader}
    assert len(block_types) >= 3, f"the tiles should take several encodings, got {block_types}"

    for threads in (1, 2, None):
        path = tmp_path / f"threads-{threads}.dbdf"
        dbdf.save(path, matrix, block=TILE, threads=threads)
        assert path.read_bytes() == one, f"save with threads={threads}"
    with dbdf.Writer(tmp_path / "writer.dbdf", threads=np.int64(2)) as writer:
        writer.begin_matrix("dense", np.float64, ROWS, COLS)
        writer.write_dense(matrix, block=TILE)
    assert (tmp_path / "writer.dbdf").read_bytes() == one


@pytest.mark.parametrize("threads", [1, 2, 0, None])
def test_whole_object_reads_give_the_same_values_on_any_number_of_threads(tmp_path, matrix, matrix_bytes, threads):
    path = tmp_path / "m.dbdf"
    path.write_bytes(matrix_bytes)
    assert_same(dbdf.load(path, threads=threads), matrix)
    assert_same(dbdf.load(matrix_bytes, threads=threads), matrix)
    with dbdf.Reader(path, threads=threads) as reader:
        assert_same(reader.read_window(100, 200, 700, 900), matrix[100:800, 200:1100])
        # Into a window of a larger array: the cells around it stay untouched.
        out = np.full((ROWS + 2, COLS + 3), -1.0)
        reader.read_dense(out=out[1:-1, 2:-1])
        assert_same(out[1:-1, 2:-1], matrix)
        assert np.all(out[0] == -1.0) and np.all(out[-1] == -1.0)
        assert np.all(out[:, :2] == -1.0) and np.all(out[:, -1] == -1.0)
    with dbdf.Reader.from_bytes(matrix_bytes, threads=threads) as reader:
        assert_same(reader.read_dense(dtype=np.float64), matrix)


@pytest.mark.parametrize("threads", [1, 2, 0])
def test_frame_columns_read_the_same_on_any_number_of_threads(threads):
    rows = 700_000
    columns = {"id": np.arange(rows, dtype=np.int64) * 3 - 1_000_000,
               "score": np.sqrt(np.arange(rows, dtype=np.float64)) / 7.0}
    with dbdf.Writer.to_memory(threads=threads) as writer:
        writer.begin_frame(rows, {label: array.dtype for label, array in columns.items()})
        for label, array in columns.items():
            writer.write_column(label, array, block_rows=100_000)
        writer.finish()
        data = writer.getvalue()
    with dbdf.Reader.from_bytes(data, threads=threads) as reader:
        assert_same(reader.read_column("id"), columns["id"])
        assert_same(reader.read_column(1), columns["score"])
        out = np.empty(rows, dtype=np.float64)
        reader.read_column("score", out=out)
        assert_same(out, columns["score"])


def test_the_dialect_and_the_threads_are_chosen_together(tmp_path):
    matrix = (np.arange(300 * 400) % 1000 * 0.25).reshape(300, 400)
    path = tmp_path / "d.dbdf"
    dbdf.save(path, matrix, dialect="daphne", threads=2)
    with dbdf.Reader(path, dialect="daphne", threads=2) as reader:
        assert reader.dialect is dbdf.Dialect.DAPHNE
        assert_same(reader.read_dense(), matrix)
    assert_same(dbdf.load(path, dialect=dbdf.Dialect.DAPHNE, threads=1), matrix)
    with pytest.raises(dbdf.DbdfError):
        dbdf.load(path, threads=2)  # the spec dialect, the default, does not read the runtime's layout


def test_a_durable_write_gives_the_same_file_and_leaves_nothing_else(tmp_path):
    matrix = np.where(np.arange(300 * 500) % 11 == 0, 0, np.arange(300 * 500) * 37 - 90_000)
    matrix = matrix.astype(np.int32).reshape(300, 500)
    default_dir, durable_dir = tmp_path / "default", tmp_path / "durable"
    default_dir.mkdir()
    durable_dir.mkdir()
    dbdf.save(default_dir / "m.dbdf", matrix, block=128)
    dbdf.save(durable_dir / "m.dbdf", matrix, block=128, durable=True)
    expected = (default_dir / "m.dbdf").read_bytes()
    assert (durable_dir / "m.dbdf").read_bytes() == expected
    assert sorted(os.listdir(durable_dir)) == ["m.dbdf"]

    # Replacing an existing file durably.
    (durable_dir / "m.dbdf").write_bytes(b"old contents")
    dbdf.save(durable_dir / "m.dbdf", matrix, block=128, durable=True, threads=2)
    assert (durable_dir / "m.dbdf").read_bytes() == expected
    assert sorted(os.listdir(durable_dir)) == ["m.dbdf"]
    assert_same(dbdf.load(durable_dir / "m.dbdf"), matrix)

    # A durable writer left with an exception keeps the old file and leaves no temporary file.
    with pytest.raises(RuntimeError):
        with dbdf.Writer(durable_dir / "m.dbdf", durable=True) as writer:
            writer.begin_matrix("dense", np.int32, 300, 500)
            raise RuntimeError("stop before finishing")
    assert (durable_dir / "m.dbdf").read_bytes() == expected
    assert sorted(os.listdir(durable_dir)) == ["m.dbdf"]

    # The daphne dialect's .meta sidecar is written durably too, with the same contents.
    dbdf.save(default_dir / "d.dbdf", matrix, dialect="daphne")
    with dbdf.Writer(durable_dir / "d.dbdf", "daphne", durable=True) as writer:
        writer.begin_matrix("dense", np.int32, 300, 500)
        writer.write_dense(matrix)
    for name in ("d.dbdf", "d.dbdf.meta"):
        assert (durable_dir / name).read_bytes() == (default_dir / name).read_bytes(), name
    assert sorted(os.listdir(durable_dir)) == ["d.dbdf", "d.dbdf.meta", "m.dbdf"]


def _openers(tmp_path, data: bytes):
    """Every public way to open a reader or writer, each taking the threads to try."""
    return {
        "load": lambda threads: dbdf.load(data, threads=threads),
        "load(path)": lambda threads: dbdf.load(tmp_path / "small.dbdf", threads=threads),
        "save": lambda threads: dbdf.save(tmp_path / "saved.dbdf", np.eye(2), threads=threads),
        "Reader": lambda threads: dbdf.Reader(tmp_path / "small.dbdf", threads=threads).close(),
        "Reader.from_bytes": lambda threads: dbdf.Reader.from_bytes(data, threads=threads).close(),
        "Writer": lambda threads: dbdf.Writer(tmp_path / "unfinished.dbdf", threads=threads).close(),
        "Writer.to_memory": lambda threads: dbdf.Writer.to_memory(threads=threads).close(),
    }


@pytest.mark.parametrize("threads, error, message", [
    (-1, ValueError, "threads must be in 0..4294967295, not -1"),
    (2 ** 32, ValueError, "threads must be in 0..4294967295, not 4294967296"),
    (1.5, TypeError, "threads must be an int, not float"),
    ("2", TypeError, "threads must be an int, not str"),
    (True, TypeError, "threads must be an int, not bool"),
    (np.float64(2.0), TypeError, "threads must be an int, not float64"),
])
def test_bad_thread_counts_are_refused(tmp_path, threads, error, message):
    data = _small_bytes()
    (tmp_path / "small.dbdf").write_bytes(data)
    for name, opener in _openers(tmp_path, data).items():
        with pytest.raises(error, match=message):
            opener(threads)
            pytest.fail(f"{name} took threads={threads!r}")
    assert sorted(os.listdir(tmp_path)) == ["small.dbdf"], "a refused writer created a file"


def test_every_valid_thread_count_is_taken(tmp_path):
    data = _small_bytes()
    (tmp_path / "small.dbdf").write_bytes(data)
    for threads in (None, 0, 1, 2, np.uint8(3), 2 ** 32 - 1):
        for opener in _openers(tmp_path, data).values():
            opener(threads)
        assert_same(dbdf.load(data, threads=threads), np.arange(6.0).reshape(2, 3))
        assert_same(dbdf.load(tmp_path / "saved.dbdf", threads=threads), np.eye(2))
    assert sorted(os.listdir(tmp_path)) == ["saved.dbdf", "small.dbdf"]


def test_the_new_options_are_keyword_only(tmp_path):
    data = _small_bytes()
    with pytest.raises(TypeError):
        dbdf.Reader.from_bytes(data, "spec", 2)
    with pytest.raises(TypeError):
        dbdf.Writer(tmp_path / "m.dbdf", "spec", True, True)
    with pytest.raises(TypeError):
        dbdf.save(tmp_path / "m.dbdf", np.eye(2), "auto", None, "spec", True, True)
    assert not (tmp_path / "m.dbdf").exists()


def _small_bytes() -> bytes:
    with dbdf.Writer.to_memory() as writer:
        writer.begin_matrix("dense", np.float64, 2, 3)
        writer.write_dense(np.arange(6.0).reshape(2, 3))
        writer.finish()
        return writer.getvalue()
