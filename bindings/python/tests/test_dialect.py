"""The daphne dialect: every file DAPHNE's runtime wrote (tests/vectors/daphne-runtime, described by corpus.json)
read with its values, refusals, and writing the runtime's bytes and .meta sidecars exactly."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import VECTORS_DIR, assert_same

CORPUS_DIR = VECTORS_DIR / "daphne-runtime"
CORPUS = json.loads((CORPUS_DIR / "corpus.json").read_text(encoding="utf-8"))
READABLE = [entry for entry in CORPUS["files"] if "refused" not in entry]
REFUSED = [entry for entry in CORPUS["files"] if "refused" in entry]
MATRICES = [entry for entry in READABLE if entry["data_type"] in ("dense", "csr")]
FRAMES = [entry for entry in READABLE if entry["data_type"] == "frame"]
SCALARS = [entry for entry in READABLE if entry["data_type"] == "scalar"]
REPRODUCIBLE = [entry for entry in MATRICES + SCALARS if entry["reproducible"]]


def names(entries):
    return [entry["file"] for entry in entries]


def dtype_of(name: str) -> np.dtype:
    """A corpus value type name ("f64", "i32", "u8", ...) as a dtype."""
    return dbdf.ValueType[name.upper()].dtype


def corpus_path(entry) -> str:
    return str(CORPUS_DIR / entry["file"])


def expected_dense(entry) -> np.ndarray:
    return np.array(entry["values"], dtype=dtype_of(entry["value_type"])).reshape(entry["rows"], entry["cols"])


def expected_csr(entry) -> scipy.sparse.csr_matrix:
    return scipy.sparse.csr_matrix(
        (np.array(entry["values"], dtype=dtype_of(entry["value_type"])), np.array(entry["col_indices"], np.int64),
         np.array(entry["row_offsets"], np.int64)), shape=(entry["rows"], entry["cols"]))


def expected_object(entry):
    """The object load() gives for the entry: an ndarray, a csr_matrix or, for a scalar, a NumPy scalar."""
    if entry["data_type"] == "scalar":
        return dtype_of(entry["value_type"]).type(entry["values"][0])
    return expected_dense(entry) if entry["data_type"] == "dense" else expected_csr(entry)


def assert_same_csr(actual, expected: scipy.sparse.csr_matrix) -> None:
    assert isinstance(actual, scipy.sparse.csr_matrix)
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype
    assert actual.indptr.tolist() == expected.indptr.tolist()
    assert actual.indices.tolist() == expected.indices.tolist()
    assert_same(actual.data, expected.data)


# -- reading ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", MATRICES, ids=names(MATRICES))
def test_every_runtime_matrix_loads_with_its_values(entry):
    loaded = dbdf.load(corpus_path(entry), dialect="daphne")
    if entry["data_type"] == "dense":
        assert_same(loaded, expected_dense(entry))
    else:
        assert_same_csr(loaded, expected_csr(entry))


@pytest.mark.parametrize("entry", MATRICES, ids=names(MATRICES))
def test_every_runtime_matrix_reads_as_one_block_from_a_file_and_from_memory(entry):
    data = (CORPUS_DIR / entry["file"]).read_bytes()
    for reader in (dbdf.Reader(corpus_path(entry), "daphne"), dbdf.Reader.from_bytes(data, dbdf.Dialect.DAPHNE)):
        with reader:
            assert reader.dialect is dbdf.Dialect.DAPHNE
            assert reader.labels_recoverable
            assert reader.info.data_type is dbdf.DataType[entry["data_type"].upper()]
            assert reader.info.value_type.dtype == dtype_of(entry["value_type"])
            assert reader.shape == (entry["rows"], entry["cols"])
            assert reader.info.total_bytes == len(data)
            blocks = list(reader)
            assert [(block.row, block.col, block.shape) for block in blocks] == [(0, 0, reader.shape)]
            expected = expected_object(entry)
            dense = expected if entry["data_type"] == "dense" else expected.toarray()
            assert_same(blocks[0].decode_dense(), dense)
            assert reader.validate() == []


@pytest.mark.parametrize("entry", FRAMES, ids=names(FRAMES))
def test_runtime_frames_read_with_default_labels_that_are_not_recoverable(entry, without_pandas):
    loaded = dbdf.load(corpus_path(entry), dialect="daphne")
    labels = [f"col_{column}" for column in range(entry["cols"])]
    assert [column["label"] for column in entry["columns"]] == labels
    assert list(loaded) == labels
    for column in entry["columns"]:
        assert_same(loaded[column["label"]], np.array(column["values"], dtype=dtype_of(column["value_type"])))
    with dbdf.Reader(corpus_path(entry), dialect="daphne") as reader:
        assert not reader.labels_recoverable
        assert reader.column_labels == labels
        assert reader.column_types == [dbdf.ValueType[column["value_type"].upper()] for column in entry["columns"]]


def test_a_runtime_frame_loads_as_a_dataframe():
    import pandas
    loaded = dbdf.load(CORPUS_DIR / "frame_mixed.dbdf", dialect="daphne")
    assert isinstance(loaded, pandas.DataFrame)
    assert list(loaded.columns) == ["col_0", "col_1", "col_2"]
    assert loaded["col_0"].tolist() == [1000, 1001, 1002, 1003]
    assert loaded["col_2"].dtype == np.float32


def test_frame_columns_are_strided_blocks_of_the_interleaved_rows():
    with dbdf.Reader(CORPUS_DIR / "frame_mixed.dbdf", dialect="daphne") as reader:
        blocks = list(reader)
        assert [(block.row, block.col, block.shape) for block in blocks] == [(0, 0, (4, 1)), (0, 1, (4, 1)),
                                                                             (0, 2, (4, 1))]
        row_width = 8 + 8 + 4  # i64, f64, f32
        for block in blocks:
            assert block.payload_layout() == (dbdf.PayloadLayout.STRIDED_COLUMN, row_width)
        payload = blocks[1].payload()  # score: the f64 values, a row apart
        scores = [struct.unpack_from("<d", payload, row * row_width)[0] for row in range(4)]
        assert scores == [-1.0, 0.5, 2.0, 3.5]
        assert_same(blocks[2].decode_dense(), np.array([[0.25], [0.5], [0.75], [1.0]], dtype=np.float32))
        out = np.zeros(4, dtype=np.int64)
        assert reader.read_column(0, out=out) is out
        assert out.tolist() == [1000, 1001, 1002, 1003]


def test_payload_layouts_of_runtime_matrices():
    with dbdf.Reader(CORPUS_DIR / "dense_f64_3x4.dbdf", dialect="daphne") as reader:
        assert reader[0].payload_layout() == (dbdf.PayloadLayout.SPEC, 0)
    with dbdf.Reader(CORPUS_DIR / "csr_f64_6x5.dbdf", dialect="daphne") as reader:
        block = reader[0]
        assert block.payload_layout() == (dbdf.PayloadLayout.DAPHNE_CSR, 0)
        payload = block.payload()
        # row offsets, column indices (both uint64), then the values
        offsets = np.frombuffer(payload, dtype="<u8", count=7)
        indices = np.frombuffer(payload, dtype="<u8", count=7, offset=7 * 8)
        values = np.frombuffer(payload, dtype="<f8", count=7, offset=14 * 8)
        assert offsets.tolist() == [0, 2, 2, 3, 6, 7, 7]
        assert indices.tolist() == [1, 4, 0, 2, 3, 4, 1]
        assert values.tolist() == [1.5, -2.25, 3.0, 4.5, 5.0, 6.75, 7.125]
        assert block.decode_csr().to_scipy().toarray().tolist() == expected_csr(
            next(entry for entry in MATRICES if entry["file"] == "csr_f64_6x5.dbdf")).toarray().tolist()


@pytest.mark.parametrize("entry", SCALARS, ids=names(SCALARS))
def test_runtime_scalars_load_as_numpy_scalars(entry):
    loaded = dbdf.load(corpus_path(entry), dialect="daphne")
    assert isinstance(loaded, np.generic)
    assert loaded.dtype == dtype_of(entry["value_type"])
    assert loaded == entry["values"][0]
    with dbdf.Reader(corpus_path(entry), dialect="daphne") as reader:
        assert reader.info.data_type is dbdf.DataType.SCALAR
        assert reader.shape == (1, 1)
        assert [block.shape for block in reader] == [(1, 1)]


@pytest.mark.parametrize("entry", REFUSED, ids=names(REFUSED))
def test_string_data_is_refused_with_its_status(entry):
    status = dbdf.Status[entry["refused"].upper()]
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.Reader(corpus_path(entry), dialect="daphne")
    assert caught.value.status == status
    assert caught.value.code == int(status)
    assert "DAPHNE value type 8 (STR)" in caught.value.message
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.load((CORPUS_DIR / entry["file"]).read_bytes(), dialect="daphne")
    assert caught.value.status == status


def test_the_unsupported_string_matrix_is_refused_as_unsupported():
    assert {entry["file"]: entry["refused"] for entry in REFUSED}["dense_str_2x2.dbdf"] == "unsupported"


def test_the_spec_dialect_is_the_default_and_never_reads_the_runtimes_layout():
    path = CORPUS_DIR / "csr_f64_6x5.dbdf"
    with dbdf.Reader(path) as reader:
        assert reader.dialect is dbdf.Dialect.SPEC
        assert reader.validate() != []
    with pytest.raises(dbdf.DbdfError):
        dbdf.load(path)


def test_unknown_dialects_are_refused():
    with pytest.raises(ValueError, match="unknown dialect 'DAPHNE-1'"):
        dbdf.load(CORPUS_DIR / "dense_f64_3x4.dbdf", dialect="DAPHNE-1")
    with pytest.raises(ValueError, match="unknown dialect"):
        dbdf.Writer.to_memory(dialect=1.0)
    assert_same(dbdf.load(CORPUS_DIR / "dense_u8_4x4.dbdf", dialect="DAPHNE"),
                (16 * np.arange(16) + 15).astype(np.uint8).reshape(4, 4))


# -- writing ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", REPRODUCIBLE, ids=names(REPRODUCIBLE))
def test_save_writes_the_runtimes_bytes_and_meta_file(tmp_path, entry):
    path = tmp_path / entry["file"]
    dbdf.save(path, expected_object(entry), dialect="daphne")
    assert path.read_bytes() == (CORPUS_DIR / entry["file"]).read_bytes()
    meta = tmp_path / (entry["file"] + ".meta")
    # The runtime writes no .meta for a scalar; every matrix gets one.
    assert meta.exists() == (entry["data_type"] != "scalar")
    if "meta" in entry:
        assert meta.read_text() == (CORPUS_DIR / entry["meta"]).read_text()


@pytest.mark.parametrize("entry", REPRODUCIBLE, ids=names(REPRODUCIBLE))
def test_a_memory_writer_writes_the_runtimes_bytes(entry):
    with dbdf.Writer.to_memory(dialect=dbdf.Dialect.DAPHNE) as writer:
        assert writer.dialect is dbdf.Dialect.DAPHNE
        matrix = expected_object(entry)
        if entry["data_type"] == "scalar":
            # A scalar's value goes in as a 1 x 1 matrix's.
            matrix = np.asarray(matrix).reshape(1, 1)
        writer.begin_matrix(entry["data_type"], matrix.dtype, *matrix.shape)
        if entry["data_type"] in ("dense", "scalar"):
            writer.write_dense(matrix)
        else:
            writer.write_sparse(matrix)
        writer.finish()
        assert writer.getvalue() == (CORPUS_DIR / entry["file"]).read_bytes()


def test_meta_files_of_csr_matrices_and_large_matrices(tmp_path):
    entry = next(entry for entry in MATRICES if entry["file"] == "csr_f64_6x5.dbdf")
    dbdf.save(tmp_path / "s.dbdf", expected_csr(entry), dialect="daphne")
    assert (tmp_path / "s.dbdf.meta").read_text() == '{"numCols":5,"numNonZeros":7,"numRows":6,"valueType":"f64"}'
    for name, meta in CORPUS["meta"].items():
        rows, cols = meta["rows"], meta["cols"]
        path = tmp_path / name[:-len(".meta")]
        dbdf.save(path, np.arange(rows * cols, dtype=np.float64).reshape(rows, cols), dialect="daphne")
        assert path.stat().st_size == 45 + rows * cols * 8
        assert (tmp_path / name).read_text() == (CORPUS_DIR / name).read_text()


def test_write_meta_false_writes_no_meta_file(tmp_path):
    path = tmp_path / "m.dbdf"
    dbdf.save(path, np.eye(2), dialect="daphne", write_meta=False)
    assert [entry.name for entry in tmp_path.iterdir()] == ["m.dbdf"]
    with dbdf.Writer(tmp_path / "w.dbdf", dialect="daphne", write_meta=False) as writer:
        writer.begin_matrix("dense", np.float64, 1, 1)
        writer.add_dense(0, 0, np.array([[2.5]]))
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["m.dbdf", "w.dbdf"]
    assert_same(dbdf.load(tmp_path / "w.dbdf", dialect="daphne"), np.array([[2.5]]))
    dbdf.save(tmp_path / "spec.dbdf", np.eye(2), write_meta=True)  # the spec dialect has no sidecar
    assert not (tmp_path / "spec.dbdf.meta").exists()


def replaced_labels(data: bytes, labels: list[str]) -> bytes:
    """A runtime frame file with the label bytes (the runtime's memory, not text) replaced by `labels`."""
    columns = struct.unpack_from("<Q", data, 10)[0]
    position = 18 + columns
    result = bytearray(data)
    for label in labels:
        length = struct.unpack_from("<H", data, position)[0]
        assert length == len(label)
        result[position + 2:position + 2 + length] = label.encode()
        position += 2 + length
    return bytes(result)


def test_save_of_a_frame_writes_the_runtimes_layout_with_real_labels(tmp_path):
    entry = next(entry for entry in FRAMES if entry["file"] == "frame_mixed.dbdf")
    assert entry["reproducible_with_labels_replaced"]
    frame = {column["written_label"]: np.array(column["values"], dtype=dtype_of(column["value_type"]))
             for column in entry["columns"]}
    path = tmp_path / "f.dbdf"
    dbdf.save(path, frame, dialect="daphne")
    assert path.read_bytes() == replaced_labels((CORPUS_DIR / "frame_mixed.dbdf").read_bytes(), list(frame))
    assert (tmp_path / "f.dbdf.meta").read_text() == (
        '{"numCols":3,"numRows":4,"schema":[{"label":"id","valueType":"si64"},'
        '{"label":"score","valueType":"f64"},{"label":"w","valueType":"f32"}]}')


def test_a_scalar_round_trips_and_the_spec_dialect_refuses_it(tmp_path):
    path = tmp_path / "v.bin"
    dbdf.save(path, np.float32(-1.5), dialect="daphne")
    assert path.read_bytes() == bytes([1, 4] + [0] * 16 + [6]) + np.float32(-1.5).tobytes()
    loaded = dbdf.load(path, dialect="daphne")
    assert isinstance(loaded, np.float32) and loaded == np.float32(-1.5)
    with pytest.raises(ValueError, match="0-dimensional"):
        dbdf.save(tmp_path / "spec.dbdf", np.float32(-1.5))
    writer = dbdf.Writer.to_memory()
    try:
        with pytest.raises(dbdf.DbdfError) as caught:
            writer.begin_matrix("scalar", np.float64, 1, 1)
    finally:
        writer.close()
    assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
    assert "only in the daphne dialect" in caught.value.message


@pytest.mark.parametrize("dtype", [np.int16, np.uint16])
def test_16_bit_values_are_refused_by_the_daphne_dialect(tmp_path, dtype):
    path = tmp_path / "m.dbdf"
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.save(path, np.zeros((2, 2), dtype=dtype), dialect="daphne")
    assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
    value_type = dbdf.ValueType["U16" if np.dtype(dtype).kind == "u" else "I16"].name.lower()
    assert f"value type {value_type}, which the daphne dialect cannot express" in caught.value.message
    assert list(tmp_path.iterdir()) == []  # neither the file nor a .meta sidecar
    dbdf.save(path, np.zeros((2, 2), dtype=dtype))  # the spec dialect stores them


def test_tiles_do_not_apply_to_the_daphne_dialect(tmp_path):
    with pytest.raises(ValueError, match="one block"):
        dbdf.save(tmp_path / "m.dbdf", np.eye(4), block=2, dialect="daphne")
    assert list(tmp_path.iterdir()) == []


def test_a_round_trip_of_every_daphne_type(tmp_path):
    for dtype in (np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.float32, np.float64):
        matrix = np.arange(12, dtype=dtype).reshape(3, 4)
        dbdf.save(tmp_path / "m.dbdf", matrix, dialect=dbdf.Dialect.DAPHNE)
        assert_same(dbdf.load(tmp_path / "m.dbdf", dialect=dbdf.Dialect.DAPHNE), matrix)
        sparse = scipy.sparse.csr_matrix(np.where(matrix % 3 == 0, matrix, 0))
        dbdf.save(tmp_path / "s.dbdf", sparse, dialect="daphne")
        assert_same_csr(dbdf.load(tmp_path / "s.dbdf", dialect="daphne"), sparse)


def test_save_refuses_frame_labels_longer_than_daphnes_reader_survives(tmp_path):
    """DAPHNE's frame reader copies each label over a 32-byte std::string object: a longer one overflows its heap."""
    path = tmp_path / "f.dbdf"
    with pytest.raises(dbdf.DbdfError) as caught:
        dbdf.save(path, {"id": np.arange(2, dtype=np.int64), "x" * 33: np.zeros(2)}, dialect="daphne")
    assert caught.value.status == dbdf.Status.INVALID_ARGUMENT
    assert caught.value.message == (
        "frame column 1 label 'xxxxxxxxxxxxxxxxxxxx\u2026' is 33 bytes; DAPHNE's reader copies each label's bytes "
        "over a 32-byte std::string object, so a longer label overflows its heap: the daphne dialect takes labels "
        "of at most 32 bytes")
    assert list(tmp_path.iterdir()) == []
    dbdf.save(path, {"id": np.arange(2, dtype=np.int64), "x" * 32: np.zeros(2)}, dialect="daphne")
    assert b"x" * 32 in path.read_bytes()
    dbdf.save(tmp_path / "spec.dbdf", {"x" * 33: np.zeros(2)})  # the spec dialect has no such limit
    assert list(dbdf.load(tmp_path / "spec.dbdf")) == ["x" * 33]
