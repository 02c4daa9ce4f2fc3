"""Type aliases and protocols of the public API's parameters (for type checkers; nothing here is used at run
time beyond the definitions)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Dict, Iterable, Literal, Optional, Protocol, Tuple, Union

import numpy.typing as npt

from .types import DataType, Dialect, Encoding, ValueType

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer


class ReadableSeekable(Protocol):
    """A binary file object a Reader (and load) reads through: seek(), tell() and read() (readinto() is used
    where the object has it, but it is not required)."""

    def read(self, size: int, /) -> bytes: ...

    def seek(self, offset: int, whence: int = ..., /) -> int: ...

    def tell(self) -> int: ...


class Writable(Protocol):
    """A binary file object a Writer (and save) writes into: write() taking the bytes as a buffer (a
    memoryview) and returning how many it took (None: none, for a non-blocking stream that is not ready)."""

    def write(self, data: ReadableBuffer, /) -> Optional[int]: ...


#: A file system path, as str, bytes or an os.PathLike (pathlib.Path).
PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: What a Reader reads: a path or a binary file object with seek() and read().
ReaderSource = Union[PathArg, ReadableSeekable]
#: What load() reads: a path, a binary file object, or bytes in memory.
LoadSource = Union[str, "os.PathLike[str]", "os.PathLike[bytes]", ReadableSeekable, bytes, bytearray, memoryview]
#: What a Writer (and save) writes to: a path or a binary file object with write().
WriterTarget = Union[PathArg, Writable]

#: A dtype argument: anything numpy.dtype() accepts, or a ValueType (None: the stored value type).
DTypeArg = Union[npt.DTypeLike, ValueType, None]
#: A dtype argument of whole-object reads: for frames also a mapping from labels to dtypes.
FrameDTypeArg = Union[DTypeArg, Dict[str, DTypeArg]]

DialectName = Literal["spec", "daphne"]
DialectArg = Union[DialectName, Dialect]
EncodingName = Literal["auto", "as-given", "dense", "csr", "coo"]
EncodingArg = Union[EncodingName, Encoding]
DataTypeName = Literal["dense", "csr", "frame", "scalar"]
DataTypeArg = Union[DataTypeName, DataType]

#: A block's (rows, cols).
Shape = Tuple[int, int]
#: A tile shape: (rows, cols), or an int for square tiles (for frames: rows per block); None for automatic.
BlockArg = Union[int, Shape, None]

#: Frame columns for Writer.begin_frame: {label: dtype} or (label, dtype) pairs in column order.
FrameColumns = Union[Dict[str, DTypeArg], Iterable[Tuple[str, DTypeArg]]]

#: What save() stores: an array-like (dense matrix), a scipy.sparse matrix or array (CSR), a dict of 1-D columns
#: or a pandas.DataFrame (frame); in the daphne dialect also a NumPy scalar.
SaveObject = object
