#!/usr/bin/env bash
# Runs every test of every language: installs what is missing, then
#   0. checks that the C and C++ sources follow .clang-format;
#   1. builds the C and C++ parts with AddressSanitizer + UndefinedBehaviorSanitizer and runs their tests;
#   2. builds the C++ suites with ThreadSanitizer and runs the multi-threaded tests;
#   3. runs each fuzz target (reader in both dialects, round trip, the CLI's npy, mtx, csv and Futhark readers and its
#      conversions from .dbdf) for 15 s with a fixed seed;
#   4. builds everything (core, C ABI, CLI, examples, Java, C#, Rust) and runs one ctest over all of it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh

bash scripts/check-format.sh

# Tests run as many at a time as there are cores: the cross-language checks that read another language's file name
# it as a fixture, so ctest runs the writer first.
jobs="$(nproc)"

cmake --preset sanitize
cmake --build --preset sanitize
ctest --preset sanitize --parallel "$jobs"

cmake --preset thread-sanitize
cmake --build --preset thread-sanitize
ctest --preset thread-sanitize

# Each libFuzzer target briefly (clang, ASan + UBSan) from its seeds and saved corpus, with a fixed seed so that a
# run repeats exactly what an earlier longer run with the same seed already explored; longer runs, new seeds:
# bash fuzz/run.sh TARGET SECONDS [SEED] (fuzz/README.md).
for target in reader daphne roundtrip npy mtx csv futhark conversion; do
  log="$(mktemp)"
  if bash fuzz/run.sh "$target" 15 1 >"$log" 2>&1; then
    tail -n 2 "$log"
  else
    tail -n 40 "$log"
    echo "fuzz target $target found an input that fails; it is in build-fuzz/findings-$target/" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done

cmake --preset default
cmake --build --preset default
ctest --preset default --parallel "$jobs"
