"""How NumPy arrays cross the C ABI: row-major with a row stride, without copying whenever the layout allows."""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_uint32, c_uint64, c_void_p
from typing import Any

import numpy as np
import numpy.typing as npt

from ._arguments import block_shape, uint32
from ._library import WriteOptionsStruct
from .types import Encoding, ValueType, encoding_of, is_native_order, value_type_of


class RowMajor:
    """A 2-D array as the C ABI takes it: values[i * row_stride + j], `count` elements from `array`'s start."""

    def __init__(self, array: npt.NDArray[Any], value_type: ValueType, row_stride: int, count: int) -> None:
        self.array = array
        self.value_type = value_type
        self.row_stride = row_stride
        self.count = count

    @property
    def pointer(self) -> c_void_p:
        return c_void_p(self.array.ctypes.data)


def allocate(shape: tuple[int, ...], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
    """An uninitialised array for a whole object; a shape NumPy cannot hold is a clear ValueError."""
    try:
        return np.empty(shape, dtype=dtype)
    except ValueError as error:
        raise ValueError(f"an array of shape {shape} and dtype {np.dtype(dtype)} cannot be made: {error}") from None


def as_matrix(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """`values` as a 2-D ndarray (1-D arrays become one column, as the CLI's .npy conversion does)."""
    array = np.asarray(values)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2:
        raise ValueError(f"a {array.ndim}-dimensional array cannot be stored; dbdf stores 1-D and 2-D arrays")
    return array


def row_major(values: npt.ArrayLike) -> RowMajor:
    """Describes a 2-D array for the C ABI. Arrays whose rows are contiguous (C order, row slices, windows of a
    larger C-order array) are passed as they are, with their row stride; anything else (Fortran order, column
    steps, negative strides, non-native byte order) is copied once into C order."""
    array = as_matrix(values)
    value_type = value_type_of(array.dtype)
    itemsize = array.dtype.itemsize
    rows, cols = array.shape
    row_step = array.strides[0]
    rows_are_contiguous = (
        is_native_order(array.dtype)
        and (cols <= 1 or array.strides[1] == itemsize)
        and (rows <= 1 or (row_step >= cols * itemsize and row_step % itemsize == 0)))
    if not rows_are_contiguous:
        array = np.ascontiguousarray(array, dtype=value_type.dtype)
        row_step = cols * itemsize
    row_stride = row_step // itemsize if rows > 1 else cols
    count = (rows - 1) * row_stride + cols if rows and cols else 0
    return RowMajor(array, value_type, row_stride, count)


def _check_writable_values(out: npt.NDArray[Any]) -> None:
    """`out` can receive values from the library: writeable, native byte order, one of the ten dtypes."""
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    if not is_native_order(out.dtype):
        raise ValueError("out must have native byte order")
    value_type_of(out.dtype)


def writable_row_major(out: npt.NDArray[Any], shape: tuple[int, int]) -> tuple[int, int]:
    """Checks that the C ABI can decode a `shape` block straight into `out`; returns (row_stride, capacity)."""
    if not isinstance(out, np.ndarray) or out.ndim != 2:
        raise TypeError("out must be a 2-D numpy.ndarray")
    if out.shape != tuple(shape):
        raise ValueError(f"out has shape {out.shape}, the block is {tuple(shape)}")
    _check_writable_values(out)
    itemsize = out.dtype.itemsize
    rows, cols = out.shape
    if rows == 0 or cols == 0:
        return cols, 0
    row_step = out.strides[0]
    if (cols > 1 and out.strides[1] != itemsize) or (
            rows > 1 and (row_step < cols * itemsize or row_step % itemsize != 0)):
        raise ValueError("out must have contiguous rows (C order, or a window of a C-order array)")
    row_stride = row_step // itemsize if rows > 1 else cols
    return row_stride, (rows - 1) * row_stride + cols


def writable_vector(out: npt.NDArray[Any], length: int) -> int:
    """Checks that the C ABI can decode `length` values straight into `out`; returns its capacity."""
    if not isinstance(out, np.ndarray) or out.ndim != 1:
        raise TypeError("out must be a 1-D numpy.ndarray")
    if out.shape[0] != length:
        raise ValueError(f"out has {out.shape[0]} elements, the column has {length}")
    _check_writable_values(out)
    if not out.flags.c_contiguous:
        raise ValueError("out must be contiguous")
    return out.size


def out_value_type(out: npt.NDArray[Any], dtype: npt.DTypeLike | ValueType | None) -> ValueType:
    """The value type decoded into `out`; a `dtype` given as well must be out's."""
    if dtype is not None and value_type_of(dtype) != value_type_of(out.dtype):
        raise ValueError(f"dtype {np.dtype(value_type_of(dtype).dtype)} differs from out's dtype {out.dtype}")
    return value_type_of(out.dtype)


def index_array(values: npt.ArrayLike, dtype: type[np.unsignedinteger[Any]]) -> npt.NDArray[Any]:
    """An index array of `dtype` (uint32 or uint64) in native order; copied only when its type differs."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError("index arrays must be 1-D")
    if array.size and array.dtype.kind not in "ui":
        raise TypeError(f"index arrays must hold integers, not {array.dtype}")
    if array.size and array.dtype.kind == "i" and array.min() < 0:
        raise ValueError("index arrays cannot hold negative values")
    if array.dtype.kind == "i" and array.dtype.itemsize == np.dtype(dtype).itemsize:
        return np.ascontiguousarray(array).view(dtype)  # same bits: non-negative, checked above
    return np.ascontiguousarray(array, dtype=dtype)


def value_array(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """A 1-D contiguous array of one of the ten value dtypes, native order."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError("value arrays must be 1-D")
    value_type = value_type_of(array.dtype)
    return np.ascontiguousarray(array, dtype=value_type.dtype)


def u64_pointer(array: npt.NDArray[Any]) -> Any:
    return array.ctypes.data_as(POINTER(c_uint64))


def u32_pointer(array: npt.NDArray[Any]) -> Any:
    return array.ctypes.data_as(POINTER(c_uint32))


def write_options(encoding: object = None, block: Any = None) -> Any:
    """A dbdf_write_options_t for `encoding` (None: automatic) and `block` (None, an int for square tiles or
    frame row ranges, or a (rows, cols) pair; 0 means automatic). Each extent must fit the C uint32_t."""
    options = WriteOptionsStruct()
    options.struct_size = ctypes.sizeof(WriteOptionsStruct)
    options.encoding = encoding_of(encoding if encoding is not None else Encoding.AUTO)
    if block is not None:
        if np.ndim(block) == 0:  # an int (a float or a str is refused by uint32)
            options.block_rows = options.block_cols = uint32(block, "block")
        else:
            options.block_rows, options.block_cols = block_shape(block, "block")
    return ctypes.byref(options)
