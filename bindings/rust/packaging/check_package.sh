#!/usr/bin/env bash
# `cargo package` of both crates, as a release would make them, and a look inside: dbdf-sys's .crate must hold the
# C++ sources (native/ links to core/ and capi/, stored as files) and the checked-in bindings, and must not depend
# on bindgen to build. Cargo packages the two together, so dbdf is verified against the dbdf-sys just packaged
# although neither is published. Usage: check_package.sh WORKSPACE TARGET_DIR (cargo on PATH; DBDF_LIB_DIR, set
# by CMake, lets the verification build link the library of the build tree).
set -euo pipefail
workspace=$1
target_dir=$2
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$workspace/Cargo.toml" | head -n 1)
# Cargo verifies dbdf against the dbdf-sys it just packaged through a temporary registry, and unpacks that .crate
# into $CARGO_HOME/registry/src/<registry>/ only when no folder of that name and version is there yet: a copy left
# by an earlier run (the same version before a header change) would be built instead. The crates are never
# published, so every such copy is one of these checks' own. For the same reason cargo reuses what an earlier run
# compiled from that registry: the target folder starts empty.
rm -rf "$target_dir"
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"dbdf-sys-$version" "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"dbdf-$version"
# --allow-dirty: the check is about what goes into the packages, also for changes not yet committed.
cargo package --manifest-path "$workspace/Cargo.toml" --locked --allow-dirty --target-dir "$target_dir" \
  -p dbdf-sys -p dbdf

sys_crate="$target_dir/package/dbdf-sys-$version.crate"
safe_crate="$target_dir/package/dbdf-$version.crate"
contents=$(tar -tzf "$sys_crate")
for expected in build.rs src/bindings.rs native/CMakeLists.txt native/core/CMakeLists.txt \
                native/core/src/reader.cpp native/capi/CMakeLists.txt native/capi/include/dbdf.h native/capi/dbdf.map; do
  if ! grep -qx "dbdf-sys-$version/$expected" <<<"$contents"; then
    echo "$sys_crate lacks $expected" >&2
    exit 1
  fi
done
# Stored as files, not as links that point outside the package.
if tar -tvzf "$sys_crate" | grep -q '^l'; then
  echo "$sys_crate holds symbolic links" >&2
  exit 1
fi
manifest=$(tar -xzOf "$sys_crate" "dbdf-sys-$version/Cargo.toml")
if grep -q '^\[build-dependencies\.bindgen\]' <<<"$manifest"; then
  echo "dbdf-sys needs bindgen (and so libclang) to build" >&2
  exit 1
fi
grep -q '^\[features\]' <<<"$manifest" && grep -q '^bundled = ' <<<"$manifest"
safe_contents=$(tar -tzf "$safe_crate")
grep -qx "dbdf-$version/src/lib.rs" <<<"$safe_contents"
echo "packaged $(basename "$sys_crate") ($(tar -tzf "$sys_crate" | wc -l) files) and $(basename "$safe_crate")"
