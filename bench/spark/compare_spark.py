"""The Spark data source against Parquet: the same float64 table (random doubles, --rows x --cols, 16 Mi x 8 = 1 GiB
by default) as a dense .dbdf matrix and as Parquet files, uncompressed and snappy (written by pyarrow, row groups
of --band rows), read by one SparkSession on local[2]: count() and the sum of every column, each a fresh
spark.read of the file. The page cache is warm (the files are read once before timing); each query runs once to
warm up, then --repeats rounds in which every format runs in turn, so machine load drifts over all of them alike.
Prints median and best and the ratios Parquet / dbdf (above 1: dbdf is faster).

    python3 bench/spark/compare_spark.py [--rows 16777216] [--cols 8] [--band 1048576] [--block-cols 8] [--repeats 5]
        [--dir /var/tmp] [--build build] [--json out.json] [--jfr out.jfr]

--build: the build tree whose dbdf and dbdf-spark jars go on spark.jars. --jfr: instead of timing, run dbdf's two
queries twice each with Java Flight Recorder on the driver JVM (where local mode runs the tasks) and print the
methods most often on top of the sampled stacks and the dbdf methods they run under.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import dbdf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "compare"))
sys.path.insert(0, str(ROOT / "bindings" / "spark" / "python"))
from spark_session import local_session  # noqa: E402
from timing import Timing, measure_interleaved, print_ratios, report  # noqa: E402


def jars_of(build: Path) -> str:
    """The build's dbdf jar and dbdf-spark jar, comma-separated."""
    found = []
    for folder, prefix in ((build / "bindings" / "java" / "maven", "dbdf-"),
                           (build / "bindings" / "spark" / "maven", "dbdf-spark-")):
        jars = [jar for jar in folder.glob(f"{prefix}[0-9]*.jar")
                if not jar.name.endswith(("-sources.jar", "-javadoc.jar"))]
        if len(jars) != 1:
            sys.exit(f"compare_spark: expected one {prefix}<version>.jar in {folder}, found {jars}: build the targets "
                     "dbdf_java_jar and dbdf_spark_jar first")
        found.append(str(jars[0]))
    return ",".join(found)


def write_files(folder: Path, rows: int, cols: int, band: int, block_cols: int) -> dict[str, Path]:
    """The three files, each written once and reused (their names carry the shape)."""
    stem = f"spark_bench_{rows}x{cols}_b{band}"
    paths = {"dbdf": folder / f"{stem}{'' if block_cols == cols else f'_c{block_cols}'}.dbdf",
             "parquet": folder / f"{stem}.parquet", "parquet-snappy": folder / f"{stem}.snappy.parquet"}
    if all(path.exists() for path in paths.values()):
        return paths
    print(f"writing {rows} x {cols} random doubles into {folder} ...", flush=True)
    values = np.random.default_rng(24).random((rows, cols))
    if not paths["dbdf"].exists():
        # Blocks of `band` rows (one row band per block, as Parquet has one row group per `band` rows) by
        # `block_cols` columns.
        dbdf.save(paths["dbdf"], values, block=(band, block_cols))
    table = pa.table({f"c{col}": np.ascontiguousarray(values[:, col]) for col in range(cols)})
    for kind, compression in (("parquet", "none"), ("parquet-snappy", "snappy")):
        if not paths[kind].exists():
            pq.write_table(table, paths[kind], compression=compression, row_group_size=band)
    return paths


def warm_page_cache(paths: dict[str, Path]) -> None:
    for path in paths.values():
        with open(path, "rb") as file:
            while file.read(64 << 20):
                pass


def queries(spark, paths: dict[str, Path], cols: int, expected_rows: int) -> dict:
    """name -> a function running the query once and checking its result."""
    from pyspark.sql import functions

    def reader(kind: str):
        return spark.read.format("dbdf" if kind == "dbdf" else "parquet").load(str(paths[kind]))

    def count(kind: str):
        def run():
            assert reader(kind).count() == expected_rows
        return run

    def column_sums(kind: str):
        def run():
            sums = reader(kind).agg(*[functions.sum(f"c{col}") for col in range(cols)]).first()
            assert all(0.4 * expected_rows < value < 0.6 * expected_rows for value in sums), sums
        return run

    operations = {}
    for name, make in (("count", count), ("sum of every column", column_sums)):
        for kind in paths:
            operations[f"{name}: {kind}"] = make(kind)
    return operations


