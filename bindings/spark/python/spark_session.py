"""A SparkSession on local[2] with the dbdf data source's jars on spark.jars: what the PySpark test, the Spark demo
step and bench/spark use."""

from __future__ import annotations

import os

from pyspark.sql import SparkSession


def local_session(app_name: str, jars: str, **extra_conf: str) -> SparkSession:
    """jars: the dbdf jar and the dbdf-spark jar, comma-separated (spark.jars' syntax). The UI is off, the driver
    binds to the loopback interface (no lookup of the host's name), no progress bar is drawn and Spark logs only
    errors; extra_conf holds further Spark settings, e.g. {"spark.driver.memory": "4g"}."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = (SparkSession.builder.master("local[2]").appName(app_name)
               .config("spark.jars", jars)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2"))
    for key, value in extra_conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
