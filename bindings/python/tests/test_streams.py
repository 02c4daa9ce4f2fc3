"""Readers over binary file objects and writers into them: BytesIO, real files, a short-reading wrapper, a failing
one, every golden matrix through one-byte reads and failing at every offset, sinks failing after every byte count,
and exceptions raised by the file object coming back unchanged."""

from __future__ import annotations

import io

import numpy as np
import pytest

import dbdf
from conftest import MATRICES, assert_same, expected_matrix, ids, sparse_to_dense, vector_path


class ShortReads(io.RawIOBase):
    """A seekable binary file that returns at most `largest` bytes per read and has no readinto fast path of
    its own beyond RawIOBase's."""

    def __init__(self, data: bytes, largest: int):
        self._data = data
        self._largest = largest
        self._position = 0
        self.reads = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self._position = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: len(self._data)}[whence] + offset
        return self._position

    def tell(self):
        return self._position

    def readinto(self, buffer):
        self.reads += 1
        chunk = self._data[self._position:self._position + min(len(buffer), self._largest)]
        buffer[:len(chunk)] = chunk
        self._position += len(chunk)
        return len(chunk)


class ReadOnly:
    """Only read() and seek(), as some remote-file objects offer."""

    def __init__(self, data: bytes):
        self._file = io.BytesIO(data)

    def read(self, size=-1):
        return self._file.read(size)

    def seek(self, offset, whence=io.SEEK_SET):
        return self._file.seek(offset, whence)

    def tell(self):
        return self._file.tell()


class StorageGone(Exception):
    """A custom error of a remote store."""


class FailingAfter(io.BytesIO):
    """Raises StorageGone for reads past `limit`."""

    def __init__(self, data: bytes, limit: int):
        super().__init__(data)
        self.limit = limit

    def readinto(self, buffer):
        if self.tell() + len(buffer) > self.limit:
            raise StorageGone(f"connection lost at {self.tell()}")
        return super().readinto(buffer)


def encoded(matrix, **options) -> bytes:
    sink = io.BytesIO()
    dbdf.save(sink, matrix, **options)
    return sink.getvalue()


MATRIX = np.arange(200 * 30, dtype=np.float64).reshape(200, 30) * 0.5 - 7


def test_save_to_bytesio_and_load_from_it_round_trips_and_restores_the_position():
    data = encoded(MATRIX, block=(16, 16))
    stream = io.BytesIO(b"xy" + data)
    stream.seek(2)
    with pytest.raises(dbdf.DbdfError):  # the object starts at 2, not 0: a file object is read from offset 0
        dbdf.load(stream)
    assert stream.tell() == 2
    stream = io.BytesIO(data)
    stream.seek(5)
    assert_same(dbdf.load(stream), MATRIX)
    assert stream.tell() == 5


def test_real_files_in_both_directions(tmp_path):
    path = tmp_path / "m.dbdf"
    with open(path, "wb") as file:
        dbdf.save(file, MATRIX)
        file.flush()
        assert file.tell() == path.stat().st_size
    with open(path, "rb") as file:
        with dbdf.Reader(file) as reader:
            assert reader.info.shape == (200, 30)
            assert_same(reader.read(), MATRIX)
        assert file.tell() == 0
    assert_same(dbdf.load(path), MATRIX)


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_every_golden_matrix_through_one_byte_reads(vector):
    with open(vector_path(vector), "rb") as file:
        data = file.read()
    stream = ShortReads(data, largest=1)
    loaded = dbdf.load(stream)
    if vector["data_type"] == "csr":
        loaded = sparse_to_dense(loaded)
    assert_same(np.asarray(loaded), expected_matrix(vector))
    assert stream.reads > 0


def test_an_object_with_only_read_and_seek_is_read():
    data = encoded(MATRIX, block=(64, 8))
    assert_same(dbdf.load(ReadOnly(data), threads=4), MATRIX)


def test_an_exception_of_the_file_object_propagates_unchanged_and_the_reader_goes_on():
    data = encoded(MATRIX, block=(50, 30))
    source = FailingAfter(data, limit=len(data))
    with dbdf.Reader(source, read_ahead=1024) as reader:  # payloads larger than the window: read when decoded
        blocks = list(reader)
        assert len(blocks) == 4
        source.limit = blocks[2].info.offset + 40
        with pytest.raises(StorageGone, match="connection lost at") as raised:
            reader.read()
        assert isinstance(raised.value.__context__, dbdf.DbdfError)
        assert raised.value.__context__.status == dbdf.Status.IO
        source.limit = len(data)
        assert_same(reader.read(), MATRIX)


