"""The Spark demo step: a frame written with the Python binding, read by Spark through spark.read.format("dbdf"),
summed per group, written back with df.write.format("dbdf") and read again with the Python binding.

    python3 pyspark_groupby.py WORK_DIR DBDF_JAR DBDF_SPARK_JAR
"""

import os
import sys
import warnings
from pathlib import Path

import numpy as np
from pyspark.sql import SparkSession, functions

import dbdf


def main(work_dir: Path, dbdf_jar: str, dbdf_spark_jar: str) -> None:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # a local run: no lookup of the host's name
    # PySpark 4.2 warns that it is not yet tested with pandas 3, which the Python binding's tests use; this program
    # uses no pandas API of PySpark.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    work_dir.mkdir(parents=True, exist_ok=True)
    readings = work_dir / "readings.dbdf"
    sensors = np.arange(12, dtype=np.int32) % 3
    values = np.arange(12, dtype=np.float64) * 0.5
    dbdf.save(readings, {"sensor": sensors, "value": values})
    print(f"wrote {readings}: 12 readings of 3 sensors (Python binding)")

    # Both jars on spark.jars: the data source and the binding it reads with (which carries libdbdf).
    spark = (SparkSession.builder.master("local[2]").appName("dbdf-pyspark-groupby")
             .config("spark.jars", f"{dbdf_jar},{dbdf_spark_jar}")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "1")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        frame = spark.read.format("dbdf").load(str(readings))
        print("Spark schema:", frame.schema.simpleString())
        totals = frame.groupBy("sensor").agg(functions.sum("value").alias("total")).orderBy("sensor")
        totals.show()
        totals_dir = work_dir / "totals"
        totals.write.format("dbdf").mode("overwrite").save(str(totals_dir))
        print(f"Spark wrote {totals_dir}:", sorted(path.name[:10] + "..." for path in totals_dir.glob("part-*")))
        back = [row.asDict() for row in spark.read.format("dbdf").load(str(totals_dir)).orderBy("sensor").collect()]
    finally:
        spark.stop()

    expected = {sensor: float(values[sensors == sensor].sum()) for sensor in range(3)}
    assert {row["sensor"]: row["total"] for row in back} == expected, back
    part = next(totals_dir.glob("part-*.dbdf"))
    loaded = dbdf.load(part)
    print(f"read back with the Python binding: sensor {np.asarray(loaded['sensor']).tolist()}, "
          f"total {np.asarray(loaded['total']).tolist()}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3])
