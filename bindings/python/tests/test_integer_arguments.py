"""Every integer argument that ends up in a C integer is checked against that C type's range before the library is
called: ctypes would keep only its low bits (2**64 would become 0, -1 would become 2**64 - 1). Out of range is
ValueError naming the parameter, the value and the range; anything that is not an integer is TypeError."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import VECTORS_DIR, assert_same

UINT32_MAX = 2 ** 32 - 1
UINT64_MAX = 2 ** 64 - 1
FRAME = VECTORS_DIR / "frame_mixed.dbdf"  # 4 x 4, so column and block index 0 exist


def _begun_writer() -> dbdf.Writer:
    writer = dbdf.Writer.to_memory()
    writer.begin_matrix("dense", np.float64, 4, 4)
    return writer


def _with_reader(call):
    def run(value):
        with dbdf.Reader(FRAME) as reader:
            return call(reader, value)
    return run


def _with_writer(call, begun=True):
    def run(value):
        writer = _begun_writer() if begun else dbdf.Writer.to_memory()
        try:
            return call(writer, value)
        finally:
            writer.close()
    return run


def _with_frame_writer(call):
    def run(value):
        with dbdf.Writer.to_memory() as writer:
            writer.begin_frame(4, {"a": np.float64})
            try:
                return call(writer, value)
            finally:
                writer.close()
    return run


ONE = np.ones((1, 1))

# (entry point, parameter named in the message, largest value of its C type, call with the value)
ENTRY_POINTS = [
    ("Reader.column_type", "column", UINT64_MAX, _with_reader(lambda r, v: r.column_type(v))),
    ("Reader.column_label", "column", UINT64_MAX, _with_reader(lambda r, v: r.column_label(v))),
    ("Reader.read_column", "column", UINT64_MAX, _with_reader(lambda r, v: r.read_column(v, np.float64))),
    ("Reader.index_entry", "index", UINT64_MAX, _with_reader(lambda r, v: r.index_entry(v))),
    ("Reader.seek", "index", UINT64_MAX, _with_reader(lambda r, v: r.seek(v))),
    ("Reader.read_window row", "row", UINT64_MAX,
     _with_reader(lambda r, v: r.read_window(v, 0, 1, 1, np.float64))),
    ("Reader.read_window col", "col", UINT64_MAX,
     _with_reader(lambda r, v: r.read_window(0, v, 1, 1, np.float64))),
    ("Reader.read_window rows", "rows", UINT64_MAX,
     _with_reader(lambda r, v: r.read_window(0, 0, v, 1, np.float64))),
    ("Reader.read_window cols", "cols", UINT64_MAX,
     _with_reader(lambda r, v: r.read_window(0, 0, 1, v, np.float64))),
    ("Writer.begin_matrix rows", "rows", UINT64_MAX,
     _with_writer(lambda w, v: w.begin_matrix("dense", np.float64, v, 4), begun=False)),
    ("Writer.begin_matrix cols", "cols", UINT64_MAX,
     _with_writer(lambda w, v: w.begin_matrix("dense", np.float64, 4, v), begun=False)),
    ("Writer.begin_frame rows", "rows", UINT64_MAX,
     _with_writer(lambda w, v: w.begin_frame(v, {"a": np.float64}), begun=False)),
    ("Writer.add_dense row", "row", UINT64_MAX, _with_writer(lambda w, v: w.add_dense(v, 0, ONE))),
    ("Writer.add_dense col", "col", UINT64_MAX, _with_writer(lambda w, v: w.add_dense(0, v, ONE))),
    ("Writer.add_csr row", "row", UINT64_MAX, _with_writer(lambda w, v: w.add_csr(v, 0, (1, 1), [0, 0], [], []))),
    ("Writer.add_csr col", "col", UINT64_MAX, _with_writer(lambda w, v: w.add_csr(0, v, (1, 1), [0, 0], [], []))),
    ("Writer.add_csr shape rows", "shape[0]", UINT32_MAX,
     _with_writer(lambda w, v: w.add_csr(0, 0, (v, 1), [0, 0], [], []))),
    ("Writer.add_csr shape cols", "shape[1]", UINT32_MAX,
     _with_writer(lambda w, v: w.add_csr(0, 0, (1, v), [0, 0], [], []))),
    ("Writer.add_coo row", "row", UINT64_MAX, _with_writer(lambda w, v: w.add_coo(v, 0, (1, 1), [], [], []))),
    ("Writer.add_coo col", "col", UINT64_MAX, _with_writer(lambda w, v: w.add_coo(0, v, (1, 1), [], [], []))),
    ("Writer.add_coo shape rows", "shape[0]", UINT32_MAX,
     _with_writer(lambda w, v: w.add_coo(0, 0, (v, 1), [], [], []))),
    ("Writer.add_coo shape cols", "shape[1]", UINT32_MAX,
     _with_writer(lambda w, v: w.add_coo(0, 0, (1, v), [], [], []))),
    ("Writer.add_sparse row", "row", UINT64_MAX,
     _with_writer(lambda w, v: w.add_sparse(v, 0, scipy.sparse.csr_matrix(ONE)))),
    ("Writer.add_empty row", "row", UINT64_MAX, _with_writer(lambda w, v: w.add_empty(v, 0, (1, 1)))),
    ("Writer.add_empty col", "col", UINT64_MAX, _with_writer(lambda w, v: w.add_empty(0, v, (1, 1)))),
    ("Writer.add_empty shape rows", "shape[0]", UINT32_MAX, _with_writer(lambda w, v: w.add_empty(0, 0, (v, 1)))),
    ("Writer.add_empty shape cols", "shape[1]", UINT32_MAX, _with_writer(lambda w, v: w.add_empty(0, 0, (1, v)))),
    ("Writer.write_dense block", "block", UINT32_MAX,
     _with_writer(lambda w, v: w.write_dense(np.ones((4, 4)), block=v))),
    ("Writer.write_dense block rows", "block[0]", UINT32_MAX,
     _with_writer(lambda w, v: w.write_dense(np.ones((4, 4)), block=(v, 4)))),
    ("Writer.write_dense block cols", "block[1]", UINT32_MAX,
     _with_writer(lambda w, v: w.write_dense(np.ones((4, 4)), block=(4, v)))),
    ("Writer.write_csr block", "block", UINT32_MAX,
     _with_writer(lambda w, v: w.write_csr([0, 0, 0, 0, 0], [], np.array([], np.float64), block=v))),
    ("Writer.write_column column", "column", UINT64_MAX,
     _with_frame_writer(lambda w, v: w.write_column(v, np.ones(4)))),
    ("Writer.write_column block_rows", "block_rows", UINT32_MAX,
     _with_frame_writer(lambda w, v: w.write_column(0, np.ones(4), block_rows=v))),
]
ENTRY_IDS = [entry[0] for entry in ENTRY_POINTS]
# These also take a column's label, so a str is not a wrong type there.
TAKING_LABELS = {"Reader.read_column", "Writer.write_column column"}


def _out_of_range(maximum: int) -> list[int]:
    values = [-1, -(2 ** 64), 2 ** 64, 2 ** 64 + 3, maximum + 1]
    if maximum == UINT32_MAX:
        values += [2 ** 32, 2 ** 32 + 3]
    return values


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
def test_out_of_range_integers_are_refused_before_the_library_call(entry):
    _, name, maximum, call = entry
    for value in _out_of_range(maximum) + [np.int64(-1)]:
        with pytest.raises(ValueError) as caught:
            call(value)
            pytest.fail(f"{name}={value} was taken")
        message = str(caught.value)
        assert message == f"{name} must be in 0..{maximum}, not {int(value)}", message


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize("value", [3.0, True, np.bool_(True), "3", None, np.float64(1.0)],
                         ids=["float", "bool", "numpy bool", "str", "None", "numpy float"])
def test_non_integers_are_refused(entry, value):
    entry_point, name, _, call = entry
    if value is None and name in ("block", "block_rows"):
        return  # None means automatic tiles there
    if isinstance(value, str) and entry_point in TAKING_LABELS:
        return
    with pytest.raises(TypeError) as caught:
        call(value)
    assert str(caught.value).startswith(f"{name} must be "), caught.value


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
def test_the_largest_value_of_the_c_type_reaches_the_library(entry):
    """The largest legal value passes the binding's check unchanged: the library then refuses it itself (no such
    column, block or position; a block or tile larger than the object), or takes it (a header that large)."""
    _, name, maximum, call = entry
    for value in (maximum, np.uint64(maximum) if maximum == UINT64_MAX else np.uint32(maximum)):
        # dbdf's argument errors are ValueErrors too, so they are told apart first.
        try:
            call(value)
        except dbdf.DbdfError as error:
            assert error.status in (dbdf.Status.INVALID_ARGUMENT, dbdf.Status.CALL_ORDER), error
            if error.status == dbdf.Status.INVALID_ARGUMENT and name in ("column", "index"):
                assert str(maximum) in error.message, error.message
        except ValueError as error:  # read_window cannot allocate a result that large; the range was not refused
            assert name in ("rows", "cols") and "cannot be made" in str(error), error


def test_the_issue_examples_no_longer_wrap():
    """read_column(2**64) read column 0, seek(2**64) block 0 and begin_matrix(rows=2**64 + 3) a 3-row matrix."""
    with dbdf.Reader(FRAME) as reader:
        with pytest.raises(ValueError, match="column must be in 0..18446744073709551615, not 18446744073709551616"):
            reader.read_column(2 ** 64)
        with pytest.raises(ValueError, match="index must be in 0..18446744073709551615, not 18446744073709551616"):
            reader.seek(2 ** 64)
    with dbdf.Writer.to_memory() as writer:
        with pytest.raises(ValueError, match="rows must be in 0..18446744073709551615, not 18446744073709551619"):
            writer.begin_matrix("dense", np.float64, 2 ** 64 + 3, 1)
        writer.begin_matrix("dense", np.float64, 3, 1)  # the refused call wrote nothing
        writer.write_dense(np.ones((3, 1)))
        writer.finish()
        assert dbdf.load(writer.getvalue()).shape == (3, 1)


def test_an_array_shape_beyond_a_block_dimension_is_refused():
    """A NumPy array can have 2**32 rows when it has no columns; a block cannot."""
    writer = _begun_writer()
    try:
        with pytest.raises(ValueError, match=r"values.shape\[0\] must be in 0..4294967295, not 4294967296"):
            writer.add_dense(0, 0, np.empty((2 ** 32, 0)))
    finally:
        writer.close()


def test_numpy_integers_are_taken():
    with dbdf.Reader(FRAME) as reader:
        assert reader.column_label(np.uint64(1)) == reader.column_label(1)
        assert reader.seek(np.int32(0)).info == reader.index_entry(np.uint8(0))
        window = reader.read_window(np.int64(1), np.uint16(0), np.uint32(2), np.int8(1), np.float64)
        assert_same(window, reader.read_column(0, np.float64)[1:3].reshape(2, 1))
    with dbdf.Writer.to_memory() as writer:
        writer.begin_matrix("dense", np.float64, np.uint64(2), np.int64(2))
        writer.add_empty(np.uint64(0), np.int16(0), (np.uint32(2), np.int64(2)))
        writer.finish()
        assert_same(dbdf.load(writer.getvalue()), np.zeros((2, 2)))
