"""Expands a source template: ordinary Java or C# text with ${placeholders} and line directives.

    //$ for each <noun>   repeats the lines up to //$ end once per item (the noun names what is iterated and must
                          be the one the language iterates over: "array" in Java, "value type" in C#)
    //$ first             the following lines only for the first item (until the next section directive)
    //$ others            the following lines only for the items after the first
    //$ every             the following lines for every item again (the default at the start of a block)
    //$ end               ends the block

Inside a block, ${name} takes the item's value or a global one; outside, only global ones. $$ is a literal $.
A placeholder that does not exist, a directive out of place or an unterminated block is an error naming the
template's line."""

from __future__ import annotations

import re
import string

_DIRECTIVE = re.compile(r"\s*//\$\s*(?P<words>.*?)\s*$")
_SECTIONS = ("first", "others", "every")


class TemplateError(Exception):
    """The template is malformed."""


def _substitute(line: str, values: dict[str, str], where: str) -> str:
    try:
        return string.Template(line).substitute(values)
    except KeyError as unknown:
        raise TemplateError(f"{where}: unknown placeholder ${{{unknown.args[0]}}} "
                            f"(known here: {', '.join(sorted(values))})") from None
    except ValueError as invalid:
        raise TemplateError(f"{where}: {invalid} (write $$ for a literal $)") from None


def expand(template: str, name: str, noun: str, items: list[dict[str, str]], global_values: dict[str, str]) -> str:
    """The text of `template` (called `name` in errors) with each block repeated over `items`."""
    lines = template.splitlines(keepends=True)
    output: list[str] = []
    index = 0
    while index < len(lines):
        directive = _DIRECTIVE.fullmatch(lines[index].rstrip("\n"))
        where = f"{name}:{index + 1}"
        if directive is None:
            output.append(_substitute(lines[index], global_values, where))
            index += 1
            continue
        words = directive.group("words")
        if words != f"for each {noun}":
            raise TemplateError(f"{where}: expected '//$ for each {noun}' to open a block, found '//$ {words}'")
        index = _expand_block(lines, index + 1, name, where, items, global_values, output)
    return "".join(output)


def _expand_block(lines: list[str], start: int, name: str, opened_at: str, items: list[dict[str, str]],
                  global_values: dict[str, str], output: list[str]) -> int:
    """Expands the block whose body starts at line index `start`; returns the index after its //$ end."""
    sections: list[tuple[str, list[tuple[str, str]]]] = [("every", [])]
    index = start
    while True:
        if index == len(lines):
            raise TemplateError(f"{opened_at}: block not closed by '//$ end'")
        where = f"{name}:{index + 1}"
        directive = _DIRECTIVE.fullmatch(lines[index].rstrip("\n"))
        index += 1
        if directive is None:
            sections[-1][1].append((lines[index - 1], where))
            continue
        words = directive.group("words")
        if words == "end":
            break
        if words not in _SECTIONS:
            raise TemplateError(f"{where}: '//$ {words}' inside a block (blocks do not nest; expected "
                                f"{', '.join(_SECTIONS)} or end)")
        sections.append((words, []))

    for position, item in enumerate(items):
        values = {**global_values, **item}
        for section, body in sections:
            if section == "every" or (section == "first") == (position == 0):
                output.extend(_substitute(line, values, where) for line, where in body)
    return index