class Vanished(io.BytesIO):
    def readinto(self, buffer):
        raise KeyError("no such object")


def test_a_failure_when_opening_propagates_unchanged():
    data = encoded(MATRIX)
    with pytest.raises(StorageGone):
        dbdf.load(FailingAfter(data, limit=10))
    with pytest.raises(KeyError, match="no such object"):
        dbdf.Reader(Vanished(data))


def test_a_failure_at_every_offset_is_an_exception_never_a_crash():
    data = encoded(np.arange(12, dtype=np.int32).reshape(3, 4))
    for limit in range(len(data)):
        with pytest.raises(StorageGone):
            dbdf.load(FailingAfter(data, limit=limit))


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_every_golden_matrix_failing_at_every_offset_raises_the_file_objects_exception(vector):
    with open(vector_path(vector), "rb") as file:
        data = file.read()
    expected = expected_matrix(vector)
    for limit in range(len(data)):
        try:
            loaded = dbdf.load(FailingAfter(data, limit=limit))
        except StorageGone as raised:
            assert isinstance(raised.__context__, dbdf.DbdfError), limit
            assert raised.__context__.status == dbdf.Status.IO, limit
            continue
        # Only bytes the reader never needs may be out of reach without an exception.
        if vector["data_type"] == "csr":
            loaded = sparse_to_dense(loaded)
        assert_same(np.asarray(loaded), expected)


class FillingSink(io.RawIOBase):
    """Takes `capacity` bytes, then raises StorageGone."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity
        self.taken = bytearray()

    def writable(self):
        return True

    def write(self, data):
        room = self.capacity - len(self.taken)
        if room <= 0:
            raise StorageGone("the sink is full")
        chunk = bytes(data[:room])
        self.taken += chunk
        return len(chunk)


def test_a_sink_failing_after_any_number_of_bytes_raises_its_exception_after_writing_the_files_start():
    small = np.arange(12 * 5, dtype=np.float64).reshape(12, 5) - 20.5
    complete = encoded(small, block=(4, 5))
    for capacity in range(len(complete)):
        sink = FillingSink(capacity)
        try:
            dbdf.save(sink, small, block=(4, 5))
        except StorageGone as raised:
            assert isinstance(raised.__context__, dbdf.DbdfError), capacity
            assert raised.__context__.status == dbdf.Status.SINK, capacity
        else:
            pytest.fail(f"a sink of {capacity} bytes took the whole object")
        assert bytes(sink.taken) == complete[:capacity]
    whole = FillingSink(len(complete))
    dbdf.save(whole, small, block=(4, 5))
    assert bytes(whole.taken) == complete
    assert_same(dbdf.load(ShortReads(bytes(whole.taken), largest=3)), small)


class FullDisk(io.RawIOBase):
    def writable(self):
        return True

    def write(self, data):
        raise StorageGone("quota exceeded")


def test_a_write_sink_that_raises_propagates_unchanged():
    with pytest.raises(StorageGone, match="quota exceeded") as raised:
        dbdf.save(FullDisk(), MATRIX)
    assert isinstance(raised.value.__context__, dbdf.DbdfError)
    assert raised.value.__context__.status == dbdf.Status.SINK
    assert "StorageGone: quota exceeded" in raised.value.__context__.message


def test_a_writer_into_a_file_object_writes_from_its_position_and_streams_blocks():
    sink = io.BytesIO()
    sink.write(b"prefix")
    with dbdf.Writer(sink) as writer:
        writer.begin_matrix("dense", np.float64, 200, 30)
        writer.write_dense(MATRIX, block=(20, 30))
    data = sink.getvalue()
    assert data.startswith(b"prefix")
    assert sink.tell() == len(data)
    assert_same(dbdf.load(data[6:]), MATRIX)
    with pytest.raises(ValueError, match="durable"):
        dbdf.Writer(io.BytesIO(), durable=True)


def test_text_files_and_other_objects_are_refused_clearly():
    with pytest.raises(TypeError, match="binary mode"):
        dbdf.Reader(io.StringIO("x"))
    with pytest.raises(TypeError, match="seek"):
        dbdf.Reader(object())
    with pytest.raises(TypeError, match="write"):
        dbdf.Writer(object())
