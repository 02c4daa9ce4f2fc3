"""Integer arguments checked against the C type they are passed as, before any library call.

ctypes converts a Python int to c_uint64, c_uint32 or c_size_t by keeping its low bits: without these checks 2**64
would reach the library as 0 (read_column(2**64) would read column 0) and -1 as 2**64 - 1. Every integer a caller
gives that ends up in a C integer goes through unsigned() first, so that the one error for a value out of the C
type's range is ValueError, and for anything that is not an integer TypeError (the same errors as for threads=).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

UINT32_MAX = 2 ** 32 - 1
UINT64_MAX = 2 ** 64 - 1


def unsigned(value: object, name: str, maximum: int = UINT64_MAX) -> int:
    """`value` as an int in 0..`maximum`: the range of the C type the parameter `name` is passed to the library as.

    Python ints and NumPy integer scalars are taken. bool (which Python counts as an int), floats (even 3.0, where
    a count or a position is meant), strings and other objects raise TypeError; values below 0 or above `maximum`
    raise ValueError naming `name`, the value and the range."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} ({value!r})")
    try:
        number = operator.index(value)  # type: ignore[arg-type]  # anything without __index__ is refused
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__} ({value!r})") from None
    if not 0 <= number <= maximum:
        raise ValueError(f"{name} must be in 0..{maximum}, not {number}")
    return number


def uint32(value: object, name: str) -> int:
    """`value` for a C uint32_t parameter (block shapes and tile sizes); see unsigned()."""
    return unsigned(value, name, UINT32_MAX)


def block_shape(shape: Any, name: str = "shape") -> tuple[int, int]:
    """A (rows, cols) pair of a block, each a C uint32_t; its items are named `name`[0] and `name`[1]."""
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a (rows, cols) pair, not {shape!r}") from None
    return uint32(rows, f"{name}[0]"), uint32(cols, f"{name}[1]")
