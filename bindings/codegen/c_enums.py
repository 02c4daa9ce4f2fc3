"""Reads the enums of the C interface (capi/include/dbdf.h) as name -> value maps.

dbdf.h gives every enumerator an explicit value (its "add at the end" rule), so a plain text scan is exact; an
enumerator without one is an error rather than a guess."""

from __future__ import annotations

import re
from pathlib import Path

_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_ENUMERATOR = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[-+]?\s*\d+)")


class HeaderError(Exception):
    """The header does not declare an enum the way this reader needs."""


def read_enum(header: Path, typedef_name: str) -> dict[str, int]:
    """The enumerators of `typedef enum ... { ... } <typedef_name>;` in `header`, in declaration order."""
    text = _COMMENTS.sub(" ", header.read_text(encoding="utf-8"))
    declaration = re.search(r"typedef\s+enum\s+\w*\s*\{(?P<body>[^{}]*)\}\s*" + re.escape(typedef_name) + r"\s*;",
                            text)
    if declaration is None:
        raise HeaderError(f"{header}: no 'typedef enum {{ ... }} {typedef_name};'")
    enumerators: dict[str, int] = {}
    for entry in declaration.group("body").split(","):
        entry = entry.strip()
        if not entry:
            continue
        match = _ENUMERATOR.fullmatch(entry)
        if match is None:
            raise HeaderError(f"{header}: {typedef_name}: enumerator '{entry}' has no explicit numeric value")
        name = match.group("name")
        if name in enumerators:
            raise HeaderError(f"{header}: {typedef_name}: enumerator {name} is declared twice")
        enumerators[name] = int(match.group("value").replace(" ", ""))
    if not enumerators:
        raise HeaderError(f"{header}: {typedef_name} has no enumerators")
    return enumerators
