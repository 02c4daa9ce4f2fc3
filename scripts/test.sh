#!/usr/bin/env bash
# Runs every test of every language: installs what is missing, then
#   1. builds the C and C++ parts with AddressSanitizer + UndefinedBehaviorSanitizer and runs their tests;
#   2. builds everything (core, C ABI, CLI, examples, Java, C#, Rust) and runs one ctest over all of it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh

cmake --preset sanitize
cmake --build --preset sanitize
ctest --preset sanitize

cmake --preset default
cmake --build --preset default
ctest --preset default
