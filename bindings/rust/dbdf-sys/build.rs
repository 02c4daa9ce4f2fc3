//! Generates the declarations of `dbdf.h` with bindgen and tells cargo where libdbdf is.
//!
//! The library is looked up in this order:
//!   1. `DBDF_LIB_DIR`: a directory holding libdbdf.so (CMake sets it to its build tree). The header is then
//!      `DBDF_INCLUDE_DIR/dbdf.h` if that is set, else the repository's `capi/include/dbdf.h`.
//!   2. pkg-config's `dbdf` package (an installed libdbdf), whose include directories hold `dbdf.h`.
//!
//! The directory found is passed on to dependent build scripts as `DEP_DBDF_LIB_DIR`, so they can embed it as
//! an rpath in test and example binaries run from the build tree.

use std::env;
use std::path::{Path, PathBuf};

struct Library {
    include_dir: PathBuf,
    lib_dir: Option<PathBuf>,
}

fn repository_include_dir() -> PathBuf {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    manifest_dir.join("../../../capi/include")
}

fn library_from_env() -> Option<Library> {
    let lib_dir = PathBuf::from(env::var_os("DBDF_LIB_DIR")?);
    let include_dir = env::var_os("DBDF_INCLUDE_DIR").map(PathBuf::from).unwrap_or_else(repository_include_dir);
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=dylib=dbdf");
    Some(Library { include_dir, lib_dir: Some(lib_dir) })
}

fn library_from_pkg_config() -> Result<Library, pkg_config::Error> {
    // pkg-config prints the link flags for cargo itself.
    let found = pkg_config::Config::new().atleast_version("0.1").probe("dbdf")?;
    let include_dir = found
        .include_paths
        .iter()
        .find(|dir| dir.join("dbdf.h").is_file())
        .cloned()
        .unwrap_or_else(repository_include_dir);
    Ok(Library { include_dir, lib_dir: found.link_paths.first().cloned() })
}

fn find_library() -> Library {
    if let Some(library) = library_from_env() {
        return library;
    }
    match library_from_pkg_config() {
        Ok(library) => library,
        Err(error) => panic!(
            "libdbdf not found: DBDF_LIB_DIR is not set (point it at the directory holding libdbdf.so, e.g. \
             build/capi) and pkg-config found no usable 'dbdf' package: {error}"
        ),
    }
}

fn generate_bindings(header: &Path) {
    let out_file = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    let enum_style = bindgen::EnumVariation::NewType { is_bitfield: false, is_global: false };
    bindgen::Builder::default()
        .header(header.to_str().expect("the header path is valid UTF-8"))
        .allowlist_function("dbdf_.*")
        .allowlist_type("dbdf_.*")
        .allowlist_var("DBDF_.*")
        // C may hand over enum values this binding does not know yet: newtypes keep them representable.
        .default_enum_style(enum_style)
        .prepend_enum_name(false)
        .derive_default(true)
        .derive_eq(true)
        .derive_hash(true)
        .use_core()
        .layout_tests(true)
        .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()))
        .generate()
        .unwrap_or_else(|error| panic!("bindgen failed on {}: {error}", header.display()))
        .write_to_file(&out_file)
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", out_file.display()));
}

fn main() {
    println!("cargo:rerun-if-env-changed=DBDF_LIB_DIR");
    println!("cargo:rerun-if-env-changed=DBDF_INCLUDE_DIR");
    let library = find_library();
    let header = library.include_dir.join("dbdf.h");
    if !header.is_file() {
        panic!("dbdf.h not found at {} (set DBDF_INCLUDE_DIR to the directory holding it)", header.display());
    }
    if let Some(lib_dir) = &library.lib_dir {
        println!("cargo:lib_dir={}", lib_dir.display());
        // This crate's own test (the loaded library matches the header) runs from the build tree too.
        if env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os != "windows") {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
        }
    }
    generate_bindings(&header);
}
