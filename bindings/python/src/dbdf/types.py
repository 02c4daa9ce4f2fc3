"""The C ABI's enums as Python IntEnums, and how value types map to NumPy dtypes."""

from __future__ import annotations

import enum
import sys
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt


class Status(enum.IntEnum):
    """dbdf_status_t. Member names are dbdf_status_name() in upper case."""
    OK = 0
    END_OF_BLOCKS = 1
    INVALID_ARGUMENT = -1
    CALL_ORDER = -2
    BUFFER_TOO_SMALL = -3
    IO = -4
    TRUNCATED = -5
    FORMAT = -6
    RANGE = -7
    NOMEM = -8
    UNSUPPORTED = -9
    INTERNAL = -10
    SINK = -11


class DataType(enum.IntEnum):
    """dbdf_data_type_t: what an object is."""
    DENSE = 1
    CSR = 2
    FRAME = 3
    SCALAR = 4  # a single value, as a 1 x 1 object: daphne dialect only (the spec has no scalar)


class ValueType(enum.IntEnum):
    """dbdf_value_type_t. NONE is a frame's object value type (each column has its own)."""
    NONE = 0
    U8 = 1
    U16 = 2
    U32 = 3
    U64 = 4
    I8 = 5
    I16 = 6
    I32 = 7
    I64 = 8
    F32 = 9
    F64 = 10

    @property
    def dtype(self) -> np.dtype[Any]:
        """The native-byte-order NumPy dtype holding values of this type."""
        if self is ValueType.NONE:
            raise ValueError("ValueType.NONE has no dtype")
        return _DTYPES[self]


class BlockType(enum.IntEnum):
    """dbdf_block_type_t: how a block is stored."""
    EMPTY = 0
    DENSE = 1
    CSR = 2
    COO = 3


class Encoding(enum.IntEnum):
    """dbdf_encoding_t: how the writer encodes a block it is given."""
    AUTO = 0
    AS_GIVEN = 1
    DENSE = 2
    CSR = 3
    COO = 4


class Dialect(enum.IntEnum):
    """dbdf_dialect_t: which byte layout a file follows. Chosen explicitly when a reader or writer is opened;
    never guessed. DAPHNE is the layout DAPHNE's own runtime writes (docs/daphne-dialect.md)."""
    SPEC = 0
    DAPHNE = 1


class PayloadLayout(enum.IntEnum):
    """dbdf_payload_layout_t: how the bytes of Block.payload() are arranged."""
    SPEC = 0  # as the spec describes the block type
    DAPHNE_CSR = 1  # row offsets (uint64), column indices (uint64), values: a CSR block of the daphne dialect
    STRIDED_COLUMN = 2  # one column of a daphne frame: values a frame row (value_stride bytes) apart


_DTYPES: dict[ValueType, np.dtype[Any]] = {
    ValueType.U8: np.dtype(np.uint8), ValueType.U16: np.dtype(np.uint16),
    ValueType.U32: np.dtype(np.uint32), ValueType.U64: np.dtype(np.uint64),
    ValueType.I8: np.dtype(np.int8), ValueType.I16: np.dtype(np.int16),
    ValueType.I32: np.dtype(np.int32), ValueType.I64: np.dtype(np.int64),
    ValueType.F32: np.dtype(np.float32), ValueType.F64: np.dtype(np.float64),
}
_VALUE_TYPES = {(dtype.kind, dtype.itemsize): value_type for value_type, dtype in _DTYPES.items()}

SUPPORTED_DTYPES = ", ".join(str(dtype) for dtype in _DTYPES.values())


def value_type_of(dtype_like: npt.DTypeLike | ValueType | None) -> ValueType:
    """The value type for a dtype argument: a ValueType, or anything numpy.dtype() accepts.

    Strings are NumPy's spelling ("u8" is uint64 there), never the format's value type names."""
    if isinstance(dtype_like, ValueType):
        if dtype_like is ValueType.NONE:
            raise TypeError("ValueType.NONE is not a value type values can have")
        return dtype_like
    dtype = np.dtype(dtype_like)
    value_type = _VALUE_TYPES.get((dtype.kind, dtype.itemsize))
    if value_type is None:
        raise TypeError(f"dtype {dtype} cannot be stored; dbdf stores {SUPPORTED_DTYPES}")
    return value_type


def is_native_order(dtype: np.dtype[Any]) -> bool:
    return dtype.byteorder in ("=", "|") or dtype.byteorder == ("<" if sys.byteorder == "little" else ">")


_Member = TypeVar("_Member", bound=enum.IntEnum)


def _member_of(enum_type: type[_Member], value: object, kind: str, names: str) -> _Member:
    """`value` if it is a member of `enum_type`, else the member its name spells ("as-given" is AS_GIVEN)."""
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        try:
            return enum_type[value.upper().replace("-", "_")]
        except KeyError:
            pass
    raise ValueError(f"unknown {kind} {value!r}; use {names}")


def encoding_of(encoding: object) -> Encoding:
    """An Encoding from an Encoding or its name ("auto", "as-given", "dense", "csr", "coo")."""
    return _member_of(Encoding, encoding, "encoding", "'auto', 'as-given', 'dense', 'csr' or 'coo'")


def dialect_of(dialect: object) -> Dialect:
    """A Dialect from a Dialect or its name ("spec", "daphne")."""
    return _member_of(Dialect, dialect, "dialect", "'spec' or 'daphne'")


def data_type_of(data_type: object) -> DataType:
    """A DataType from a DataType or its name ("dense", "csr", "frame", "scalar")."""
    return _member_of(DataType, data_type, "data type", "'dense', 'csr', 'frame' or 'scalar'")
