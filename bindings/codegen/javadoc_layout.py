"""Lays out the Javadoc comments of generated Java as the hand-written sources are: on one line when they fit in 120
columns, else filled to 120 columns. Placeholders change the length of a comment's lines; a comment that still
fits the template's own line breaks keeps them."""

from __future__ import annotations

import re

LINE_WIDTH = 120

_JAVADOC = re.compile(r"^(?P<indent>[ \t]*)/\*\*(?P<body>.*?)\*/[ \t]*$", re.MULTILINE | re.DOTALL)


def _paragraphs(body: str) -> list[list[str]]:
    """The words of each paragraph (paragraphs are separated by lines holding only the leading '*')."""
    paragraphs: list[list[str]] = [[]]
    for line in body.splitlines():
        text = re.sub(r"^\s*\*(?!/)", "", line).strip()
        if text:
            paragraphs[-1].extend(text.split())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [words for words in paragraphs if words]


def _fill(words: list[str], prefix: str) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= LINE_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(prefix + word)
    return lines


def _layout(match: re.Match) -> str:
    indent = match.group("indent")
    body = match.group("body")
    if "<pre>" in body:
        return match.group(0)  # preformatted text keeps its lines
    paragraphs = _paragraphs(body)
    if len(paragraphs) == 1:
        single = f"{indent}/** {' '.join(paragraphs[0])} */"
        if len(single) <= LINE_WIDTH:
            return single
    if all(len(line) <= LINE_WIDTH for line in match.group(0).splitlines()):
        return match.group(0)
    lines = [f"{indent}/**"]
    for number, words in enumerate(paragraphs):
        if number:
            lines.append(f"{indent} *")
        lines.extend(_fill(words, f"{indent} * "))
    lines.append(f"{indent} */")
    return "\n".join(lines)


def layout(java_source: str) -> str:
    """`java_source` with every Javadoc comment that stands on its own lines refilled."""
    return _JAVADOC.sub(_layout, java_source)
