"""The Arrow PyCapsule interface with the real consumers and producers: pyarrow, polars, DuckDB and pandas (through
pyarrow) read every golden frame and matrix through Reader.__arrow_c_stream__ with the values dbdf.load gives, bit
for bit; dbdf.save writes their tables back; strings and nulls are refused naming the column."""

from __future__ import annotations

import gc
import io
import os

import duckdb
import numpy as np
import polars
import pyarrow as pa
import pytest

import dbdf
from dbdf import _arrow
from conftest import FRAMES, MATRICES, VECTORS_DIR, bits, ids, vector_path


def readers(vector):
    """A reader of the file (its batches are copies) and one of its bytes (lent where the layout allows)."""
    path = vector_path(vector)
    with open(path, "rb") as file:
        data = file.read()
    return [dbdf.Reader(path), dbdf.Reader.from_bytes(data)]


def assert_bits(actual, expected) -> None:
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype
    np.testing.assert_array_equal(bits(actual), bits(expected))


@pytest.mark.parametrize("vector", FRAMES, ids=ids(FRAMES))
def test_frames_through_pyarrow_polars_duckdb_and_pandas(vector):
    loaded = dbdf.load(vector_path(vector))  # a pandas DataFrame
    for reader in readers(vector):
        with reader:
            table = pa.table(reader)
            assert table.column_names == list(loaded.columns)
            assert table.num_rows == len(loaded)  # also without columns
            for label in loaded.columns:
                assert_bits(table.column(label).to_numpy(), loaded[label].to_numpy())
            from_polars = polars.DataFrame(reader)
            for label in loaded.columns:
                assert_bits(from_polars[label].to_numpy(), loaded[label].to_numpy())
            via_pandas = pa.table(reader).to_pandas()
            for label in loaded.columns:
                assert_bits(via_pandas[label].to_numpy(), loaded[label].to_numpy())
            if len(loaded.columns) > 0:
                frame = reader  # noqa: F841  (DuckDB finds it by its name)
                result = duckdb.sql("select * from frame").fetchnumpy()
                # DuckDB renames an empty label: compared by position
                for values, label in zip(result.values(), loaded.columns, strict=True):
                    assert_bits(values, loaded[label].to_numpy())


@pytest.mark.parametrize("vector", MATRICES, ids=ids(MATRICES))
def test_matrices_through_pyarrow(vector):
    loaded = dbdf.load(vector_path(vector))
    for reader in readers(vector):
        with reader:
            batches = pa.RecordBatchReader.from_stream(reader)
            table = batches.read_all()
            if vector["data_type"] == "dense":
                assert table.num_rows == loaded.shape[0]  # also without columns
                assert table.column_names == [f"c{column}" for column in range(loaded.shape[1])]
                for column in range(loaded.shape[1]):
                    assert_bits(table.column(column).to_numpy(), np.ascontiguousarray(loaded[:, column]))
            else:
                coo = loaded.tocoo()
                order = np.lexsort((coo.col, coo.row))
                assert table.column_names == ["row", "col", "value"]
                np.testing.assert_array_equal(table.column("row").to_numpy(), coo.row[order])
                np.testing.assert_array_equal(table.column("col").to_numpy(), coo.col[order])
                assert_bits(table.column("value").to_numpy(), coo.data[order])


def test_rows_of_a_matrix_without_columns_reach_arrow(tmp_path):
    path = tmp_path / "no_columns.dbdf"
    dbdf.save(path, np.zeros((3, 0)))
    with dbdf.Reader(path) as reader:
        table = pa.table(reader)
        assert (table.num_rows, table.num_columns) == (3, 0)
        listed = pa.table(reader.arrow_stream(dense="list"))
        list_type = listed.schema.field(0).type
        assert listed.num_rows == 3 and pa.types.is_fixed_size_list(list_type) and list_type.list_size == 0


def test_schema_capsule_and_an_unconsumed_stream_are_released():
    vector = FRAMES[0]
    with dbdf.Reader(vector_path(vector)) as reader:
        schema = pa.schema(reader)
        assert schema.names == list(dbdf.load(vector_path(vector)).columns)
        capsule = reader.__arrow_c_stream__()
        assert len(_arrow._kept) >= 1
        del capsule  # never imported: its destructor releases the stream
    gc.collect()
    assert _arrow._kept == {}


def test_batches_outlive_the_reader():
    vector = FRAMES[0]
    expected = dbdf.load(vector_path(vector))
    with open(vector_path(vector), "rb") as file:
        reader = dbdf.Reader.from_bytes(file.read())
    table = pa.table(reader)
    reader.close()
    del reader
    gc.collect()
    for label in expected.columns:
        assert_bits(table.column(label).to_numpy(), expected[label].to_numpy())
    del table
    gc.collect()
    assert _arrow._kept == {}


def test_a_bytes_reader_lends_its_one_byte_columns():
    sink = io.BytesIO()
    dbdf.save(sink, {"a": np.arange(100, dtype=np.uint8)}, encoding="as-given")
    data = sink.getvalue()
    table = pa.table(dbdf.Reader.from_bytes(data))
    base = np.frombuffer(data, dtype=np.uint8).ctypes.data
    address = table.column("a").chunk(0).buffers()[1].address
    assert base <= address < base + len(data)
    assert_bits(table.column("a").to_numpy(), np.arange(100, dtype=np.uint8))


