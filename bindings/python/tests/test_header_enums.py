"""The package's enums against the C header: each enum of capi/include/dbdf.h that dbdf mirrors has exactly the
members of its IntEnum, with the same names and values; none is missing on either side. The header is read as
text, so a constant added to it fails here until the package has it too."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import dbdf

HEADER = Path(os.environ.get("DBDF_HEADER", Path(__file__).resolve().parents[3] / "capi" / "include" / "dbdf.h"))

# (IntEnum, its typedef in dbdf.h, the prefix its enumerators share, how a member's name reads there)
ENUMS = [
    (dbdf.ValueType, "dbdf_value_type_t", "DBDF_VALUE_", lambda name: name),
    (dbdf.DataType, "dbdf_data_type_t", "DBDF_DATA_", lambda name: name),
    (dbdf.BlockType, "dbdf_block_type_t", "DBDF_BLOCK_", lambda name: name),
    (dbdf.Encoding, "dbdf_encoding_t", "DBDF_ENCODING_", lambda name: name),
    (dbdf.Dialect, "dbdf_dialect_t", "DBDF_DIALECT_", lambda name: name),
    (dbdf.PayloadLayout, "dbdf_payload_layout_t", "DBDF_PAYLOAD_", lambda name: name),
    # The failures are DBDF_ERR_<name>; OK and END_OF_BLOCKS are not failures.
    (dbdf.Status, "dbdf_status_t", "DBDF_",
     lambda name: name if name in ("OK", "END_OF_BLOCKS") else f"ERR_{name}"),
]


def header_enum(typedef_name: str) -> dict[str, int]:
    """The enumerators of `typedef enum ... { ... } <typedef_name>;`, each with its explicit value."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", HEADER.read_text(encoding="utf-8"), flags=re.DOTALL)
    declaration = re.search(r"typedef\s+enum\s+\w*\s*\{([^{}]*)\}\s*" + typedef_name + r"\s*;", code)
    assert declaration, f"{HEADER} declares no enum {typedef_name}"
    enumerators = {}
    for entry in filter(None, (entry.strip() for entry in declaration.group(1).split(","))):
        match = re.fullmatch(r"(\w+)\s*=\s*(-?\d+)", entry)
        assert match, f"{typedef_name}: enumerator '{entry}' has no explicit value"
        assert match.group(1) not in enumerators, f"{typedef_name}: {match.group(1)} twice"
        enumerators[match.group(1)] = int(match.group(2))
    return enumerators


def test_the_header_is_read_with_its_values():
    statuses = header_enum("dbdf_status_t")
    assert statuses["DBDF_OK"] == 0
    assert statuses["DBDF_ERR_INVALID_ARGUMENT"] == -1
    # Follows a comment of several lines in dbdf.h.
    assert statuses["DBDF_ERR_INTERNAL"] == -10
    assert header_enum("dbdf_value_type_t")["DBDF_VALUE_F64"] == 10


@pytest.mark.parametrize("enum_type, typedef_name, prefix, c_spelling", ENUMS,
                         ids=[typedef_name for _, typedef_name, _, _ in ENUMS])
def test_enum_has_exactly_the_enumerators_of_the_header(enum_type, typedef_name, prefix, c_spelling):
    in_python = {prefix + c_spelling(member.name): int(member) for member in enum_type}
    assert in_python == header_enum(typedef_name)
