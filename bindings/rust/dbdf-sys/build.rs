//! Tells cargo which libdbdf to link. The declarations of `dbdf.h` are checked in (`src/bindings.rs`, compared with
//! a fresh bindgen run by `tests/bindings_up_to_date.rs`), so building this crate needs no libclang.
//!
//! With the `bundled` feature, libdbdf is built from `native/` (the core and the C ABI only, Release) with CMake and
//! linked statically, with the C++ runtime. Otherwise an existing library is looked up, in this order:
//!   1. `DBDF_LIB_DIR`: a directory holding libdbdf.so (CMake sets it to its build tree);
//!   2. pkg-config's `dbdf` package (an installed libdbdf).
//!
//! The directory of an existing library is passed on to dependent build scripts as `DEP_DBDF_LIB_DIR`, so they can
//! embed it as an rpath in test and example binaries run from the build tree.

use std::env;
use std::path::PathBuf;

#[cfg(feature = "bundled")]
fn link_bundled_library() {
    let source_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("native");
    println!("cargo:rerun-if-changed={}", source_dir.display());
    // Only the static library's target is built: no install step, no shared library.
    let out_dir = cmake::Config::new(&source_dir).profile("Release").build_target("dbdf_static").build();
    println!("cargo:rustc-link-search=native={}", out_dir.join("build/capi").display());
    println!("cargo:rustc-link-lib=static=dbdf");
    // The core is C++: its runtime comes along (libc++ where it is the platform's C++ library).
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let cxx_runtime = if matches!(target_os.as_str(), "macos" | "ios" | "freebsd") { "c++" } else { "stdc++" };
    println!("cargo:rustc-link-lib=dylib={cxx_runtime}");
}

#[cfg(not(feature = "bundled"))]
fn link_existing_library() {
    println!("cargo:rerun-if-env-changed=DBDF_LIB_DIR");
    if let Some(lib_dir) = env::var_os("DBDF_LIB_DIR").map(PathBuf::from) {
        println!("cargo:rustc-link-search=native={}", lib_dir.display());
        println!("cargo:rustc-link-lib=dylib=dbdf");
        announce_lib_dir(&lib_dir);
        return;
    }
    // pkg-config prints the link flags for cargo itself.
    match pkg_config::Config::new().atleast_version("0.1").probe("dbdf") {
        Ok(found) => {
            if let Some(lib_dir) = found.link_paths.first() {
                announce_lib_dir(lib_dir);
            }
        }
        Err(error) => panic!(
            "libdbdf not found: DBDF_LIB_DIR is not set (point it at the directory holding libdbdf.so, e.g. \
             build/capi), pkg-config found no usable 'dbdf' package ({error}), and the `bundled` feature (which \
             builds libdbdf from this crate's sources with CMake) is off"
        ),
    }
}

#[cfg(not(feature = "bundled"))]
fn announce_lib_dir(lib_dir: &std::path::Path) {
    println!("cargo:lib_dir={}", lib_dir.display());
    // This crate's own tests (the loaded library matches the header) run from the build tree too.
    if env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os != "windows") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    }
}

fn main() {
    #[cfg(feature = "bundled")]
    link_bundled_library();
    #[cfg(not(feature = "bundled"))]
    link_existing_library();
}
