#!/usr/bin/env bash
# The "Use dbdf in your project" section of bindings/rust/README.md, run as written from an empty temporary folder:
# a new crate depending on bindings/rust/dbdf with the `bundled` feature (libdbdf built from dbdf-sys's sources with
# CMake and linked statically), consumer/main.rs as its program, `cargo run`. It also checks the program's output
# and that the binary needs no libdbdf at run time.
# Usage: run.sh REPOSITORY
set -euo pipefail
repository=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dbdf-rust-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Nothing from the repository's own build may help: no libdbdf to find, no shared target directory.
unset DBDF_LIB_DIR DBDF_INCLUDE_DIR CARGO_TARGET_DIR PKG_CONFIG_PATH LD_LIBRARY_PATH
cd "$work"
started=$SECONDS

mkdir -p consumer/src
cat > consumer/Cargo.toml <<TOML
[package]
name = "consumer"
version = "0.1.0"
edition = "2021"

[dependencies]
dbdf = { path = "$repository/bindings/rust/dbdf", features = ["bundled"] }
TOML
cp "$repository/bindings/rust/consumer/main.rs" consumer/src/main.rs
cd consumer
cargo build --quiet
built=$SECONDS
cargo run --quiet | tee ../output.txt

grep -qx 'read back 3 x 4 matrix of f64' ../output.txt
grep -q '^missing file: io: .*no-such-file.dbdf' ../output.txt
if ldd target/debug/consumer | grep -q dbdf; then
  echo "the consumer links libdbdf dynamically:" >&2
  ldd target/debug/consumer >&2
  exit 1
fi
echo "rust consumer: cargo build took $((built - started)) s, all steps $((SECONDS - started)) s"
