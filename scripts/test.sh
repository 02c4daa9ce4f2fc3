#!/usr/bin/env bash
# Runs every test of every language: installs what is missing, then
#   1. builds the C and C++ parts with AddressSanitizer + UndefinedBehaviorSanitizer and runs their tests;
#   2. builds the C++ suites with ThreadSanitizer and runs the multi-threaded tests;
#   3. runs each fuzz target (reader in both dialects, round trip, the CLI's npy, mtx and csv readers) for 30 s;
#   4. builds everything (core, C ABI, CLI, examples, Java, C#, Rust) and runs one ctest over all of it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh

cmake --preset sanitize
cmake --build --preset sanitize
ctest --preset sanitize

cmake --preset thread-sanitize
cmake --build --preset thread-sanitize
ctest --preset thread-sanitize

# Each libFuzzer target briefly (clang, ASan + UBSan); longer runs: bash fuzz/run.sh TARGET SECONDS.
for target in reader daphne roundtrip npy mtx csv; do
  bash fuzz/run.sh "$target" 30 2>&1 | tail -n 3
done

cmake --preset default
cmake --build --preset default
ctest --preset default
