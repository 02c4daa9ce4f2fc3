"""The Spark data source from PySpark: spark.read.format("dbdf") and df.write.format("dbdf") with the dbdf and
dbdf-spark jars on spark.jars, checked value for value (bit for bit for floats) against the Python binding's
dbdf.load of the same files. One SparkSession on local[2] for the whole module.

Environment (set by CTest, bindings/spark/python/CMakeLists.txt): DBDF_SPARK_JARS (the two jars, comma-separated),
DBDF_VECTORS_DIR (tests/vectors), and what the Python binding's own tests get (DBDF_LIBRARY, PYTHONPATH)."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse

import dbdf
from spark_session import local_session

VECTORS_DIR = Path(os.environ["DBDF_VECTORS_DIR"])
VALID = json.loads((VECTORS_DIR / "vectors.json").read_text(encoding="utf-8"))["valid"]
FRAMES = [vector for vector in VALID if vector["data_type"] == "frame"]
DENSE = [vector for vector in VALID if vector["data_type"] == "dense"]
CSR = [vector for vector in VALID if vector["data_type"] == "csr"]

# The type mapping of bindings/spark/README.md ("Schema: from the header alone"), as Spark spells the types.
SPARK_TYPE_OF = {
    "i8": "tinyint", "i16": "smallint", "i32": "int", "i64": "bigint",
    "u8": "smallint", "u16": "int", "u32": "bigint", "u64": "decimal(20,0)",
    "f32": "float", "f64": "double",
}


@pytest.fixture(scope="module")
def spark():
    # C1 only and the serial collector: a short run of small queries spends less on compiling and collecting.
    session = local_session("dbdf-pyspark-test", os.environ["DBDF_SPARK_JARS"],
                            **{"spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"})
    yield session
    session.stop()


def read(spark, path: Path, **options):
    return spark.read.format("dbdf").options(**options).load(str(path))


def as_array(values: list, dtype: np.dtype) -> np.ndarray:
    """Values Spark returned (int, float or Decimal for u64) as an array of the dbdf value type's dtype."""
    if dtype == np.uint64:
        assert all(isinstance(value, Decimal) and value == value.to_integral_value() for value in values)
        return np.array([int(value) for value in values], dtype=np.uint64)
    return np.array(values, dtype=np.float64 if dtype.kind == "f" else np.int64).astype(dtype)


def assert_same_bits(actual: np.ndarray, expected: np.ndarray) -> None:
    """Same dtype, shape and bit patterns (so -0.0 and NaN payloads count)."""
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    unsigned = np.dtype(f"u{expected.dtype.itemsize}")
    np.testing.assert_array_equal(np.ascontiguousarray(actual).view(unsigned),
                                  np.ascontiguousarray(expected).view(unsigned))


def schema_of(frame) -> list[tuple[str, str]]:
    return [(field.name, field.dataType.simpleString()) for field in frame.schema.fields]


@pytest.mark.parametrize("vector", FRAMES, ids=[vector["file"] for vector in FRAMES])
def test_golden_frame(spark, vector):
    path = VECTORS_DIR / vector["file"]
    expected = dbdf.load(path)
    names = [label or f"col_{index}" for index, label in enumerate(vector["labels"])]
    frame = read(spark, path)
    assert schema_of(frame) == [(name, SPARK_TYPE_OF[type_name])
                                for name, type_name in zip(names, vector["column_types"])]
    rows = frame.collect()
    assert len(rows) == vector["rows"]
    for name, label in zip(names, vector["labels"]):
        column = np.asarray(expected[label])
        assert_same_bits(as_array([row[name] for row in rows], column.dtype), column)


@pytest.mark.parametrize("vector", DENSE, ids=[vector["file"] for vector in DENSE])
def test_golden_dense_matrix(spark, vector):
    path = VECTORS_DIR / vector["file"]
    expected = dbdf.load(path)
    frame = read(spark, path)
    spark_type = SPARK_TYPE_OF[vector["value_type"]]
    assert schema_of(frame) == [("row", "bigint")] + [(f"c{col}", spark_type) for col in range(vector["cols"])]
    rows = sorted(frame.collect(), key=lambda row: row["row"])
    assert [row["row"] for row in rows] == list(range(vector["rows"]))
    cells = [row[f"c{col}"] for row in rows for col in range(vector["cols"])]
    assert_same_bits(as_array(cells, expected.dtype).reshape(expected.shape), expected)


