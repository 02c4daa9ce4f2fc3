#!/usr/bin/env python3
"""Checks the numbered rules of docs/format-rules.md against the code that cites them.

- The rules are numbered 1..N without gaps or repeats (a rule is never renumbered; a new one takes N + 1).
- Every rule number the sources cite ("rule 12", "rules 4 and 12", throw_format(code, 12, ...)) exists.
- With the shared rules file that the project started from beside the repository (../shared/FORMAT-RULES.md), the
  numbers and their first words are the same: docs/format-rules.md is that list, kept here, with numbers unchanged.
- No source or document names the outside file any more: every "rule N" points at docs/format-rules.md.

Usage: check_format_rules.py REPOSITORY_ROOT
"""
import os
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".c", ".h", ".cpp", ".hpp", ".i", ".java", ".cs", ".rs", ".py", ".md"}
SKIPPED_PARTS = {".git", "target", "node_modules", "__pycache__"}
OUTSIDE_NAME = "FORMAT-" + "RULES"  # split so that this file does not cite it


def numbered_rules(markdown: str) -> dict[int, str]:
    """Rule number -> its first words, from the list items '12. **CSR.** ...' of a rules document."""
    rules: dict[int, str] = {}
    for match in re.finditer(r"^(\d+)\. (.*)$", markdown, flags=re.MULTILINE):
        number = int(match.group(1))
        if number in rules:
            raise SystemExit(f"rule {number} is numbered twice")
        rules[number] = " ".join(match.group(2).split()[:3])
    return rules


def tracked_sources(root: pathlib.Path):
    """Sources and documents, without build trees (pruned while walking: they hold many thousands of files)."""
    for directory, subdirectories, files in os.walk(root):
        at_top = pathlib.Path(directory) == root
        subdirectories[:] = [name for name in subdirectories
                             if name not in SKIPPED_PARTS and not (at_top and name.startswith("build"))]
        for name in files:
            path = pathlib.Path(directory) / name
            if path.suffix in SOURCE_SUFFIXES:
                yield path.relative_to(root), path.read_text(encoding="utf-8", errors="replace")


def cited_rules(text: str) -> set[int]:
    cited = set()
    for match in re.finditer(r"\brules? ((?:\d+(?:, | and | or |-|, and ))*\d+)", text):
        cited.update(int(number) for number in re.findall(r"\d+", match.group(1)))
    for match in re.finditer(r"throw_format\([^,()]+, *(\d+)", text):
        cited.add(int(match.group(1)))
    return cited


def main() -> int:
    root = pathlib.Path(sys.argv[1]).resolve()
    failures = []
    rules = numbered_rules((root / "docs" / "format-rules.md").read_text(encoding="utf-8"))
    if sorted(rules) != list(range(1, len(rules) + 1)):
        failures.append(f"docs/format-rules.md numbers its rules {sorted(rules)}, not 1..{len(rules)}")

    shared = root.parent / "shared" / f"{OUTSIDE_NAME}.md"
    if shared.is_file():
        original = numbered_rules(shared.read_text(encoding="utf-8"))
        for number, words in original.items():
            if rules.get(number) != words:
                failures.append(f"rule {number} is '{rules.get(number)}' in docs/format-rules.md, '{words}' originally")

    for relative, text in tracked_sources(root):
        if relative.as_posix() == "tests/docs/check_format_rules.py":
            continue
        if OUTSIDE_NAME in text:
            failures.append(f"{relative} names {OUTSIDE_NAME}; cite docs/format-rules.md")
        for number in sorted(cited_rules(text)):
            if number != 0 and number not in rules:
                failures.append(f"{relative} cites rule {number}, which docs/format-rules.md does not have")

    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"docs/format-rules.md: rules 1..{len(rules)}, every cited rule exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
