"""close() from another thread while a Reader or Writer is in use: ctypes releases the GIL during every library
call, so the close must wait for calls in progress (no use after free), and every later use must raise the
documented ValueError."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest

import dbdf
from conftest import INVALID, VECTORS_DIR

THREADS = 4
DEADLINE_SECONDS = 60


def hammer_then_close(handle, call) -> None:
    """Runs call() on THREADS threads over and over; once every thread has made calls, closes `handle` from this
    thread. Every thread must then stop on ValueError("... is closed"), and nothing else may be raised."""
    calls_made = [0] * THREADS
    stopped_by_close = []
    unexpected = []

    def work(number: int) -> None:
        deadline = time.monotonic() + DEADLINE_SECONDS
        while time.monotonic() < deadline:
            try:
                call()
            except ValueError as error:
                if "is closed" in str(error):
                    stopped_by_close.append(number)
                else:
                    unexpected.append(error)
                return
            except BaseException as error:  # noqa: B902 - anything else is a failure, reported below
                unexpected.append(error)
                return
            calls_made[number] += 1
        unexpected.append(AssertionError(f"thread {number} never saw the handle closed"))

    workers = [threading.Thread(target=work, args=(number,)) for number in range(THREADS)]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + DEADLINE_SECONDS
    while min(calls_made) < 2 and not unexpected and time.monotonic() < deadline:
        time.sleep(0.001)
    handle.close()
    for worker in workers:
        worker.join(DEADLINE_SECONDS)
    assert unexpected == []
    assert sorted(stopped_by_close) == list(range(THREADS))  # every thread saw the closed handle
    assert min(calls_made) >= 2
    assert handle.closed


@pytest.fixture(scope="module")
def tiled_matrix(tmp_path_factory):
    """A 512 x 512 f64 file in 64 tiles: each whole read decodes for long enough to be closed under."""
    matrix = np.arange(512 * 512, dtype=np.float64).reshape(512, 512)
    matrix[::3] = 0.0  # some CSR and empty tiles as well as dense ones
    path = tmp_path_factory.mktemp("threads") / "tiled.dbdf"
    dbdf.save(path, matrix, block=64)
    return path, matrix


def test_a_file_reader_closed_while_threads_read_it(tiled_matrix):
    path, matrix = tiled_matrix
    reader = dbdf.Reader(path)  # memory-mapped: a free during a call would unmap what the call reads

    def read() -> None:
        assert np.array_equal(reader.read_dense(), matrix)
        for block in itertools.islice(reader, 3):
            tile = block.decode_dense()
            assert np.array_equal(tile, matrix[block.row:block.row + block.rows, block.col:block.col + block.cols])
        assert reader.read_csr().nnz == np.count_nonzero(matrix)

    hammer_then_close(reader, read)


def test_a_memory_reader_closed_while_threads_decode_its_blocks(tiled_matrix):
    path, matrix = tiled_matrix
    reader = dbdf.Reader.from_bytes(path.read_bytes())
    blocks = list(reader)

    def decode() -> None:
        for block in blocks[::7]:
            window = matrix[block.row:block.row + block.rows, block.col:block.col + block.cols]
            assert np.array_equal(block.decode_dense(), window)
            assert block.decode_coo().values.size == np.count_nonzero(window)
        assert reader.column_type(0) == dbdf.ValueType.F64

    hammer_then_close(reader, decode)


def test_a_writer_closed_while_threads_add_blocks():
    columns = 1 << 20
    writer = dbdf.Writer.to_memory()
    writer.begin_matrix("dense", np.float64, 1, columns)
    width = 256
    next_column = itertools.count(0, width)
    claim = threading.Lock()

    def add() -> None:
        with claim:
            column = next(next_column)
        if column + width <= columns:
            writer.add_dense(0, column, np.full((1, width), column + 0.5))
        assert writer.bytes_written > 0

    hammer_then_close(writer, add)


def test_close_waits_for_a_call_in_progress(monkeypatch):
    """validate() calls back into Python for each violation, from inside the library call: a close() started then
    must not return (free the reader) before validate() has returned."""
    vector = next(vector for vector in INVALID if vector.get("fails_on") != "open")
    reader = dbdf.Reader(VECTORS_DIR / vector["file"])
    inside_the_call = threading.Event()
    close_returned = threading.Event()
    returned_during_the_call = []

    def close() -> None:
        inside_the_call.wait(DEADLINE_SECONDS)
        reader.close()
        close_returned.set()

    closer = threading.Thread(target=close)
    closer.start()
    original_violation = dbdf.reader.Violation

    def violation_seen(*fields):
        if not inside_the_call.is_set():
            inside_the_call.set()
            returned_during_the_call.append(close_returned.wait(0.5))
        return original_violation(*fields)

    monkeypatch.setattr(dbdf.reader, "Violation", violation_seen)  # called by validate() for each violation
    violations = reader.validate()
    closer.join(DEADLINE_SECONDS)
    assert violations and violations[0].rule == vector["rule"]
    assert returned_during_the_call == [False]
    assert close_returned.is_set() and reader.closed


def test_every_use_after_close_raises_value_error(tmp_path):
    reader = dbdf.Reader(VECTORS_DIR / "multi_block_shuffled.dbdf")
    block = reader[0]
    reader.close()
    reader.close()  # again: nothing happens
    for use in (reader.read_dense, reader.next_block, reader.rewind, lambda: reader.dialect,
                lambda: reader.labels_recoverable, lambda: reader.column_label(0), reader.validate,
                block.decode_dense, block.payload, block.payload_layout, lambda: len(reader)):
        with pytest.raises(ValueError, match="the reader is closed"):
            use()
    writer = dbdf.Writer(tmp_path / "m.dbdf")
    writer.begin_matrix("dense", np.uint8, 1, 1)
    writer.close()
    for use in (lambda: writer.add_dense(0, 0, np.ones((1, 1), np.uint8)), writer.finish, writer.getvalue,
                lambda: writer.bytes_written, lambda: writer.dialect):
        with pytest.raises(ValueError, match="the writer is closed"):
            use()
    assert list(tmp_path.iterdir()) == []  # closed without finish: discarded
