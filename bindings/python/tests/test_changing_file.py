"""A file that another process shortens while a reader has it open: reading it raises DbdfError (status IO) and the
interpreter lives on, where a mapped file would have killed it with SIGBUS. Payload views of a file are copies that
stay valid after the reader moved on."""

from __future__ import annotations

import os

import numpy as np
import pytest

import dbdf


@pytest.fixture
def large_file(tmp_path):
    path = tmp_path / "large.dbdf"
    values = (np.arange(512 * 512, dtype=np.float64) % 1000) + 0.5
    dbdf.save(path, values.reshape(512, 512), encoding="dense", block=(128, 128))
    return path, values.reshape(512, 512)


def assert_shrank(caught) -> None:
    assert caught.value.status == dbdf.Status.IO
    assert "the file shrank while being read" in caught.value.message


def test_truncated_between_listing_and_decoding_raises(large_file):
    path, _ = large_file
    with dbdf.Reader(path) as reader:
        assert reader.build_index() == 16
        os.truncate(path, 100)
        with pytest.raises(dbdf.DbdfError) as caught:
            reader.read_dense()
        assert_shrank(caught)
        block = reader.seek(2)
        with pytest.raises(dbdf.DbdfError) as caught:
            block.decode_dense()
        assert_shrank(caught)
        with pytest.raises(dbdf.DbdfError) as caught:
            block.payload()
        assert_shrank(caught)


def test_payload_views_of_a_file_outlive_the_block(large_file):
    path, values = large_file
    with dbdf.Reader(path) as reader:
        first = reader.next_block().payload()
        reader.next_block().payload()
    assert np.array_equal(np.frombuffer(first, dtype="<f8").reshape(128, 128), values[:128, :128])
