//! The Rust types that block data decodes into and is written from.

use std::fmt::Debug;

use crate::types::ValueType;

mod sealed {
    pub trait Sealed {}
}

/// One of the ten value types of the format: `u8`, `u16`, `u32`, `u64`, `i8`, `i16`, `i32`, `i64`, `f32`, `f64`.
///
/// Sealed: the library converts values only between these types (exactly, or it fails with
/// [`Status::Range`](crate::Status::Range)).
pub trait Value: sealed::Sealed + Copy + Default + PartialEq + Debug + Send + Sync + 'static {
    /// The format's value type of `Self`.
    const VALUE_TYPE: ValueType;
}

macro_rules! value_types {
    ($($rust:ty => $value_type:ident),* $(,)?) => {$(
        impl sealed::Sealed for $rust {}
        impl Value for $rust {
            const VALUE_TYPE: ValueType = ValueType::$value_type;
        }
    )*};
}

value_types! {
    u8 => U8, u16 => U16, u32 => U32, u64 => U64,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    f32 => F32, f64 => F64,
}
