//! When libdbdf comes from a build tree (DBDF_LIB_DIR, as CMake sets it), embed that directory as an rpath so the
//! example runs from there without LD_LIBRARY_PATH.

fn main() {
    println!("cargo:rerun-if-env-changed=DBDF_LIB_DIR");
    let Some(lib_dir) = std::env::var_os("DBDF_LIB_DIR") else {
        return;
    };
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os != "windows") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", std::path::Path::new(&lib_dir).display());
    }
}
