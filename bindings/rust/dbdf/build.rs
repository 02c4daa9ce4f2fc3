//! Embeds the directory of an uninstalled libdbdf (found by dbdf-sys, e.g. in a CMake build tree) as an rpath in
//! this crate's tests and examples, so they run without LD_LIBRARY_PATH.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_DBDF_LIB_DIR");
    let Some(lib_dir) = std::env::var_os("DEP_DBDF_LIB_DIR") else { return };
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os != "windows") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", std::path::Path::new(&lib_dir).display());
    }
}