@pytest.mark.parametrize("vector", CSR, ids=[vector["file"] for vector in CSR])
def test_golden_csr_matrix_entries(spark, vector):
    path = VECTORS_DIR / vector["file"]
    expected = dbdf.load(path)
    assert isinstance(expected, scipy.sparse.csr_matrix)
    frame = read(spark, path)
    assert schema_of(frame) == [("row", "bigint"), ("col", "bigint"), ("value", SPARK_TYPE_OF[vector["value_type"]])]
    entries = frame.collect()
    positions = [(entry["row"], entry["col"]) for entry in entries]
    assert len(set(positions)) == len(positions), "an entry is returned twice"
    scattered = np.zeros(expected.shape, dtype=expected.dtype)
    for (row, col), value in zip(positions, as_array([entry["value"] for entry in entries], expected.dtype)):
        scattered[row, col] = value
    # The binding's stored entries, placed the same way (toarray() would add them to zeros and lose -0.0).
    stored = expected.tocoo()
    placed = np.zeros(expected.shape, dtype=expected.dtype)
    placed[stored.row, stored.col] = stored.data
    assert_same_bits(scattered, placed)
    # Every entry the binding stores is one Spark returns (Spark may return more: the zeros of dense blocks).
    assert set(zip(stored.row.tolist(), stored.col.tolist())) <= set(positions)


def test_daphne_dialect(spark):
    path = VECTORS_DIR / "daphne-runtime" / "dense_f64_37x23.dbdf"
    expected = dbdf.load(path, dialect="daphne")
    with pytest.raises(Exception, match="dbdf: cannot read"):
        read(spark, path).collect()  # the spec dialect refuses DAPHNE's files
    frame = read(spark, path, dialect="daphne")
    assert schema_of(frame) == [("row", "bigint")] + [(f"c{col}", "double") for col in range(23)]
    rows = sorted(frame.collect(), key=lambda row: row["row"])
    actual = np.array([[row[f"c{col}"] for col in range(23)] for row in rows], dtype=np.float64)
    assert_same_bits(actual, expected)


def test_daphne_dialect_frame(spark):
    path = VECTORS_DIR / "daphne-runtime" / "frame_8c_7r.dbdf"
    expected = dbdf.load(path, dialect="daphne")
    rows = read(spark, path, dialect="daphne").collect()
    assert len(rows) == 7
    for label in expected:
        column = np.asarray(expected[label])
        assert_same_bits(as_array([row[label] for row in rows], column.dtype), column)


def test_column_pruning(spark, tmp_path):
    """Selecting one column of a frame written in column blocks: the scan reads only that column, with its values."""
    ids = np.arange(1000, dtype=np.int64) - 500
    prices = np.linspace(-1.0, 1.0, 1000)
    counts = (np.arange(1000) % 200).astype(np.uint8)
    path = tmp_path / "three_columns.dbdf"
    dbdf.save(path, {"id": ids, "price": prices, "count": counts}, block=(100, 1))
    pruned = read(spark, path).select("price")
    assert schema_of(pruned) == [("price", "double")]
    scan = pruned._jdf.queryExecution().executedPlan().toString()
    assert "price" in scan and "count" not in scan and "id#" not in scan, scan
    assert_same_bits(np.array([row["price"] for row in pruned.collect()]), prices)
    assert pruned.agg({"price": "sum"}).first()[0] == pytest.approx(float(prices.sum()))


def test_write_round_trip(spark, tmp_path):
    # Built in the JVM (no Python worker needed): 50 rows of five column types in two partitions.
    source = spark.range(50, numPartitions=2).selectExpr(
        "id - 3 AS id", "CAST(id AS DOUBLE) / 4 AS ratio", "CAST(id * 0.5 AS FLOAT) AS half",
        "CAST(id % 100 AS TINYINT) AS small", "CAST(id * 7 % 1000 AS SMALLINT) AS medium")
    rows = [(index - 3, index / 4, index * 0.5, index % 100, index * 7 % 1000) for index in range(50)]
    target = tmp_path / "written"
    source.write.format("dbdf").save(str(target))
    parts = sorted(target.glob("part-*.dbdf"))
    assert len(parts) == 2 and (target / "_SUCCESS").exists()
    assert not (target / "_temporary").exists()

    back = read(spark, target)
    assert schema_of(back) == [("id", "bigint"), ("ratio", "double"), ("half", "float"), ("small", "tinyint"),
                               ("medium", "smallint")]
    assert sorted(tuple(row) for row in back.collect()) == rows

    # The part files, one per task, concatenated in name order: the rows in order, each column in its type.
    loaded = [dbdf.load(part) for part in parts]
    assert all(list(part.keys()) == ["id", "ratio", "half", "small", "medium"] for part in loaded)
    for index, (name, dtype) in enumerate([("id", np.int64), ("ratio", np.float64), ("half", np.float32),
                                           ("small", np.int8), ("medium", np.int16)]):
        column = np.concatenate([np.asarray(part[name]) for part in loaded])
        assert column.dtype == dtype
        assert column.tolist() == [row[index] for row in rows]

    with pytest.raises(Exception, match="already exists"):
        source.write.format("dbdf").save(str(target))  # the default save mode refuses an existing directory
