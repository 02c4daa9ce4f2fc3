//! What an `Error` tells besides its status: the rule and byte offset as numbers, the whole message, and the same
//! "status: message" text as every binding.

mod common;

use common::{scratch_dir, vectors_dir};
use dbdf::{FrameColumn, Reader, Status, ValueType, Writer};

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(vectors_dir().join(name)).unwrap()
}

fn decode_every_block(reader: &mut Reader<'_>) -> dbdf::Result<()> {
    while let Some(mut block) = reader.next_block()? {
        block.decode_dense::<f64>()?;
    }
    Ok(())
}

#[test]
fn a_changed_byte_gives_its_rule_and_offset() {
    let mut bytes = vector("dense_f64.dbdf");
    bytes[18] = 0; // the object's value type: 0 is reserved (rule 6)
    let reserved = Reader::from_bytes(&bytes).expect_err("value type 0 is refused");
    assert_eq!(reserved.status(), Status::Format);
    assert_eq!((reserved.rule(), reserved.offset()), (Some(6), Some(18)));
    assert_eq!(reserved.to_string(), "format: object value type 0 is reserved at byte 18 (rule 6)");

    bytes[18] = 10;
    bytes[1] = 9; // data type 9 does not exist: the spec's layout itself, no numbered rule
    let unknown = Reader::from_bytes(&bytes).expect_err("data type 9 is refused");
    assert_eq!((unknown.rule(), unknown.offset()), (None, Some(1)));
    assert!(unknown.message().ends_with(" at byte 1 (spec layout)"), "{unknown}");
}

#[test]
fn a_broken_payload_gives_its_rule_and_offset_when_decoded() {
    let bytes = vector("invalid/csr_unsorted_columns.dbdf");
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    let error = decode_every_block(&mut reader).unwrap_err();
    assert_eq!(error.status(), Status::Format);
    assert_eq!((error.rule(), error.offset()), (Some(12), Some(69)), "{error}");
}

#[test]
fn a_truncated_file_gives_where_it_ends() {
    let whole = vector("dense_f64.dbdf");
    let cut = &whole[..whole.len() - 1];
    let mut reader = Reader::from_bytes(cut).unwrap();
    let error = decode_every_block(&mut reader).unwrap_err();
    assert_eq!(error.status(), Status::Truncated);
    assert_eq!((error.rule(), error.offset()), (Some(5), Some(19)), "{error}");
}

#[test]
fn failures_of_other_kinds_have_no_rule_and_no_offset() {
    let missing = Reader::open(scratch_dir("error_details").join("absent.dbdf")).expect_err("no such file");
    assert_eq!(missing.status(), Status::Io);
    assert_eq!((missing.rule(), missing.offset()), (None, None));
    assert!(missing.to_string().starts_with("io: cannot open '"), "{missing}");

    let mut writer = Writer::in_memory().unwrap();
    let call_order = writer.finish().unwrap_err();
    assert_eq!(call_order.status(), Status::CallOrder);
    assert_eq!((call_order.rule(), call_order.offset()), (None, None));
    assert_eq!(call_order.to_string(), format!("call_order: {}", call_order.message()));

    // A check of this crate, made before calling the library.
    let nul = Reader::open("with\0nul.dbdf").expect_err("a NUL byte is refused");
    assert_eq!((nul.status(), nul.rule(), nul.offset()), (Status::InvalidArgument, None, None));
}

#[test]
fn a_later_failure_replaces_the_details_of_an_earlier_one() {
    let bytes = vector("invalid/csr_unsorted_columns.dbdf");
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    let first = decode_every_block(&mut reader).unwrap_err();
    let mut writer = Writer::in_memory().unwrap();
    let second = writer.finish().unwrap_err();
    assert_eq!((first.rule(), first.offset()), (Some(12), Some(69)), "an Error keeps what it was given");
    assert_eq!((second.rule(), second.offset()), (None, None));
}

#[test]
fn text_is_not_a_dbdf_file() {
    let error = Reader::from_bytes(b"id,price\n1,2.5\n").expect_err("a CSV is refused");
    assert_eq!(
        error.to_string(),
        "format: not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A\" (text) instead of format version 1 at \
         byte 0 (rule 6)"
    );
    assert_eq!((error.rule(), error.offset()), (Some(6), Some(0)));
}

#[test]
fn a_long_message_arrives_whole() {
    let label = format!("{}-é𝄞", "x".repeat(2_990));
    let mut writer = Writer::in_memory().unwrap();
    let columns = [FrameColumn::new(&label, ValueType::I32), FrameColumn::new(&label, ValueType::F64)];
    let error = writer.begin_frame(1, &columns).unwrap_err();
    assert_eq!(error.status(), Status::InvalidArgument);
    assert_eq!(
        error.message(),
        format!("label \"{label}\" of frame column 1 repeats an earlier label; frame labels must be unique (rule 16)")
    );
    assert_eq!(error.to_string(), format!("invalid_argument: {}", error.message()));
    assert_eq!((error.rule(), error.offset()), (None, None), "an argument the writer refuses has no rule number");
}