def hot_methods(recording: Path, top: int) -> tuple[list[tuple[str, int]], list[tuple[str, int]], int, int]:
    """From a JFR recording: the methods most often on top of the Java stacks sampled (jdk.ExecutionSample), the
    dbdf methods (org.dbdf) nearest the top of the stacks sampled while in native code (jdk.NativeMethodSample: the
    library's decoding, which Java samples do not see), and the two sample counts."""
    printed = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample,jdk.NativeMethodSample",
                              str(recording)], check=True, capture_output=True, text=True).stdout
    on_top: Counter[str] = Counter()
    native_under_dbdf: Counter[str] = Counter()
    java_samples = native_samples = 0
    for event in json.loads(printed)["recording"]["events"]:
        names = [f"{frame['method']['type']['name']}.{frame['method']['name']}".replace("/", ".")
                 for frame in event["values"]["stackTrace"]["frames"]]
        if not names:
            continue
        if event["type"] == "jdk.ExecutionSample":
            java_samples += 1
            on_top[names[0]] += 1
        else:
            nearest_dbdf = next((name for name in names if name.startswith("org.dbdf.")), None)
            if nearest_dbdf is not None:
                native_samples += 1
                native_under_dbdf[f"{names[0]} under {nearest_dbdf}"] += 1
    return on_top.most_common(top), native_under_dbdf.most_common(top), java_samples, native_samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=16 << 20)
    parser.add_argument("--cols", type=int, default=8)
    parser.add_argument("--band", type=int, default=1 << 20, help="rows per dbdf block and per Parquet row group")
    parser.add_argument("--block-cols", type=int, help="columns per dbdf block (default: all, one block per band)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")))
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    parser.add_argument("--driver-memory", default="4g")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--jfr", type=Path, help="profile one run of each dbdf and Parquet query into this file")
    args = parser.parse_args()

    paths = write_files(args.dir, args.rows, args.cols, args.band, args.block_cols or args.cols)
    sizes = {kind: path.stat().st_size for kind, path in paths.items()}
    print("files:", ", ".join(f"{kind} {size / 2**20:.1f} MiB" for kind, size in sizes.items()))
    warm_page_cache(paths)

    conf = {"spark.driver.memory": args.driver_memory}
    if args.jfr:
        conf["spark.driver.extraJavaOptions"] = (
            f"-XX:StartFlightRecording=filename={args.jfr},settings=profile,dumponexit=true")
    spark = local_session("dbdf-spark-bench", jars_of(args.build), **conf)
    load_before = os.getloadavg()
    try:
        operations = queries(spark, paths, args.cols, args.rows)
        if args.jfr:
            for name, operation in operations.items():
                if name.endswith(": dbdf"):
                    operation()
                    operation()
        else:
            timings = measure_interleaved(operations, args.rows * args.cols * 8, args.repeats)
    finally:
        gateway = spark.sparkContext._gateway
        spark.stop()
        if args.jfr:  # the recording is written when the JVM exits: end it (it exits when its stdin closes)
            gateway.shutdown()
            gateway.proc.stdin.close()
            gateway.proc.wait(timeout=300)
    load_after = os.getloadavg()
    print(f"load average (1, 5, 15 min): before {load_before}, after {load_after}")

    if args.jfr:
        on_top, native_under_dbdf, java_samples, native_samples = hot_methods(args.jfr, 30)
        print(f"\n{java_samples} samples of Java code in {args.jfr}; methods most often on top:")
        for method, count in on_top:
            print(f"  {count:6d}  {100 * count / java_samples:5.1f}%  {method}")
        print(f"{native_samples} samples in native code called by dbdf's classes (a thread sampled in native code "
              "is sampled less often than one running Java):")
        for method, count in native_under_dbdf:
            print(f"  {count:6d}  {method}")
        return

    print(report(list(timings.values())))
    checks = []
    for query in ("count", "sum of every column"):
        dbdf_time: Timing = timings[f"{query}: dbdf"]
        for kind in ("parquet", "parquet-snappy"):
            target = 1.0 if kind == "parquet" else None
            checks.append((f"{query}: {kind} / dbdf (median)", timings[f"{query}: {kind}"].median / dbdf_time.median,
                           target))
    results = {"rows": args.rows, "cols": args.cols, "band": args.band, "block_cols": args.block_cols or args.cols,
               "file_bytes": sizes,
               "load_average_before": load_before, "load_average_after": load_after,
               "timings": [timing.as_dict() for timing in timings.values()]}
    print_ratios(checks, results, args.json)


if __name__ == "__main__":
    main()
