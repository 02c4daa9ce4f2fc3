#!/usr/bin/env bash
# Installs what building and testing dbdf needs and is not on the machine yet. Safe to run repeatedly:
# it only calls apt-get when a package is missing.
set -euo pipefail

# Debian bookworm packages. Versions are those of bookworm (GoogleTest 1.12.1, Google Benchmark 1.7.1,
# CLI11 2.3.2, {fmt} 9.1.0, SWIG 4.1.0, mono 6.8, NUnit 2.6.4, clang/libclang 14); CMake checks the
# minimum versions it needs.
packages=(
  build-essential cmake ninja-build pkg-config git
  libgtest-dev libbenchmark-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  swig
  openjdk-17-jdk-headless maven
  mono-mcs mono-runtime libmono-system-core4.0-cil nunit-console
  clang libclang-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Rust: the machine's rustup toolchain is used when present; Debian's cargo otherwise.
if ! command -v cargo >/dev/null 2>&1 && [[ -x "$HOME/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "install-deps: installing Debian's cargo"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cargo rustc
fi
if command -v rustup >/dev/null 2>&1 && ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add clippy >/dev/null 2>&1 || true
fi
if command -v rustup >/dev/null 2>&1 && ! cargo fmt --version >/dev/null 2>&1; then
  rustup component add rustfmt >/dev/null 2>&1 || true
fi
