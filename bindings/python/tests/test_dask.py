"""dbdf.dask on a distributed.LocalCluster of two worker processes (every task pickled to another process): golden
vectors against dbdf.load bit for bit, block-by-block reads that fetch only what a slice needs, bounded-memory
writes of an array larger than any worker's memory, and frames both ways."""

from __future__ import annotations

import json
import os
import resource

import numpy as np
import pytest
import scipy.sparse

import dbdf
from conftest import FRAMES, MATRICES, VECTORS_DIR, assert_same, bits, ids, vector_path

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
import dask.array as da  # noqa: E402
import dask.dataframe as dd  # noqa: E402
import fsspec  # noqa: E402
import pandas as pd  # noqa: E402
from fsspec.spec import AbstractBufferedFile  # noqa: E402

import dbdf.dask  # noqa: E402

WORKER_MEMORY = 2**30


class CountingFile(AbstractBufferedFile):
    """A local file read through fsspec's buffered file, logging every byte range fetched (a line per fetch)."""

    def _fetch_range(self, start, end):
        with open(self.path, "rb") as file:
            file.seek(start)
            data = file.read(end - start)
        with open(self.fs.log, "a", encoding="ascii") as log:
            log.write(f"{start} {len(data)}\n")
        return data


class CountingFileSystem(fsspec.AbstractFileSystem):
    """countingdbdf:///path: local files whose fetches every process logs to the file `log` names."""
    protocol = "countingdbdf"

    def __init__(self, log, **kwargs):
        super().__init__(**kwargs)
        self.log = log

    def info(self, path, **kwargs):
        return {"name": path, "size": os.path.getsize(path), "type": "file"}

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None, **kwargs):
        return CountingFile(self, path, mode, cache_type=kwargs.get("cache_type", "readahead"),
                            size=os.path.getsize(path))


def register_counting_file_system():
    fsspec.register_implementation(CountingFileSystem.protocol, CountingFileSystem, clobber=True)


@pytest.fixture(scope="module")
def client():
    # The workers import this module (for its file system) from this folder, as the tests' process does.
    search_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.dirname(__file__), search_path]))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  memory_limit=WORKER_MEMORY, silence_logs=40) as cluster:
        with distributed.Client(cluster) as cluster_client:
            register_counting_file_system()
            cluster_client.run(register_counting_file_system)
            yield cluster_client
    if search_path is None:
        os.environ.pop("PYTHONPATH")
    else:
        os.environ["PYTHONPATH"] = search_path


def fetched(log):
    """(offset, length) of every fetch logged so far."""
    if not os.path.exists(log):
        return []
    with open(log, encoding="ascii") as lines:
        return [tuple(int(field) for field in line.split()) for line in lines]


def triplets(matrix):
    """A sparse matrix's entries as sorted (row, column, value bits): explicit zeros and -0.0 count."""
    coo = matrix.tocoo()
    order = np.lexsort((coo.col, coo.row))
    return coo.row[order].tolist(), coo.col[order].tolist(), bits(coo.data[order]).tolist()


# -- golden vectors ---------------------------------------------------------------------------------------------


def test_golden_matrices_equal_load_bit_for_bit(client):
    """Every matrix vector in one computation (one round trip to the cluster): one chunk per block, chunks of 2 x 2
    cells that cut blocks, and CSR objects read as ndarray chunks by asking for a dense dtype."""
    cases = []
    for vector in MATRICES:
        path = vector_path(vector)
        expected = dbdf.load(path)
        for chunks in ("blocks", 2):
            cases.append((vector, chunks, expected, dbdf.dask.from_dbdf(path, chunks=chunks)))
            if scipy.sparse.issparse(expected):
                dense = dbdf.Reader(path).read_dense()
                cases.append((vector, chunks, dense, dbdf.dask.from_dbdf(path, chunks=chunks, dtype=dense.dtype)))
    results = dask.compute(*(array for *_, array in cases))
    for (vector, chunks, expected, array), result in zip(cases, results):
        where = f"{vector['file']}, chunks={chunks}"
        if scipy.sparse.issparse(expected):
            assert isinstance(array._meta, scipy.sparse.csr_matrix), where
            assert scipy.sparse.issparse(result) and result.dtype == expected.dtype, where
            assert result.shape == expected.shape, where
            assert triplets(result) == triplets(expected), where
        else:
            assert isinstance(array._meta, np.ndarray), where
            assert_same(result, expected)


