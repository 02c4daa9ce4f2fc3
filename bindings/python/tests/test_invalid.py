"""Invalid files (tests/vectors/invalid) fail where vectors.json says, with the stated status, rule and byte offset,
which the message names too; bad arguments fail with clear errors, never a crash."""

from __future__ import annotations

import numpy as np
import pytest

import dbdf
from conftest import INVALID, VECTORS_DIR, ids, vector_path


def expected_status(vector) -> dbdf.Status:
    return dbdf.Status[vector["status"].upper()]


def assert_describes(error: dbdf.DbdfError, vector) -> None:
    assert error.status == expected_status(vector)
    assert isinstance(error.status, dbdf.Status)
    assert error.code == int(expected_status(vector))
    rule = f"rule {vector['rule']}" if vector["rule"] else "spec"
    assert rule in error.message
    assert f"byte {vector['offset']}" in error.message
    assert str(error) == f"{vector['status']}: {error.message}"
    assert error.rule == (vector["rule"] or None)
    assert error.offset == vector["offset"]


def decode_every_block(reader: dbdf.Reader) -> None:
    for block in reader:
        block.decode_dense(dtype=np.float64 if reader.info.data_type == dbdf.DataType.FRAME else None)


@pytest.mark.parametrize("vector", INVALID, ids=ids(INVALID))
def test_fails_where_and_how_the_vector_says(vector):
    stage = vector["fails_on"]
    if stage == "open":
        with pytest.raises(dbdf.DbdfError) as caught:
            dbdf.Reader(vector_path(vector))
        assert_describes(caught.value, vector)
        return
    with dbdf.Reader(vector_path(vector)) as reader:
        if stage == "iterate":
            with pytest.raises(dbdf.DbdfError) as caught:
                list(reader)
            assert_describes(caught.value, vector)
            with pytest.raises(dbdf.DbdfError) as caught:
                reader.build_index()
            assert caught.value.status == expected_status(vector)
        else:
            blocks = list(reader)  # the block headers are fine
            assert blocks
            with pytest.raises(dbdf.DbdfError) as caught:
                decode_every_block(reader)
            assert_describes(caught.value, vector)


@pytest.mark.parametrize("vector", INVALID, ids=ids(INVALID))
def test_load_raises_the_same_error(vector):
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(vector_path(vector))
    assert_describes(caught.value, vector)


DECODE_FAILURES = [vector for vector in INVALID if vector["fails_on"] == "decode"]


@pytest.mark.parametrize("vector", DECODE_FAILURES, ids=ids(DECODE_FAILURES))
def test_validate_lists_the_violation(vector):
    with dbdf.Reader(vector_path(vector)) as reader:
        violations = reader.validate()
    assert [(violation.rule, violation.offset) for violation in violations] == [(vector["rule"], vector["offset"])]
    assert f"rule {vector['rule']}" in violations[0].message


def test_a_missing_file_is_an_io_error(tmp_path):
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(tmp_path / "missing.dbdf")
    assert caught.value.status == dbdf.Status.IO
    assert "missing.dbdf" in caught.value.message


def test_a_file_that_is_not_dbdf_is_a_clear_error(tmp_path):
    path = tmp_path / "text.dbdf"
    path.write_text("this is not a dbdf file at all\n")
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(path)
    assert caught.value.status in (dbdf.Status.FORMAT, dbdf.Status.TRUNCATED)
    assert caught.value.message


def test_empty_bytes_are_truncated():
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(b"")
    assert caught.value.status == dbdf.Status.TRUNCATED


def test_value_that_does_not_fit_the_requested_dtype_is_a_range_error():
    path = VECTORS_DIR / "dense_f64.dbdf"  # holds 1.5, infinities and NaN
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load(path, dtype=np.int64)
    assert caught.value.status == dbdf.Status.RANGE
    assert "1.5" in caught.value.message


def test_block_index_out_of_range_is_an_invalid_argument():
    with dbdf.Reader(VECTORS_DIR / "dense_u8.dbdf") as reader:
        with pytest.raises(dbdf.DbdfError) as caught:
            reader.seek(5)
        assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
        with pytest.raises(ValueError, match="index must be in 0..18446744073709551615, not -1"):
            reader.seek(-1)
        with pytest.raises(dbdf.DbdfError):
            reader.index_entry(1)


def test_window_outside_the_object_is_an_invalid_argument():
    with dbdf.Reader(VECTORS_DIR / "dense_u8.dbdf") as reader:
        with pytest.raises(dbdf.DbdfError) as caught:
            reader.read_window(1, 1, 2, 2)
        assert caught.value.status == dbdf.Status.INVALID_ARGUMENT


def test_a_closed_reader_refuses_calls():
    reader = dbdf.Reader(VECTORS_DIR / "dense_u8.dbdf")
    reader.close()
    reader.close()
    assert reader.closed
    with pytest.raises(ValueError, match="closed"):
        reader.read_dense()
    with pytest.raises(ValueError, match="closed"):
        list(reader)


def test_errors_of_the_library_are_not_mistaken_for_those_of_python():
    assert issubclass(dbdf.DbdfError, Exception)
    assert not issubclass(dbdf.DbdfError, (ValueError, TypeError, OSError))


def test_a_shape_numpy_cannot_hold_is_a_clear_error():
    with dbdf.Writer.to_memory() as writer:  # no cells, so no blocks: a valid object
        writer.begin_matrix("dense", np.float64, 0, 2**63 + 5)
        writer.finish()
        data = writer.getvalue()
    with pytest.raises(ValueError, match=r"shape \(0, 9223372036854775813\) .* cannot be made"):
        dbdf.load(data)
