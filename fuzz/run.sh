#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs one on a copy of its seed corpus for a number of seconds:
#   bash fuzz/run.sh TARGET SECONDS      TARGET: reader, daphne, roundtrip, npy, mtx, csv
# Seeds: the spec .dbdf files of tests/vectors/ for reader and roundtrip, tests/vectors/daphne-runtime/ for daphne
# (the reader in the daphne dialect), fuzz/corpus/TARGET/ for the CLI's readers.
# Findings (crash-*, leak-*, timeout-*, oom-*) are written to build-fuzz/findings-TARGET/; the exit status is
# libFuzzer's (0 when nothing was found).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:-reader}"
seconds="${2:-60}"
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDBDF_BUILD_FUZZ=ON \
  -DDBDF_BUILD_TESTS=OFF -DDBDF_BUILD_CLI=OFF -DDBDF_BUILD_EXAMPLES=OFF -DDBDF_BUILD_JAVA=OFF \
  -DDBDF_BUILD_CSHARP=OFF -DDBDF_BUILD_RUST=OFF >/dev/null
cmake --build "$build" --target "dbdf_${target}_fuzzer"
corpus="$build/corpus-$target"
findings="$build/findings-$target"
mkdir -p "$corpus" "$findings"
case "$target" in
  reader | roundtrip) find "$root/tests/vectors" -path '*/daphne-runtime' -prune -o -name '*.dbdf' -exec cp {} "$corpus/" \; ;;
  daphne) find "$root/tests/vectors/daphne-runtime" -name '*.dbdf' -exec cp {} "$corpus/" \; ;;
  *) cp "$root/fuzz/corpus/$target/"* "$corpus/" ;;
esac
exec "$build/fuzz/dbdf_${target}_fuzzer" -max_total_time="$seconds" -rss_limit_mb=1024 -malloc_limit_mb=512 \
  -timeout=10 -artifact_prefix="$findings/" "$corpus"