def test_files_of_daphnes_runtime_equal_load_in_the_daphne_dialect(client):
    """Every matrix and frame of tests/vectors/daphne-runtime that load() reads, through the daphne dialect."""
    corpus_dir = VECTORS_DIR / "daphne-runtime"
    corpus = json.loads((corpus_dir / "corpus.json").read_text(encoding="utf-8"))
    cases = []
    for entry in corpus["files"]:
        if entry.get("data_type") not in ("dense", "csr", "frame"):
            continue
        path = str(corpus_dir / entry["file"])
        try:
            expected = dbdf.load(path, dialect="daphne")
        except dbdf.DbdfError:
            continue  # refused by every reader (string columns): test_dialect.py checks how
        if entry["data_type"] == "frame":
            cases.append((entry["file"], expected, dbdf.dask.read_dbdf(path, dialect="daphne")))
        else:
            cases.append((entry["file"], expected, dbdf.dask.from_dbdf(path, dialect="daphne")))
    assert len(cases) >= 40
    # Arrays and dataframes in separate computations: Dask warns against computing both kinds of graph at once.
    arrays = [case for case in cases if isinstance(case[2], da.Array)]
    frames = [case for case in cases if not isinstance(case[2], da.Array)]
    results = [*dask.compute(*(array for *_, array in arrays)), *dask.compute(*(frame for *_, frame in frames))]
    for (name, expected, _), result in zip(arrays + frames, results):
        if isinstance(expected, pd.DataFrame):
            pd.testing.assert_frame_equal(result, expected, check_exact=True, obj=name)
        elif scipy.sparse.issparse(expected):
            assert scipy.sparse.issparse(result) and result.dtype == expected.dtype, name
            assert result.shape == expected.shape and triplets(result) == triplets(expected), name
        else:
            assert_same(result, expected)


@pytest.mark.parametrize("vector", FRAMES, ids=ids(FRAMES))
def test_golden_frames_equal_load(client, vector):
    path = vector_path(vector)
    expected = dbdf.load(path)
    frame = dbdf.dask.read_dbdf(path)
    assert list(frame.columns) == vector["labels"]
    assert [dtype.name for dtype in frame.dtypes] == [dtype.name for dtype in expected.dtypes]
    result = frame.compute()
    pd.testing.assert_frame_equal(result, expected, check_exact=True)
    for label in expected.columns:
        np.testing.assert_array_equal(bits(result[label].to_numpy()), bits(expected[label].to_numpy()))
    with dbdf.Reader(path) as reader:
        starts = sorted({reader.index_entry(index).row for index in range(len(reader))})
    assert frame.divisions == (*starts, vector["rows"] - 1)


# -- chunks and blocks ------------------------------------------------------------------------------------------


def test_one_chunk_per_block_on_a_rectilinear_grid(client, tmp_path):
    path = str(tmp_path / "grid.dbdf")
    matrix = np.arange(700 * 500, dtype=np.int32).reshape(700, 500)
    dbdf.save(path, matrix, block=(300, 200))
    array = dbdf.dask.from_dbdf(path)
    assert array.chunks == ((300, 300, 100), (200, 200, 100))
    assert_same(array.compute(), matrix)
    assert_same(dbdf.dask.from_dbdf(path, chunks=(256, 512), dtype=np.int64).compute(), matrix.astype(np.int64))


def test_blocks_that_are_no_grid_are_cut_at_every_boundary(client, tmp_path):
    path = str(tmp_path / "bricks.dbdf")
    matrix = np.arange(4 * 6, dtype=np.float64).reshape(4, 6)
    with dbdf.Writer(path) as writer:  # bricks: the second row band is cut at other columns than the first
        writer.begin_matrix("dense", np.float64, 4, 6)
        writer.add_dense(0, 0, matrix[:2, :4])
        writer.add_dense(0, 4, matrix[:2, 4:])
        writer.add_dense(2, 0, matrix[2:, :2])
        writer.add_dense(2, 2, matrix[2:, 2:])
    array = dbdf.dask.from_dbdf(path)
    assert array.chunks == ((2, 2), (2, 2, 2))
    assert_same(array.compute(), matrix)


