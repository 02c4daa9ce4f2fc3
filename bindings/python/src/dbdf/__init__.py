"""dbdf: read and write the DAPHNE binary data format (.dbdf) from Python, with NumPy and SciPy.

    import dbdf
    dbdf.save("m.dbdf", array)            # ndarray, scipy.sparse matrix, dict of columns or DataFrame
    a = dbdf.load("m.dbdf")               # ndarray, scipy.sparse.csr_matrix, or DataFrame / dict
    with dbdf.Reader("big.dbdf") as reader:
        for block in reader:              # one block at a time; payloads are decoded only on request
            tile = block.decode_dense()
    m = dbdf.load("from-daphne.dbdf", dialect="daphne")   # files DAPHNE's runtime wrote; save(..., dialect="daphne")

The package loads the shared library libdbdf (the C ABI, dbdf.h) with ctypes: the one the environment variable
DBDF_LIBRARY names when it is set, otherwise the one bundled next to the package, otherwise an installed one
(sys.prefix, then the system's library directories). _library describes the search.
"""

from ._library import path as library_path
from ._library import lib as _lib
from .convenience import load, save
from .errors import (DbdfArgumentError, DbdfError, DbdfFileNotFoundError, DbdfFormatError, DbdfIOError,
                     DbdfMemoryError, DbdfPermissionError, DbdfRangeError)
from .block import Block, BlockInfo, CooArrays, CsrArrays
from .reader import ObjectInfo, Reader, Violation
from .types import BlockType, DataType, Dialect, Encoding, PayloadLayout, Status, ValueType
from .writer import Writer

__version__: str = "0.2.0"  # dbdf.h's version, as pyproject.toml derives it (tests/test_packaging.py)


def library_version() -> str:
    """Version of the libdbdf that was loaded, "major.minor.patch"."""
    version: bytes = _lib.dbdf_version_string()
    return version.decode()


__all__ = [
    "Block", "BlockInfo", "BlockType", "CooArrays", "CsrArrays", "DataType", "DbdfArgumentError", "DbdfError",
    "DbdfFileNotFoundError", "DbdfFormatError", "DbdfIOError", "DbdfMemoryError", "DbdfPermissionError",
    "DbdfRangeError", "Dialect", "Encoding",
    "ObjectInfo", "PayloadLayout", "Reader", "Status", "ValueType", "Violation", "Writer", "library_path",
    "library_version", "load", "save",
]
