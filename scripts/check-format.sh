#!/usr/bin/env bash
# Checks that every C and C++ file of the repository is laid out as .clang-format says (clang-format 14, the
# version scripts/install-deps.sh installs; another version may lay out a few constructs differently).
#   bash scripts/check-format.sh          list the files that differ and exit 1 if any does
#   bash scripts/check-format.sh --fix    rewrite them in place
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
clang_format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: $clang_format is not installed (bash scripts/install-deps.sh installs it)" >&2
  exit 2
fi
# Tracked files only, so build trees and generated sources are never checked.
mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp')
if [[ "${1:-}" == "--fix" ]]; then
  "$clang_format" -i --style=file "${files[@]}"
  exit 0
fi
differing=()
for file in "${files[@]}"; do
  if ! "$clang_format" --style=file --dry-run -Werror "$file" >/dev/null 2>&1; then
    differing+=("$file")
  fi
done
if ((${#differing[@]} > 0)); then
  echo "check-format: ${#differing[@]} file(s) differ from .clang-format (fix: bash scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${differing[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} C and C++ files follow .clang-format"
