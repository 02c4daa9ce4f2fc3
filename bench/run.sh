#!/usr/bin/env bash
# Builds the benchmarks and runs all three parts, printing every figure and target (bench/README.md):
#   1. the core suites (Google Benchmark) and their targets, as fractions of memcpy in the same run;
#   2. dbdf against numpy, h5py, scipy.sparse and plain write()/read() (bench/compare/compare_io.py), and automatic
#      encoding on three kinds of content against numpy, Arrow IPC and h5py (bench/compare/compare_encoding.py);
#   3. the binding overhead of Java, C#, Rust and Python against C (bench/bindings/run.py).
# The JSON of each part goes to build/bench/results/. Options are passed to compare_io.py (e.g. --dense-mib 64
# --skip-sparse for a quick run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh
if ! python3 -c 'import h5py, pyarrow' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -r bench/requirements.txt
fi

cmake --preset default >/dev/null
cmake --build --preset default
results="$root/build/bench/results"
mkdir -p "$results"
export DBDF_LIBRARY="$root/build/capi/libdbdf.so"
export PYTHONPATH="$root/bindings/python/src"

echo "== core suites"
for suite in codec file analysis; do
  "build/bench/dbdf_${suite}_bench" --benchmark_out="$results/$suite.json" --benchmark_out_format=json
done
echo
python3 bench/check_targets.py "$results/codec.json" "$results/file.json" "$results/analysis.json"

echo; echo "== against numpy, h5py and scipy"
python3 bench/compare/compare_io.py --json "$results/compare_io.json" "$@"

echo; echo "== automatic encoding against numpy, Arrow IPC and h5py"
python3 bench/compare/compare_encoding.py --json "$results/compare_encoding.json"
python3 bench/compare/compare_write_dense.py

echo; echo "== binding overhead"
python3 bench/bindings/run.py --json "$results/bindings.json"