def test_a_slice_fetches_only_the_blocks_it_overlaps(client, tmp_path):
    path = str(tmp_path / "blocks.dbdf")
    log = str(tmp_path / "fetches.log")
    matrix = np.random.default_rng(7).random((2048, 2048))
    dbdf.save(path, matrix, block=512)  # 16 dense blocks of 2 MiB
    array = dbdf.dask.from_dbdf("countingdbdf://" + path, storage_options={"log": log})
    assert array.chunks == ((512,) * 4, (512,) * 4)
    graph_fetches = fetched(log)
    # The header and the index's 16 block records, through one read-ahead window: no payload.
    assert 0 < sum(length for _, length in graph_fetches) <= 64 * 1024 + 16 * 64 + 4096
    os.remove(log)

    corner = array[:1000, :1000].compute()
    assert_same(corner, matrix[:1000, :1000])
    fetched_bytes = sum(length for _, length in fetched(log))
    with dbdf.Reader(path) as reader:
        blocks = [reader.index_entry(index) for index in range(len(reader))]
    overlapping = [block for block in blocks if block.row < 1000 and block.col < 1000]
    assert len(overlapping) == 4
    payloads = sum(block.encoded_bytes for block in overlapping)
    # Each of the four tasks opens its own reader: the header, the records of the index, its block's payload.
    assert payloads <= fetched_bytes <= payloads + 4 * (len(blocks) * 64 + 2 * 64 * 1024)
    assert fetched_bytes < sum(block.encoded_bytes for block in blocks) / 3


def test_empty_blocks_cost_no_io(client, tmp_path):
    path = str(tmp_path / "mostly_zero.dbdf")
    log = str(tmp_path / "fetches.log")
    matrix = np.zeros((600, 600), dtype=np.float32)
    matrix[500:, 500:] = 1.5
    dbdf.save(path, matrix, block=200)
    array = dbdf.dask.from_dbdf("countingdbdf://" + path, storage_options={"log": log})
    os.remove(log)
    assert_same(array[:400, :].compute(), matrix[:400])  # six empty blocks
    assert fetched(log) == []
    assert_same(array.compute(), matrix)
    assert fetched(log) != []


def test_blocks_larger_than_the_chunk_size_are_cut_into_chunks_of_it(client, tmp_path):
    path = str(tmp_path / "tall.dbdf")
    matrix = np.arange(3000 * 40, dtype=np.float64).reshape(3000, 40)
    dbdf.save(path, matrix, block=(2000, 40))  # blocks of 625 KiB and 312.5 KiB
    with dask.config.set({"array.chunk-size": "100KiB"}):  # 320 rows of 40 doubles
        array = dbdf.dask.from_dbdf(path)
        frame_path = str(tmp_path / "tall_frame.dbdf")
        dbdf.save(frame_path, pd.DataFrame({"a": matrix[:, 0], "b": matrix[:, 1].astype(np.int32)}))
        frame = dbdf.dask.read_dbdf(frame_path)
    assert array.chunks == ((320,) * 6 + (80,) + (320,) * 3 + (40,), (40,))  # cut inside each block, never across
    assert_same(array.compute(), matrix)
    assert frame.npartitions == 1  # 3000 rows of 12 bytes: 35 KiB, under the chunk size
    pd.testing.assert_frame_equal(frame.compute(), dbdf.load(frame_path), check_exact=True)


def test_a_tiny_file_claiming_billions_of_rows_gives_bounded_tasks_or_a_clear_refusal(client, tmp_path):
    """Empty blocks declare their shape without storing it: a 4-billion-row column fits in a few hundred bytes."""
    rows = 2**32 - 1
    path = str(tmp_path / "claims.dbdf")
    with dbdf.Writer(path) as writer:
        writer.begin_matrix("dense", np.float64, rows, 1)
        writer.add_empty(0, 0, (rows, 1))
    frame_path = str(tmp_path / "claims_frame.dbdf")
    with dbdf.Writer(frame_path) as writer:
        writer.begin_frame(rows, {"x": np.float64})
        writer.add_empty(0, 0, (rows, 1))
    assert os.path.getsize(path) < 512 and os.path.getsize(frame_path) < 512
    array = dbdf.dask.from_dbdf(path)
    assert len(array.chunks[0]) == 256 and max(array.chunks[0]) == 2**24  # 128 MiB of doubles each
    assert_same(array[:5].compute(), np.zeros((5, 1)))
    frame = dbdf.dask.read_dbdf(frame_path)
    assert frame.npartitions == 256 and frame.divisions[:2] == (0, 2**24)
    assert frame.partitions[255].compute()["x"].sum() == 0.0
    wide = str(tmp_path / "claims_wide.dbdf")  # 2^64 cells: more chunks than a graph may hold
    with dbdf.Writer(wide) as writer:
        writer.begin_matrix("dense", np.float64, rows, rows)
        writer.add_empty(0, 0, (rows, rows))
    with pytest.raises(ValueError, match="array.chunk-size"):
        dbdf.dask.from_dbdf(wide)


