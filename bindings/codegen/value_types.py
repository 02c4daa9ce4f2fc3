"""The value-type table (value_types.txt), checked against dbdf.h, and what each binding's templates iterate over.

Java iterates over its primitive arrays (unsigned types travel in the signed array of their width), C# over the
value types (each has its own element type)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from c_enums import read_enum

VALUE_TYPE_ENUM = "dbdf_value_type_t"
VALUE_TYPE_PREFIX = "DBDF_VALUE_"
# "No single value type" (a frame's object value type): holds no values, so it has no overloads.
NO_VALUE_TYPE = "DBDF_VALUE_NONE"

JAVA_PRIMITIVES = ("boolean", "byte", "char", "short", "int", "long", "float", "double")
TABLE_COLUMNS = ("name", "java_array", "java_untyped", "csharp_element")


class TableError(Exception):
    """The table is malformed or disagrees with dbdf.h."""


@dataclass(frozen=True)
class ValueType:
    name: str            # as in DBDF_VALUE_<name>: "F64"
    code: int            # its value in dbdf.h
    java_array: str      # Java primitive of the array holding it: "double"
    java_untyped: bool   # the type Java's overloads without a ValueType assume for java_array
    csharp_element: str  # .NET element type: "double"


def read_table(table: Path) -> list[tuple[int, list[str]]]:
    """The rows of the table as (line number, fields), comments and blank lines skipped."""
    rows = []
    for number, line in enumerate(table.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != len(TABLE_COLUMNS):
            raise TableError(f"{table}:{number}: {len(fields)} fields, expected {len(TABLE_COLUMNS)} "
                             f"({' '.join(TABLE_COLUMNS)})")
        rows.append((number, fields))
    return rows


def load(table: Path, header: Path) -> list[ValueType]:
    """The table's value types in table order, after checking that they are exactly those of dbdf.h."""
    header_codes = {name[len(VALUE_TYPE_PREFIX):]: code for name, code in read_enum(header, VALUE_TYPE_ENUM).items()
                    if name != NO_VALUE_TYPE}
    value_types: list[ValueType] = []
    for number, (name, java_array, java_untyped, csharp_element) in read_table(table):
        where = f"{table}:{number}"
        if name not in header_codes:
            raise TableError(f"{where}: value type {name}: {header} declares no {VALUE_TYPE_PREFIX}{name} in "
                             f"{VALUE_TYPE_ENUM}")
        if any(existing.name == name for existing in value_types):
            raise TableError(f"{where}: value type {name} is listed twice")
        if java_array not in JAVA_PRIMITIVES:
            raise TableError(f"{where}: java_array '{java_array}' of {name} is not a Java primitive "
                             f"({', '.join(JAVA_PRIMITIVES)})")
        if java_untyped not in ("yes", "no"):
            raise TableError(f"{where}: java_untyped of {name} is '{java_untyped}', expected yes or no")
        if not csharp_element.isidentifier():
            raise TableError(f"{where}: csharp_element '{csharp_element}' of {name} is not a C# type name")
        value_types.append(ValueType(name, header_codes[name], java_array, java_untyped == "yes", csharp_element))

    missing = [name for name in header_codes if all(value_type.name != name for value_type in value_types)]
    if missing:
        raise TableError(f"{table}: no row for " + ", ".join(
            f"{VALUE_TYPE_PREFIX}{name} = {header_codes[name]}" for name in missing) + f" of {header}")
    _check_java(table, value_types)
    _check_csharp(table, value_types)
    return value_types


def _check_java(table: Path, value_types: list[ValueType]) -> None:
    for java_array in dict.fromkeys(value_type.java_array for value_type in value_types):
        untyped = [value_type.name for value_type in value_types
                   if value_type.java_array == java_array and value_type.java_untyped]
        if len(untyped) != 1:
            raise TableError(f"{table}: {java_array}[] needs exactly one value type with java_untyped yes, "
                             f"has {len(untyped)} ({', '.join(untyped) or 'none'})")


def _check_csharp(table: Path, value_types: list[ValueType]) -> None:
    for value_type in value_types:
        sharing = [other.name for other in value_types if other.csharp_element == value_type.csharp_element]
        if len(sharing) > 1:
            raise TableError(f"{table}: {', '.join(sharing)} share the C# element type {value_type.csharp_element}; "
                             f"C# overloads are told apart by element type, so each needs its own")


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def java_arrays(value_types: list[ValueType]) -> list[dict[str, str]]:
    """One item per Java primitive array, in table order. Placeholders:

    array          the array type: "long[]"
    an_array       with its article: "a long[]", "an int[]"
    type           the value type the overloads without a ValueType assume: "I64"
    unsigned_note  for arrays that hold other value types too, how to ask for them:
                   " (pass {@link ValueType#U64} explicitly for unsigned data)"; otherwise empty
    """
    items = []
    for java_array in dict.fromkeys(value_type.java_array for value_type in value_types):
        holders = [value_type for value_type in value_types if value_type.java_array == java_array]
        untyped = next(value_type for value_type in holders if value_type.java_untyped)
        others = [value_type.name for value_type in holders if not value_type.java_untyped]
        note = ""
        if others:
            links = " or ".join(f"{{@link ValueType#{name}}}" for name in others)
            kind = "unsigned data" if all(name.startswith("U") for name in others) else "those types"
            note = f" (pass {links} explicitly for {kind})"
        items.append({"array": f"{java_array}[]", "an_array": _article(f"{java_array}[]"), "type": untyped.name,
                      "unsigned_note": note})
    return items


def java_globals(value_types: list[ValueType]) -> dict[str, str]:
    """Placeholders valid anywhere in a Java template:

    first_array   the array of the first overload of each family, which the others' documentation links to
    arrays_listed every array, for documentation: "double[], float[], long[], int[], short[], byte[]"
    """
    arrays = [item["array"] for item in java_arrays(value_types)]
    return {"first_array": arrays[0], "arrays_listed": ", ".join(arrays)}


def csharp_value_types(value_types: list[ValueType]) -> list[dict[str, str]]:
    """One item per value type, in table order. Placeholders: element ("double"), type ("F64")."""
    return [{"element": value_type.csharp_element, "type": value_type.name} for value_type in value_types]


def csharp_globals(value_types: list[ValueType]) -> dict[str, str]:
    """Placeholders valid anywhere in a C# template: elements_listed ("double, float, ..., byte")."""
    return {"elements_listed": ", ".join(value_type.csharp_element for value_type in value_types)}
