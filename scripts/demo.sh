#!/usr/bin/env bash
# The demo: builds dbdf and runs one example per language, each writing and reading .dbdf files.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh

cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default -L demo --verbose 2>&1 | sed -n 's/^[0-9]*: //p'