def test_save_takes_pyarrow_polars_and_duckdb_tables(tmp_path):
    values = {"small": np.array([1, 2, 250], dtype=np.uint8), "wide": np.array([-0.0, 1.5, np.nan])}
    table = pa.table(values)
    producers = {"pyarrow": table, "polars": polars.from_arrow(table)}
    duckdb_source = table  # noqa: F841  (DuckDB finds it by its name)
    producers["duckdb"] = duckdb.sql("select * from duckdb_source")
    for name, producer in producers.items():
        path = tmp_path / f"{name}.dbdf"
        dbdf.save(path, producer)
        loaded = dbdf.load(path)
        assert list(loaded.columns) == ["small", "wide"]
        for label, column in values.items():
            assert_bits(loaded[label].to_numpy(), column)


def test_save_refuses_strings_and_nulls_naming_the_column(tmp_path):
    path = tmp_path / "refused.dbdf"
    with pytest.raises(dbdf.DbdfError, match=r"column 1 \('name'\).*string"):
        dbdf.save(path, pa.table({"id": [1, 2], "name": ["a", "b"]}))
    with pytest.raises(dbdf.DbdfError, match=r"column 0 \('x'\) holds a null \(row 1"):
        dbdf.save(path, pa.table({"x": pa.array([1.0, None, 3.0])}))
    assert not path.exists()


CSR_MATRICES = [vector for vector in MATRICES if vector["data_type"] == "csr"]


@pytest.mark.parametrize("vector", CSR_MATRICES, ids=ids(CSR_MATRICES))
def test_csr_arrays_through_pyarrow_equal_the_csr_read(vector):
    loaded = dbdf.load(vector_path(vector))  # a scipy.sparse.csr_matrix
    for reader in readers(vector):
        with reader:
            table = pa.table(reader.arrow_stream(csr="arrays"))
            assert table.column_names == ["row_begin", "row_offsets", "col", "value"]
            row_offsets, cols, values = [0], [], []
            for batch in table.to_batches():
                assert batch.num_rows == 1
                assert batch.column("row_begin")[0].as_py() == len(row_offsets) - 1
                band_offsets = batch.column("row_offsets")[0].values.to_numpy()
                row_offsets.extend(len(cols) + band_offsets[1:])
                cols.extend(batch.column("col")[0].values.to_numpy())
                values.append(batch.column("value")[0].values.to_numpy())
            np.testing.assert_array_equal(np.array(row_offsets, dtype=np.uint64), loaded.indptr)
            np.testing.assert_array_equal(np.array(cols, dtype=np.uint64), loaded.indices)
            all_values = np.concatenate(values) if values else np.empty(0, dtype=loaded.dtype)
            assert_bits(all_values.astype(loaded.dtype, copy=False), loaded.data)


def test_arrow_stream_layouts_and_their_schemas():
    dense = next(vector for vector in MATRICES if vector["data_type"] == "dense" and vector["cols"] > 1)
    loaded = dbdf.load(vector_path(dense))
    with dbdf.Reader(vector_path(dense)) as reader:
        stream = reader.arrow_stream(dense="list")
        assert pa.schema(stream).names == ["values"]
        table = pa.table(stream)
        values = np.concatenate([chunk.flatten().to_numpy() for chunk in table.column("values").chunks])
        assert_bits(values, np.ascontiguousarray(loaded).reshape(-1))
        with pytest.raises(ValueError, match="csr must be one of"):
            reader.arrow_stream(csr="coo")
        with pytest.raises(ValueError, match="dense must be one of"):
            reader.arrow_stream(dense="rows")
    del table  # its batches hold the stream's release hook back
    gc.collect()
    assert _arrow._kept == {}


@pytest.mark.parametrize("name, keep", [("coo_f64.dbdf", 40), ("dense_f64.dbdf", -1)])
def test_a_corrupt_file_gives_pyarrow_dbdfs_message_not_a_system_error(tmp_path, name, keep):
    """pyarrow releases the stream of a failed pull while its ArrowInvalid propagates: nothing of dbdf may run Python
    code then, or the exception becomes a SystemError without dbdf's message."""
    with open(os.path.join(VECTORS_DIR, name), "rb") as file:
        data = file.read()
    path = tmp_path / "truncated.dbdf"
    path.write_bytes(data[:keep])
    with pytest.raises(dbdf.DbdfFormatError) as expected:
        dbdf.load(path)
    with dbdf.Reader(path) as reader:  # opens: the header is whole, a block is not
        with pytest.raises(pa.ArrowInvalid) as failure:
            pa.table(reader)
    assert expected.value.args[0].split(": ", 1)[-1][:40] in str(failure.value)
    # The Arrow error gives the library's details back, as load()'s own error has them.
    converted = dbdf.DbdfError.from_arrow_error(failure.value)
    assert isinstance(converted, dbdf.DbdfFormatError)
    assert (converted.rule, converted.offset) == (expected.value.rule, expected.value.offset)
    assert converted.offset is not None
    gc.collect()
    assert _arrow._kept == {} and _arrow._capsules == {}


def test_a_stream_dropped_while_an_exception_propagates_is_released_and_the_exception_survives():
    with dbdf.Reader(vector_path(FRAMES[0])) as reader:
        # int() refuses the capsule; map drops its only reference with that TypeError pending, as a consumer's error
        # path does. The TypeError must reach here, and the stream must be released all the same.
        with pytest.raises(TypeError, match="PyCapsule"):
            list(map(int, (reader.__arrow_c_stream__() for _ in range(1))))
        gc.collect()
        assert _arrow._kept == {}
        assert _arrow._capsules == {}
