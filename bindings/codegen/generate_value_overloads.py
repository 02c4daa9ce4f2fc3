#!/usr/bin/env python3
"""Generates the per-value-type overloads of the Java or C# binding from templates and value_types.txt.

Usage: generate_value_overloads.py --language java|csharp --header dbdf.h --table value_types.txt
                                   --output-dir DIR TEMPLATE.in...

Each TEMPLATE.in becomes DIR/TEMPLATE (the name without .in). Nothing is written unless every template expands:
on a table that disagrees with the header or a malformed template, the exit status is 1 with one message on
stderr that names the file and line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import javadoc_layout  # noqa: E402
import templates  # noqa: E402
import value_types  # noqa: E402
from c_enums import HeaderError  # noqa: E402

LANGUAGES = {
    # language: (noun of its blocks, items, global placeholders, layout of the expanded text)
    "java": ("array", value_types.java_arrays, value_types.java_globals, javadoc_layout.layout),
    # C#'s documentation comments are single <summary> lines: nothing to lay out.
    "csharp": ("value type", value_types.csharp_value_types, value_types.csharp_globals, lambda text: text),
}


def generated_text(template: Path, language: str, table: list[value_types.ValueType]) -> str:
    noun, items, global_values, layout = LANGUAGES[language]
    body = layout(templates.expand(template.read_text(encoding="utf-8"), str(template), noun, items(table),
                                   global_values(table)))
    notice = (f"// Generated from {template.name} and bindings/codegen/value_types.txt by\n"
              f"// bindings/codegen/generate_value_overloads.py: edit those, not this file.\n")
    return notice + body


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", required=True, choices=sorted(LANGUAGES))
    parser.add_argument("--header", required=True, type=Path, help="capi/include/dbdf.h")
    parser.add_argument("--table", required=True, type=Path, help="bindings/codegen/value_types.txt")
    parser.add_argument("--output-dir", required=True, type=Path)
    parser.add_argument("templates", nargs="+", type=Path, metavar="TEMPLATE.in")
    options = parser.parse_args(arguments)
    try:
        table = value_types.load(options.table, options.header)
        outputs = {}
        for template in options.templates:
            if template.suffix != ".in":
                raise templates.TemplateError(f"{template}: a template's name ends in .in")
            outputs[options.output_dir / template.stem] = generated_text(template, options.language, table)
    except (HeaderError, value_types.TableError, templates.TemplateError, OSError) as error:
        print(f"generate_value_overloads: {error}", file=sys.stderr)
        return 1
    # Written even when unchanged: the build tool compares the outputs' times with the inputs'.
    for path, text in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
