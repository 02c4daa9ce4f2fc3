#!/usr/bin/env bash
# Builds the release artifacts of dbdf (the `release` CMake preset: Release, natives stripped of debug sections) and
# collects them in one folder:
#   dist/prefix/   `cmake --install --component Unspecified --strip`: bin/dbdf, include/dbdf.h, lib/ (libdbdf.so,
#                  CMake package, pkg-config file; the static libdbdf.a is the install component `static`, not shipped:
#                  docs/use-from-c.md)
#   dist/maven/    dbdf-<version>.jar with its -sources and -javadoc jars (org.dbdf:dbdf:<version>)
#   dist/nuget/    Dbdf.<version>.nupkg
#   dist/wheel/    dbdf-<version>-py3-none-<platform>.whl (scikit-build-core builds libdbdf into it, stripped)
#   dist/crates/   dbdf-sys-<version>.crate and dbdf-<version>.crate (C++ sources inside, for the `bundled` feature)
# Then it lists every native library among the artifacts with its size, and fails if one weighs 5 MB or more.
# Usage: bash scripts/package.sh [ARTIFACT...]   (default: all of them; ARTIFACT is prefix, jar, nupkg, wheel or
# crates)
# DBDF_DIST_DIR chooses another output folder than dist/.
#
# One function per artifact, package_<artifact>, each building only the CMake targets it needs and copying its
# result into "$dist"; an artifact is added by writing its function and naming it in `artifacts`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="$root/build-release"
dist="${DBDF_DIST_DIR:-$root/dist}"
artifacts=(prefix jar nupkg wheel crates)

build_release_targets() {
  cmake --build "$build_dir" -j2 --target "$@"
}

package_prefix() {
  build_release_targets dbdf dbdf_cli
  rm -rf "$dist/prefix"
  cmake --install "$build_dir" --prefix "$dist/prefix" --component Unspecified --strip >/dev/null
}

package_jar() {
  build_release_targets dbdf_java_jar
  mkdir -p "$dist/maven"
  cp "$build_dir"/bindings/java/maven/dbdf-*.jar "$dist/maven/"
}

package_nupkg() {
  build_release_targets dbdf_csharp_nupkg
  mkdir -p "$dist/nuget"
  cp "$build_dir"/bindings/csharp/nuget/Dbdf.*.nupkg "$dist/nuget/"
}

# The wheel is built from bindings/python by its own build backend, which compiles libdbdf (core and C ABI only).
package_wheel() {
  mkdir -p "$dist/wheel"
  python3 -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$dist/wheel" bindings/python
}

# Both crates, verified by building them as a consumer would (dbdf-sys against the release build's libdbdf).
package_crates() {
  build_release_targets dbdf
  mkdir -p "$dist/crates"
  DBDF_LIB_DIR="$build_dir/capi" cargo package --quiet --manifest-path bindings/rust/Cargo.toml --locked \
    -p dbdf-sys -p dbdf --target-dir "$build_dir/crates"
  cp "$build_dir"/crates/package/dbdf-sys-*.crate "$build_dir"/crates/package/dbdf-[0-9]*.crate "$dist/crates/"
}

# Every native library among the artifacts in "$dist", with its size; fails when one weighs 5 MB or more (the
# limit of tests/packaging/native_sizes.sh, which the consumer tests check too). The prefix's symbolic links are
# skipped: each points to a file listed itself. Inside a zip (jar, nupkg, wheel) an entry is named archive!entry; a
# .dll counts only under a native/ folder (Dbdf.dll is the managed assembly).
report_native_sizes() {
  local natives='(\\.(so(\\.[0-9]+)*|a|dylib)|/native/.*\\.dll)$' size name too_big=0 archive
  echo "package: native libraries (each must stay under $native_size_limit bytes)"
  while read -r size name; do
    printf '  %10d  %s\n' "$size" "$name"
    if ((size >= native_size_limit)); then
      echo "package: $name weighs $size bytes: a shipped native library must stay under 5 MB" >&2
      too_big=1
    fi
  done < <(
    if [[ -d "$dist/prefix" ]]; then
      find "$dist/prefix" -type f -printf '%s prefix/%P\n' | awk -v pattern="$natives" '$NF ~ pattern' | sort -k2
    fi
    for archive in "$dist"/maven/dbdf-*[0-9].jar "$dist"/nuget/*.nupkg "$dist"/wheel/*.whl; do
      if [[ -f "$archive" ]]; then
        list_packed_natives "$archive" "$natives" | awk -v archive="${archive#"$dist"/}" '{print $1, archive "!" $2}'
      fi
    done
  )
  return "$too_big"
}

requested=("$@")
if ((${#requested[@]} == 0)); then
  requested=("${artifacts[@]}")
fi
for artifact in "${requested[@]}"; do
  if ! declare -F "package_$artifact" >/dev/null; then
    echo "package: unknown artifact '$artifact' (known: ${artifacts[*]})" >&2
    exit 2
  fi
done

source tests/packaging/native_sizes.sh
bash scripts/install-deps.sh
source scripts/env.sh
cmake --preset release >/dev/null
mkdir -p "$dist"
for artifact in "${requested[@]}"; do
  echo "package: $artifact"
  "package_$artifact"
done
report_native_sizes
echo "package: artifacts in $dist"
