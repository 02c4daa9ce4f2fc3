//! Automatic encoding: the writer picks the smallest exact block type and the narrowest value type into which
//! every value round-trips bit for bit; whatever it picks, reading gives back exactly what was written.

mod common;

use common::bits;
use dbdf::{BlockInfo, BlockPlacement, BlockType, DataType, Reader, Status, ValueType, WriteOptions, Writer};

/// Writes `values` as the single 2 x 4 block of an f64 matrix with automatic encoding; returns the stored block
/// and checks that the values read back bit for bit.
fn store_f64(values: [f64; 8]) -> BlockInfo {
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::F64, 2, 4).unwrap();
    writer.add_dense(BlockPlacement::new(0, 0, 2, 4), &values, 0, &WriteOptions::new()).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let info = *reader.next_block().unwrap().unwrap().info();
    assert_eq!(bits(&reader.read_dense::<f64>().unwrap()), bits(&values), "{values:?} read back");
    reader.validate().unwrap();
    info
}

fn stored(info: &BlockInfo) -> (BlockType, Option<ValueType>) {
    (info.block_type, info.value_type)
}

#[test]
fn integers_are_stored_in_the_narrowest_exact_type() {
    let dense = BlockType::Dense;
    assert_eq!(stored(&store_f64([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 255.0])), (dense, Some(ValueType::U8)));
    assert_eq!(stored(&store_f64([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 256.0])), (dense, Some(ValueType::U16)));
    assert_eq!(stored(&store_f64([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -128.0])), (dense, Some(ValueType::I8)));
    assert_eq!(stored(&store_f64([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -129.0])), (dense, Some(ValueType::I16)));
    let two_pow_40 = (1u64 << 40) as f64;
    let wide = store_f64([two_pow_40 + 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    assert_eq!(wide.value_type.map(ValueType::size), Some(8), "needs 64-bit integers: {wide:?}");
}

#[test]
fn negative_zero_nan_payloads_and_extremes_survive() {
    // -0.0 is no integer zero, but f32 keeps it.
    assert_eq!(store_f64([-0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F32));
    // 1.5 is exact in f32; 0.1 is not.
    assert_eq!(store_f64([1.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F32));
    assert_eq!(store_f64([0.1, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F64));
    // A NaN whose payload f32 cannot hold stays f64.
    let nan_payload = f64::from_bits(0x7ff8_0000_0000_0001);
    assert_eq!(store_f64([nan_payload, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F64));
    // Infinities and f32's extremes are exact in f32; f64's are not.
    let f32_max = f64::from(f32::MAX);
    assert_eq!(store_f64([f64::INFINITY, f32_max, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F32));
    assert_eq!(store_f64([f64::MAX, f64::MIN_POSITIVE, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F64));
    // A subnormal f64 has no f32 counterpart.
    assert_eq!(store_f64([f64::from_bits(1), 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]).value_type, Some(ValueType::F64));
}

#[test]
fn sparse_blocks_become_csr_or_coo_and_zero_blocks_empty() {
    let zeros = store_f64([0.0; 8]);
    assert_eq!(stored(&zeros), (BlockType::Empty, None));
    assert_eq!(zeros.stored_values, 0);
    let one_value = store_f64([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1e300, 0.0]);
    assert!(matches!(one_value.block_type, BlockType::Csr | BlockType::Coo), "{one_value:?}");
    assert_eq!((one_value.value_type, one_value.stored_values), (Some(ValueType::F64), 1));
    // -0.0 is a stored value, not a zero.
    let negative_zero = store_f64([0.0, 0.0, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_ne!(negative_zero.block_type, BlockType::Empty);
    assert_eq!(negative_zero.stored_values, 1);
}

#[test]
fn integer_extremes_keep_their_type() {
    for (values, expected) in
        [(vec![u64::MAX, 1, 2, 3], ValueType::U64), (vec![u64::from(u32::MAX), 1, 2, 3], ValueType::U32)]
    {
        let mut writer = Writer::in_memory().unwrap();
        writer.begin_matrix(DataType::Dense, ValueType::U64, 1, 4).unwrap();
        writer.write_dense(&values, 0, &WriteOptions::new()).unwrap();
        writer.finish().unwrap();
        let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
        assert_eq!(reader.next_block().unwrap().unwrap().info().value_type, Some(expected));
        assert_eq!(reader.read_dense::<u64>().unwrap(), values);
    }
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::I64, 1, 4).unwrap();
    writer.write_dense(&[i64::MIN, -1, 0, i64::MAX], 0, &WriteOptions::new()).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    assert_eq!(reader.read_dense::<i64>().unwrap(), vec![i64::MIN, -1, 0, i64::MAX]);
    // Narrowed storage still refuses a type that cannot hold a value.
    assert_eq!(reader.read_dense::<i32>().unwrap_err().status(), Status::Range);
}
