//! `src/bindings.rs` is bindgen's output for `capi/include/dbdf.h`, checked in so that building the crate needs no
//! libclang. This test runs bindgen again, with the options below (the only place they are written), and fails
//! when the result differs from the file: after a change to `dbdf.h`, regenerate it with
//! `DBDF_BLESS_BINDINGS=1 cargo test -p dbdf-sys --test bindings_up_to_date`.

use std::path::PathBuf;

fn header() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("native/capi/include/dbdf.h")
}

fn checked_in_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/bindings.rs")
}

fn generate() -> String {
    let enum_style = bindgen::EnumVariation::NewType { is_bitfield: false, is_global: false };
    let header = header();
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
        .generate()
        .unwrap_or_else(|error| panic!("bindgen failed on {}: {error}", header.display()))
        .to_string()
}

#[test]
fn checked_in_bindings_match_a_fresh_bindgen_run() {
    let fresh = generate();
    let file = checked_in_file();
    if std::env::var_os("DBDF_BLESS_BINDINGS").is_some() {
        std::fs::write(&file, &fresh).unwrap_or_else(|error| panic!("cannot write {}: {error}", file.display()));
        return;
    }
    let checked_in =
        std::fs::read_to_string(&file).unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
    assert!(
        checked_in == fresh,
        "{} is not what bindgen generates from {}; regenerate it with \
         DBDF_BLESS_BINDINGS=1 cargo test -p dbdf-sys --test bindings_up_to_date",
        file.display(),
        header().display()
    );
}