def test_urls_through_fsspec(client, tmp_path):
    matrix = np.arange(60, dtype=np.uint16).reshape(6, 10)
    path = tmp_path / "url.dbdf"
    dbdf.save(path, matrix, block=(4, 3))
    assert_same(dbdf.dask.from_dbdf(path.as_uri()).compute(), matrix)
    assert_same(dbdf.dask.from_dbdf(path).compute(), matrix)  # os.PathLike
    # memory:// lives in one process: written and read back with the scheduler of this process.
    dbdf.dask.to_dbdf(da.from_array(matrix, chunks=(5, 5)), "memory://dask/url.dbdf")
    with fsspec.open("memory://dask/url.dbdf", "rb") as file:
        assert_same(dbdf.load(file), matrix)
    assert_same(dbdf.dask.from_dbdf("memory://dask/url.dbdf").compute(scheduler="sync"), matrix)
    fsspec.filesystem("memory").rm("dask/url.dbdf")


def test_refusals(client, tmp_path):
    frame_path = vector_path(FRAMES[0])
    with pytest.raises(TypeError, match="not a frame"):
        dbdf.dask.read_dbdf(vector_path(MATRICES[0]))
    with pytest.raises(TypeError, match="several column types"):
        dbdf.dask.from_dbdf(frame_path)
    with pytest.raises(FileNotFoundError):
        dbdf.dask.from_dbdf(str(tmp_path / "missing.dbdf"))
    with pytest.raises(ValueError, match="3-dimensional"):
        dbdf.dask.to_dbdf(da.zeros((2, 2, 2)), str(tmp_path / "cube.dbdf"))
    with pytest.raises(TypeError, match="cannot be stored"):
        dbdf.dask.to_dbdf(da.zeros((2, 2), dtype=np.complex64), str(tmp_path / "complex.dbdf"))
    assert not (tmp_path / "cube.dbdf").exists() and not (tmp_path / "complex.dbdf").exists()


# -- writing ----------------------------------------------------------------------------------------------------


def test_to_dbdf_writes_one_block_per_chunk(client, tmp_path):
    path = str(tmp_path / "chunks.dbdf")
    matrix = np.random.default_rng(1).integers(-1000, 1000, size=(900, 700)).astype(np.float64)
    matrix[:300, :] = 0.0
    array = da.from_array(matrix, chunks=(300, 250))
    dbdf.dask.to_dbdf(array, path, in_flight=2)
    assert_same(dbdf.load(path), matrix)
    with dbdf.Reader(path) as reader:
        blocks = [reader.index_entry(index) for index in range(len(reader))]
    assert [(block.row, block.col, block.rows, block.cols) for block in blocks] == [
        (row, col, 300, min(250, 700 - col)) for row in (0, 300, 600) for col in (0, 250, 500)]
    assert {block.block_type for block in blocks[:3]} == {dbdf.BlockType.EMPTY}  # encoded as dbdf.save would
    assert {block.value_type for block in blocks[3:]} == {dbdf.ValueType.I16}
    # The workers send their chunks encoded; the file is the one adding the chunks themselves gives.
    with dbdf.Writer.to_memory() as direct:
        direct.begin_matrix("dense", np.float64, *matrix.shape)
        for row in (0, 300, 600):
            for col in (0, 250, 500):
                direct.add_dense(row, col, matrix[row:row + 300, col:col + 250])
        direct.finish()
        with open(path, "rb") as written:
            assert written.read() == direct.getvalue()

    dbdf.dask.to_dbdf(array, path, encoding="dense")
    with dbdf.Reader(path) as reader:
        assert {reader.index_entry(index).block_type for index in range(len(reader))} == {dbdf.BlockType.DENSE}
    dbdf.dask.to_dbdf(da.from_array(matrix[:, 0], chunks=400), path)  # 1-D: one column
    assert_same(dbdf.load(path), matrix[:, :1])
    # The daphne dialect: full-width row bands, the bytes dbdf.save writes.
    dbdf.dask.to_dbdf(da.from_array(matrix, chunks=(250, -1)), path, dialect="daphne", write_meta=False)
    saved = str(tmp_path / "saved.dbdf")
    dbdf.save(saved, matrix, dialect="daphne", write_meta=False)
    with open(path, "rb") as written, open(saved, "rb") as expected:
        assert written.read() == expected.read()


