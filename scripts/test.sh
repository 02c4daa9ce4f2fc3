#!/usr/bin/env bash
# Runs every test of every language: installs what is missing, then
#   0. checks that the C and C++ sources follow .clang-format;
#   1. builds the C and C++ parts with clang, AddressSanitizer + UndefinedBehaviorSanitizer and runs their tests;
#   2. builds the C++ suites with ThreadSanitizer and runs the multi-threaded tests;
#   3. runs each fuzz target (reader in both dialects, round trip, the CLI's npy, mtx, csv and Futhark readers and its
#      conversions from .dbdf) for 15 s with a fixed seed, as many side by side as there are cores;
#   4. builds everything (core, C ABI, CLI, examples, Java, C#, Rust) and runs one ctest over all of it.
# At the end (also when a stage fails) it prints the wall time of each stage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Wall time per stage: stage NAME starts timing the next stage and closes the one before.
stage_names=()
stage_seconds=()
stage_name=""
stage_started=$SECONDS
stage() {
  if [[ -n $stage_name ]]; then
    stage_names+=("$stage_name")
    stage_seconds+=($((SECONDS - stage_started)))
  fi
  stage_name=$1
  stage_started=$SECONDS
}
print_stage_times() {
  local status=$?
  local outcome="done"
  ((status == 0)) || outcome="failed in the last stage listed"
  stage ""
  echo "Wall time per stage ($outcome):"
  local i
  for i in "${!stage_names[@]}"; do
    printf '  %-22s %5d s\n' "${stage_names[$i]}" "${stage_seconds[$i]}"
  done
  printf '  %-22s %5d s\n' "total" "$SECONDS"
}
trap print_stage_times EXIT

stage install-deps
# pyspark (a 450 MB download, needed first by the default build's configure step, which registers the PySpark
# tests when it is importable) installs in the background while the stages before that build run.
pyspark_install_log="$(mktemp -d)/pyspark-install.log"
DBDF_PYSPARK_BACKGROUND_LOG="$pyspark_install_log" bash scripts/install-deps.sh
source scripts/env.sh

stage format
bash scripts/check-format.sh

# Tests run as many at a time as there are cores: the cross-language checks that read another language's file name
# it as a fixture, so ctest runs the writer first.
jobs="$(nproc)"

stage sanitize-build
cmake --preset sanitize
cmake --build --preset sanitize
stage sanitize-tests
ctest --preset sanitize --parallel "$jobs"

stage tsan-build
cmake --preset thread-sanitize
cmake --build --preset thread-sanitize
stage tsan-tests
ctest --preset thread-sanitize

# Each libFuzzer target briefly (clang, ASan + UBSan) from its seeds and saved corpus, with a fixed seed so that a
# run repeats exactly what an earlier longer run with the same seed already explored; longer runs, new seeds:
# bash fuzz/run.sh TARGET SECONDS [SEED] (fuzz/README.md). All targets are built in one go, then run as many at a
# time as there are cores (each run is one process on one core), each for its full 15 s.
stage fuzz-build
bash fuzz/run.sh --build-all
stage fuzz-runs
fuzz_targets=(reader daphne roundtrip npy mtx csv futhark conversion)
fuzz_logs="$(mktemp -d)"
fuzz_failed=()
for ((first = 0; first < ${#fuzz_targets[@]}; first += jobs)); do
  batch=("${fuzz_targets[@]:first:jobs}")
  pids=()
  for target in "${batch[@]}"; do
    bash fuzz/run.sh --no-build "$target" 15 1 >"$fuzz_logs/$target.log" 2>&1 &
    pids+=("$!")
  done
  for i in "${!batch[@]}"; do
    target="${batch[$i]}"
    if wait "${pids[$i]}"; then
      tail -n 2 "$fuzz_logs/$target.log"
    else
      tail -n 40 "$fuzz_logs/$target.log"
      echo "fuzz target $target found an input that fails; it is in build-fuzz/findings-$target/" >&2
      fuzz_failed+=("$target")
    fi
  done
done
rm -rf "$fuzz_logs"
((${#fuzz_failed[@]} == 0)) || exit 1

stage pyspark-install
if [[ -f $pyspark_install_log ]]; then  # the background install started
  until [[ -f $pyspark_install_log.status ]]; do sleep 2; done
  if [[ $(<"$pyspark_install_log.status") != 0 ]]; then
    cat "$pyspark_install_log" >&2
    echo "install-deps: installing pyspark failed (output above)" >&2
    exit 1
  fi
fi

stage default-build
# GCC's warnings as errors here too: the sanitize build, where they are errors otherwise, uses clang.
cmake --preset default -DDBDF_WERROR=ON
cmake --build --preset default
stage default-tests
ctest --preset default --parallel "$jobs"
