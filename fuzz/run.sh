#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs one for a number of seconds:
#   bash fuzz/run.sh TARGET SECONDS [SEED]     TARGET: reader, daphne, roundtrip, npy, mtx, csv, futhark, conversion
#   bash fuzz/run.sh --build-all               only builds every target (in one build, so both cores stay busy)
#   bash fuzz/run.sh --no-build TARGET SECONDS [SEED]   runs a target built before, without configuring or building:
#                                              several targets can then run side by side on one build-fuzz/
# Seeds: the saved corpus fuzz/corpus/TARGET/, plus the spec .dbdf files of tests/vectors/ for reader and roundtrip
# and tests/vectors/daphne-runtime/ for daphne (the reader in the daphne dialect). The conversion target's inputs start
# with two option bytes, so its seeds are only its saved corpus (the spec vectors with option bytes in front).
# Without SEED the working corpus build-fuzz/corpus-TARGET/ keeps growing from run to run and libFuzzer picks its own
# random seed. With SEED the run is repeatable: it starts again from the seeds alone and mutates with -seed=SEED, so
# the same command explores the same inputs in the same order (a longer run explores a superset of a shorter one).
# Findings (crash-*, leak-*, timeout-*, oom-*) are written to build-fuzz/findings-TARGET/; the exit status is
# libFuzzer's (0 when nothing was found).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
targets=(reader daphne roundtrip npy mtx csv futhark conversion)
mode=run
case "${1:-}" in
  --build-all) mode=build-all ;;
  --no-build) mode=run-built; shift ;;
esac
target="${1:-reader}"
seconds="${2:-60}"
seed="${3:-}"
if [[ $mode != build-all && " ${targets[*]} " != *" $target "* ]]; then
  echo "fuzz/run.sh: unknown target '$target' (${targets[*]})" >&2
  exit 2
fi
build="$root/build-fuzz"
# -O1 with line tables only, as OSS-Fuzz builds its targets: findings still get file and line in their stack traces,
# and the instrumented core compiles in about 15% less time than with -O2 -g.
if [[ $mode != run-built ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DDBDF_BUILD_FUZZ=ON \
    -DDBDF_BUILD_TESTS=OFF -DDBDF_BUILD_CLI=OFF -DDBDF_BUILD_EXAMPLES=OFF -DDBDF_BUILD_JAVA=OFF \
    -DDBDF_BUILD_CSHARP=OFF -DDBDF_BUILD_RUST=OFF >/dev/null
fi
fuzzers=()
for each in "${targets[@]}"; do fuzzers+=("dbdf_${each}_fuzzer"); done
case "$mode" in
  build-all) exec cmake --build "$build" --target "${fuzzers[@]}" ;;
  run) cmake --build "$build" --target "dbdf_${target}_fuzzer" ;;
esac
corpus="$build/corpus-$target"
findings="$build/findings-$target"
seed_options=()
if [[ -n "$seed" ]]; then
  rm -rf "$corpus"
  seed_options=(-seed="$seed")
fi
mkdir -p "$corpus" "$findings"
case "$target" in
  reader | roundtrip) find "$root/tests/vectors" -path '*/daphne-runtime' -prune -o -name '*.dbdf' -exec cp {} "$corpus/" \; ;;
  daphne) find "$root/tests/vectors/daphne-runtime" -name '*.dbdf' -exec cp {} "$corpus/" \; ;;
esac
if [[ -d "$root/fuzz/corpus/$target" ]]; then
  cp "$root/fuzz/corpus/$target/"* "$corpus/"
fi
exec "$build/fuzz/dbdf_${target}_fuzzer" -max_total_time="$seconds" -rss_limit_mb=1024 -malloc_limit_mb=512 \
  -timeout=10 "${seed_options[@]}" -artifact_prefix="$findings/" "$corpus"