def test_sparse_arrays_round_trip(client, tmp_path):
    source = str(tmp_path / "sparse.dbdf")
    target = str(tmp_path / "copy.dbdf")
    matrix = scipy.sparse.random(1000, 800, density=0.01, format="csr", dtype=np.float32, random_state=3)
    dbdf.save(source, matrix, block=(256, 300))
    array = dbdf.dask.from_dbdf(source)
    dbdf.dask.to_dbdf(array[100:, :], target)
    copy = dbdf.load(target)
    assert scipy.sparse.issparse(copy) and copy.dtype == np.float32
    assert triplets(copy) == triplets(matrix[100:, :])


def test_an_array_four_times_a_workers_memory_is_written_with_bounded_memory(client, tmp_path):
    """4 GiB of float64 small integers (they narrow to u8 blocks), generated lazily on the workers, whose memory is
    capped at 1 GiB each; this process never holds more than the chunks in flight either."""
    path = str(tmp_path / "big.dbdf")
    rows, cols, chunk = 16384, 32768, 4096  # 4 GiB in 32 chunks of 128 MiB

    def pattern(block_info=None):
        """Small integers as float64: (column + chunk row) % 251, written at memory speed (a broadcast row)."""
        (row, _), (col, _) = block_info[None]["array-location"]
        tile = np.empty(block_info[None]["chunk-shape"], dtype=np.float64)
        tile[:] = (np.arange(col, col + tile.shape[1]) + row // chunk) % 251
        return tile

    array = da.map_blocks(pattern, dtype=np.float64, chunks=((chunk,) * (rows // chunk), (chunk,) * (cols // chunk)))
    assert array.nbytes == 4 * 2**30
    try:
        dbdf.dask.to_dbdf(array, path, in_flight=2)
        peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        assert peak_rss < 2**30
        with dbdf.Reader(path) as reader:
            assert reader.info.shape == (rows, cols) and reader.info.value_type == dbdf.ValueType.F64
            assert len(reader) == 32
            assert {reader.index_entry(index).value_type for index in range(32)} == {dbdf.ValueType.U8}
            assert reader.validate() == []
            window = reader.read_window(4000, 30000, 200, 300)
        expected = np.empty((200, 300))
        expected[:96] = (np.arange(30000, 30300) + 0) % 251  # rows 4000..4095 are in the first chunk row
        expected[96:] = (np.arange(30000, 30300) + 1) % 251
        assert_same(window, expected)
    finally:
        if os.path.exists(path):
            os.remove(path)


def test_frames_round_trip_with_labels_and_types(client, tmp_path):
    path = str(tmp_path / "frame.dbdf")
    rows = 1000
    columns = {
        "id": np.arange(rows, dtype=np.int64),
        "score": np.linspace(-1, 1, rows, dtype=np.float32),
        "flag": (np.arange(rows) % 3).astype(np.uint8),
        "weight": np.random.default_rng(5).random(rows),
        "delta": -np.arange(rows, dtype=np.int16),
    }
    expected = pd.DataFrame(columns)
    frame = dd.from_pandas(expected, npartitions=3)
    dbdf.dask.to_dbdf(frame, path)
    loaded = dbdf.load(path)
    pd.testing.assert_frame_equal(loaded, expected, check_exact=True)
    with dbdf.Reader(path) as reader:
        assert reader.column_labels == list(columns)
        assert len(reader) == 3 * len(columns)  # a block per partition and column
    back = dbdf.dask.read_dbdf(path)
    assert back.npartitions == 3 and back.divisions == (*frame.divisions[:-1], rows - 1)
    pd.testing.assert_frame_equal(back.compute(), expected, check_exact=True)
    # Through dbdf.save's automatic blocks (different rows per block in each column type) and back again.
    dbdf.save(path, expected, block=300)
    pd.testing.assert_frame_equal(dbdf.dask.read_dbdf(path).compute(), expected, check_exact=True)
    with pytest.raises(TypeError, match="cannot be stored"):
        dbdf.dask.to_dbdf(dd.from_pandas(pd.DataFrame({"b": [True, False]}), npartitions=1), path)
