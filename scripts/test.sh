#!/usr/bin/env bash
# Runs every test of every language: installs what is missing, builds everything, runs one ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
source scripts/env.sh

cmake --preset default
cmake --build --preset default
ctest --preset default
