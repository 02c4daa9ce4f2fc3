//! Helpers shared by the integration tests: where the golden vectors are, scratch files, and exact cell values.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use dbdf::{Value, ValueType};

/// The golden vectors: `DBDF_VECTORS_DIR` (CMake sets it), else the repository's `tests/vectors`.
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("DBDF_VECTORS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/vectors"),
    }
}

/// A fresh, empty directory for one test's files.
pub fn scratch_dir(test: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "dbdf-rust-{test}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// A value type whose cells compare by bit pattern (so -0.0 differs from 0.0 and NaN payloads count).
pub trait Cell: Value {
    /// A cell as vectors.json writes it: decimal for integers, `0x` + hex bits for floats.
    fn parse_cell(text: &str) -> Self;
    fn bits(self) -> u64;
    /// Little-endian bytes, as the format stores values.
    fn le_bytes(self) -> Vec<u8>;
}

macro_rules! integer_cells {
    ($($rust:ty),*) => {$(
        impl Cell for $rust {
            fn parse_cell(text: &str) -> Self {
                text.parse().unwrap_or_else(|error| panic!("cell {text:?} is not a {}: {error}", stringify!($rust)))
            }
            fn bits(self) -> u64 {
                self as u64
            }
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}
integer_cells!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! float_cells {
    ($($rust:ty => $bits:ty),*) => {$(
        impl Cell for $rust {
            fn parse_cell(text: &str) -> Self {
                let hex = text.strip_prefix("0x").unwrap_or_else(|| panic!("float cell {text:?} is not 0x..."));
                <$rust>::from_bits(<$bits>::from_str_radix(hex, 16).expect("hex bits"))
            }
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            fn le_bytes(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}
float_cells!(f32 => u32, f64 => u64);

pub fn bits<T: Cell>(values: &[T]) -> Vec<u64> {
    values.iter().map(|value| value.bits()).collect()
}

/// Runs `$body` with `$T` bound to the Rust type of the value type `$value_type`.
#[macro_export]
macro_rules! with_value_type {
    ($value_type:expr, $T:ident => $body:expr) => {
        match $value_type {
            dbdf::ValueType::U8 => {
                type $T = u8;
                $body
            }
            dbdf::ValueType::U16 => {
                type $T = u16;
                $body
            }
            dbdf::ValueType::U32 => {
                type $T = u32;
                $body
            }
            dbdf::ValueType::U64 => {
                type $T = u64;
                $body
            }
            dbdf::ValueType::I8 => {
                type $T = i8;
                $body
            }
            dbdf::ValueType::I16 => {
                type $T = i16;
                $body
            }
            dbdf::ValueType::I32 => {
                type $T = i32;
                $body
            }
            dbdf::ValueType::I64 => {
                type $T = i64;
                $body
            }
            dbdf::ValueType::F32 => {
                type $T = f32;
                $body
            }
            dbdf::ValueType::F64 => {
                type $T = f64;
                $body
            }
        }
    };
}

pub fn value_type_named(name: &str) -> ValueType {
    ValueType::from_name(name).unwrap_or_else(|error| panic!("value type {name:?}: {error}"))
}

/// A dense matrix from CSR arrays (row offsets, column indices, values), `cols` columns wide.
pub fn dense_from_csr<T: Value, I: Copy + Into<u64>>(
    rows: usize,
    cols: usize,
    row_offsets: &[u64],
    col_indices: &[I],
    values: &[T],
) -> Vec<T> {
    assert_eq!(row_offsets.len(), rows + 1, "row offsets");
    let mut dense = vec![T::default(); rows * cols];
    for row in 0..rows {
        for entry in row_offsets[row] as usize..row_offsets[row + 1] as usize {
            dense[row * cols + col_indices[entry].into() as usize] = values[entry];
        }
    }
    dense
}

/// Deterministic test values of a type: its extremes, zeros (both zeros for floats) and, for floats, values that
/// only survive bit-exact handling (NaN payloads, infinities, subnormals).
pub trait Samples: Cell {
    fn samples() -> Vec<Self>;
    /// A value from arbitrary bits: the low bits for integers, the bit pattern itself for floats.
    fn from_random_bits(bits: u64) -> Self;
}

macro_rules! integer_samples {
    ($($rust:ty),*) => {$(
        impl Samples for $rust {
            fn samples() -> Vec<Self> {
                vec![<$rust>::MIN, <$rust>::MAX, 0, 1, <$rust>::MAX / 3, 0, 7, <$rust>::MIN / 2 + 1, 0, 2, 100, 0]
            }
            fn from_random_bits(bits: u64) -> Self {
                bits as $rust
            }
        }
    )*};
}
integer_samples!(u8, u16, u32, u64, i8, i16, i32, i64);

impl Samples for f32 {
    fn samples() -> Vec<Self> {
        vec![
            f32::MIN,
            f32::MAX,
            0.0,
            -0.0,
            f32::from_bits(0x7fc0_1234),
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(1),
            1.5,
            0.0,
            f32::MIN_POSITIVE,
            -3.25,
        ]
    }
    fn from_random_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
}

impl Samples for f64 {
    fn samples() -> Vec<Self> {
        vec![
            f64::MIN,
            f64::MAX,
            0.0,
            -0.0,
            f64::from_bits(0x7ff8_0000_0000_0001),
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::from_bits(1),
            0.1,
            0.0,
            f64::MIN_POSITIVE,
            -3.25,
        ]
    }
    fn from_random_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}
