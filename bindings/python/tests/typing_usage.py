"""The public API as a type-checked program uses it; checked by `mypy --strict` (CTest: python_typing), never run.

Each result is assigned to a variable of the type the API promises, so a missing annotation (an Any that mypy
--strict reports, or an untyped call) or a wrong one fails the check. Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Iterator, Optional

import numpy as np
import numpy.typing as npt

import dbdf


def module_level() -> None:
    version: str = dbdf.__version__
    library: str = dbdf.library_version()
    library_file: str = dbdf.library_path
    print(version, library, library_file)


def load_and_save(path: Path, array: npt.NDArray[np.float64]) -> None:
    dbdf.save(path, array)
    dbdf.save(str(path), array, encoding="csr", block=(256, 256), dialect="spec", write_meta=False, durable=True,
              threads=2)
    dbdf.save(os.fspath(path), array, encoding=dbdf.Encoding.AS_GIVEN, block=64, dialect=dbdf.Dialect.DAPHNE)
    dbdf.save(path, {"id": np.arange(3), "score": [0.5, 1.5, 2.5]}, block=2)
    dbdf.save(io.BytesIO(), array)
    loaded: Any = dbdf.load(path)
    matrix: npt.NDArray[np.float64] = dbdf.load(path, dtype=np.float64, dialect="daphne", threads=1)
    from_bytes: Any = dbdf.load(path.read_bytes(), dtype=dbdf.ValueType.F32)
    from_file: Any = dbdf.load(io.BytesIO(path.read_bytes()), dtype={"id": np.int32, "score": "f4"})
    print(loaded, matrix, from_bytes, from_file)


def reader(path: Path, data: bytes) -> None:
    with dbdf.Reader(path, "spec", threads=4, read_ahead=65536) as opened:
        same: dbdf.Reader = opened
        info: dbdf.ObjectInfo = opened.info
        shape: tuple[int, int] = info.shape
        data_type: dbdf.DataType = info.data_type
        value_type: dbdf.ValueType = info.value_type
        rows: int = info.rows + info.cols + info.header_bytes + info.total_bytes
        dialect: dbdf.Dialect = opened.dialect
        closed: bool = opened.closed
        object_shape: tuple[int, int] = opened.shape
        labels: list[str] = opened.column_labels
        types: list[dbdf.ValueType] = opened.column_types
        label: str = opened.column_label(0)
        column_type: dbdf.ValueType = opened.column_type(0)
        recoverable: bool = opened.labels_recoverable
        print(same, shape, data_type, value_type, rows, dialect, closed, object_shape, labels, types, label,
              column_type, recoverable)

        blocks: Iterator[dbdf.Block] = iter(opened)
        for block in opened:
            use_block(block)
        first: Optional[dbdf.Block] = opened.next_block()
        opened.rewind()
        count: int = len(opened) + opened.build_index() + opened.count_entries()
        entry: dbdf.BlockInfo = opened.index_entry(0)
        current: dbdf.Block = opened.seek(0)
        last: dbdf.Block = opened[-1]
        print(blocks, first, count, entry, current, last)

        dense: npt.NDArray[np.float64] = opened.read_dense()
        into: npt.NDArray[np.float32] = opened.read_dense(np.float32, out=np.empty((2, 2), np.float32))
        window: npt.NDArray[np.int64] = opened.read_window(0, 0, 2, 2, dtype="i8")
        column: npt.NDArray[np.uint8] = opened.read_column("id", dbdf.ValueType.U8)
        by_index: npt.NDArray[Any] = opened.read_column(0, out=np.empty(3, np.float64))
        csr_arrays: dbdf.CsrArrays = opened.read_csr_arrays(np.float64)
        offsets: npt.NDArray[np.uint64] = csr_arrays.row_offsets
        sparse: Any = opened.read_csr()
        frame: dict[str, npt.NDArray[Any]] = opened.read_frame({"id": np.int32, "score": "f4"})
        whole: Any = opened.read(np.float64)
        violations: list[dbdf.Violation] = opened.validate()
        for violation in violations:
            rule: int = violation.rule
            offset: int = violation.offset
            message: str = violation.message
            print(rule, offset, message)
        print(dense, into, window, column, by_index, offsets, sparse, frame, whole)
        figure = opened.plot(title="blocks")
        figure.savefig("blocks.png")
    opened.close()

    in_memory: dbdf.Reader = dbdf.Reader.from_bytes(data, dbdf.Dialect.DAPHNE, threads=None)
    with in_memory:
        pass
    with open(path, "rb") as file, dbdf.Reader(file) as from_file:
        print(from_file.info)
    with dbdf.Reader(io.BytesIO(data), dialect="daphne") as from_stream:
        print(from_stream.info)


def use_block(block: dbdf.Block) -> None:
    info: dbdf.BlockInfo = block.info
    position: tuple[int, int] = (block.row, block.col)
    shape: tuple[int, int] = block.shape
    counts: int = block.index + block.rows + block.cols + block.stored_values + block.offset + block.encoded_bytes
    block_type: dbdf.BlockType = block.block_type
    value_type: dbdf.ValueType = block.value_type
    name: str = block.block_type.name
    tile: npt.NDArray[np.float64] = block.decode_dense()
    into: npt.NDArray[Any] = block.decode_dense(np.float32, out=np.empty(shape, np.float32))
    csr: dbdf.CsrArrays = block.decode_csr(np.float64)
    coo: dbdf.CooArrays = block.decode_coo()
    row_indices: npt.NDArray[np.uint32] = coo.row_indices
    coo_shape: tuple[int, int] = coo.shape
    entries: int = block.count_entries()
    payload: memoryview = block.payload()
    layout: tuple[dbdf.PayloadLayout, int] = block.payload_layout()
    sparse_csr: Any = csr.to_scipy()
    sparse_coo: Any = coo.to_scipy()
    element_size: int = value_type.dtype.itemsize
    print(info, position, counts, block_type, name, tile, into, row_indices, coo_shape, entries, payload, layout,
          sparse_csr, sparse_coo, element_size)


def writer(path: Path, tile: npt.NDArray[np.float64], sparse: Any) -> None:
    with dbdf.Writer(path, "spec", True, durable=False, threads=1) as opened:
        same: dbdf.Writer = opened
        opened.begin_matrix("dense", np.float64, 6, 6)
        opened.add_dense(0, 0, tile, encoding="auto")
        opened.add_csr(0, 3, (2, 3), [0, 1, 1], np.array([2], np.uint32), [1.5], encoding="as-given")
        opened.add_coo(2, 0, (4, 3), [0], [1], [2.5], encoding=dbdf.Encoding.COO)
        opened.add_sparse(2, 3, sparse)
        opened.add_empty(4, 3, (2, 3))
        opened.finish()
        finished: bool = opened.finished
        written: int = opened.bytes_written
        dialect: dbdf.Dialect = opened.dialect
        closed: bool = opened.closed
        print(same, finished, written, dialect, closed)

    memory: dbdf.Writer = dbdf.Writer.to_memory(dbdf.Dialect.SPEC, threads=2)
    with memory:
        memory.begin_matrix(dbdf.DataType.CSR, dbdf.ValueType.F64, 3, 4)
        memory.write_sparse(sparse, encoding="auto", block=(2, 2))
        memory.finish()
    data: bytes = memory.getvalue()

    frame = dbdf.Writer.to_memory("daphne")
    frame.begin_frame(3, {"id": np.int64, "score": "f8"})
    frame.begin_frame(3, [("id", np.int64), ("score", dbdf.ValueType.F64)])
    frame.write_column("id", np.arange(3), block_rows=2)
    frame.write_column(1, [0.5, 1.5, 2.5], encoding="dense")
    frame.write_dense(tile, block=8)
    frame.write_csr(np.zeros(4, np.uint64), np.zeros(0, np.uint64), np.zeros(0), block=None)
    frame.close()

    with open(path, "wb") as file, dbdf.Writer(file) as into_file:
        into_file.begin_matrix("scalar", "f8", 1, 1)
    with dbdf.Writer(io.BytesIO(), dialect="daphne", write_meta=False) as into_stream:
        print(into_stream, data)


def errors(path: str) -> None:
    try:
        dbdf.load(path)
    except dbdf.DbdfFileNotFoundError as error:
        number: Optional[int] = error.errno
        print(number)
    except dbdf.DbdfError as error:
        status: dbdf.Status | int = error.status
        code: int = error.code
        message: str = error.message
        rule: int | None = error.rule
        offset: int | None = error.offset
        text: str = str(error)
        print(status, code, message, rule, offset, text)
    failures: list[type[dbdf.DbdfError]] = [
        dbdf.DbdfFormatError, dbdf.DbdfRangeError, dbdf.DbdfArgumentError, dbdf.DbdfIOError,
        dbdf.DbdfFileNotFoundError, dbdf.DbdfPermissionError, dbdf.DbdfMemoryError]
    as_value_error: type[ValueError] = dbdf.DbdfFormatError
    as_os_error: type[OSError] = dbdf.DbdfIOError
    made = dbdf.DbdfError(dbdf.Status.FORMAT, "format: broken", rule=12, offset=69)
    statuses: list[dbdf.Status] = [dbdf.Status.OK, dbdf.Status.RANGE]
    kinds: list[dbdf.BlockType] = list(dbdf.BlockType)
    layout: dbdf.PayloadLayout = dbdf.PayloadLayout.STRIDED_COLUMN
    print(failures, as_value_error, as_os_error, made, statuses, kinds, layout)
