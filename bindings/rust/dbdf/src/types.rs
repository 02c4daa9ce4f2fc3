//! The enumerations of the format: value types, data types, block types and encodings.

use std::ffi::CString;
use std::fmt;

use dbdf_sys as sys;

use crate::error::{check, static_str, Error, Result, Status};

/// The error for an enum code the library returned that this binding does not know (a newer library).
pub(crate) fn unknown_code(what: &str, code: u32) -> Error {
    Error::new(
        Status::Unsupported,
        format!("the library reported {what} code {code}, which this binding does not know"),
    )
}

/// Type of the values of a matrix, a frame column or a stored block: the format's codes 1..10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueType {
    /// 8-bit unsigned integer (`u8`).
    U8 = 1,
    /// 16-bit unsigned integer (`u16`).
    U16 = 2,
    /// 32-bit unsigned integer (`u32`).
    U32 = 3,
    /// 64-bit unsigned integer (`u64`).
    U64 = 4,
    /// 8-bit signed integer (`i8`).
    I8 = 5,
    /// 16-bit signed integer (`i16`).
    I16 = 6,
    /// 32-bit signed integer (`i32`).
    I32 = 7,
    /// 64-bit signed integer (`i64`).
    I64 = 8,
    /// 32-bit IEEE 754 float (`f32`).
    F32 = 9,
    /// 64-bit IEEE 754 float (`f64`).
    F64 = 10,
}

impl ValueType {
    /// Every value type, in code order.
    pub const ALL: [ValueType; 10] = [
        ValueType::U8,
        ValueType::U16,
        ValueType::U32,
        ValueType::U64,
        ValueType::I8,
        ValueType::I16,
        ValueType::I32,
        ValueType::I64,
        ValueType::F32,
        ValueType::F64,
    ];

    /// The format's code (1..10).
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The value type of a format code; `None` for 0 ("no value type") and codes past 10.
    pub fn from_code(code: u32) -> Option<ValueType> {
        ValueType::ALL.iter().copied().find(|value_type| value_type.code() == code)
    }

    /// The library's name: "u8", "u16", ..., "f64".
    pub fn name(self) -> &'static str {
        // SAFETY: the name helpers accept any value and return static strings.
        static_str(unsafe { sys::dbdf_value_type_name(self.to_raw()) })
    }

    /// Size in bytes of one value.
    pub fn size(self) -> usize {
        // SAFETY: takes a plain value, no pointers.
        unsafe { sys::dbdf_value_type_size(self.to_raw()) }
    }

    /// Parse a name as the library does ("f64", "double", "int32", ...).
    pub fn from_name(name: &str) -> Result<ValueType> {
        let name_text = CString::new(name)
            .map_err(|_| Error::new(Status::InvalidArgument, "a value type name cannot contain a NUL byte"))?;
        let mut raw = sys::dbdf_value_type_t::DBDF_VALUE_NONE;
        // SAFETY: name_text is NUL-terminated and raw is a valid out-parameter; both outlive the call.
        check(unsafe { sys::dbdf_value_type_from_name(name_text.as_ptr(), &mut raw) })?;
        ValueType::from_raw(raw)?.ok_or_else(|| unknown_code("value type", raw.0))
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_value_type_t {
        sys::dbdf_value_type_t(self.code())
    }

    /// `None` for DBDF_VALUE_NONE; an error for a code this binding does not know.
    pub(crate) fn from_raw(raw: sys::dbdf_value_type_t) -> Result<Option<ValueType>> {
        if raw == sys::dbdf_value_type_t::DBDF_VALUE_NONE {
            return Ok(None);
        }
        ValueType::from_code(raw.0).map(Some).ok_or_else(|| unknown_code("value type", raw.0))
    }
}

/// `Display` as the library's name and `FromStr` as the library parses it, for an enum with `name` and
/// `from_name`.
macro_rules! named_by_the_library {
    ($enum:ident) => {
        impl std::fmt::Display for $enum {
            fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str(self.name())
            }
        }

        impl std::str::FromStr for $enum {
            type Err = crate::error::Error;
            fn from_str(name: &str) -> crate::error::Result<$enum> {
                $enum::from_name(name)
            }
        }
    };
}
pub(crate) use named_by_the_library;

named_by_the_library!(ValueType);

/// What an object is: a dense matrix, a CSR matrix, a frame or, in the daphne dialect only, a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// A dense matrix (DenseMatrix).
    Dense = 1,
    /// A sparse matrix (CSRMatrix).
    Csr = 2,
    /// A frame: one value type and one label per column.
    Frame = 3,
    /// A single value as DAPHNE's runtime serializes it, read as a 1 x 1 object with one dense block. Only read,
    /// and only in the [daphne dialect](crate::Dialect::Daphne).
    Scalar = 4,
}

impl DataType {
    /// The library's name: "dense", "csr", "frame", "scalar".
    pub fn name(self) -> &'static str {
        // SAFETY: the name helpers accept any value and return static strings.
        static_str(unsafe { sys::dbdf_data_type_name(self.to_raw()) })
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_data_type_t {
        sys::dbdf_data_type_t(self as u32)
    }

    pub(crate) fn from_raw(raw: sys::dbdf_data_type_t) -> Result<DataType> {
        match raw {
            sys::dbdf_data_type_t::DBDF_DATA_DENSE => Ok(DataType::Dense),
            sys::dbdf_data_type_t::DBDF_DATA_CSR => Ok(DataType::Csr),
            sys::dbdf_data_type_t::DBDF_DATA_FRAME => Ok(DataType::Frame),
            sys::dbdf_data_type_t::DBDF_DATA_SCALAR => Ok(DataType::Scalar),
            _ => Err(unknown_code("data type", raw.0)),
        }
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

/// How a block is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockType {
    /// All zeros, no payload.
    Empty = 0,
    /// Row-major values.
    Dense = 1,
    /// Per-row counts and (column, value) pairs.
    Csr = 2,
    /// (row, column, value) triplets.
    Coo = 3,
}

impl BlockType {
    /// The library's name: "empty", "dense", "csr", "coo".
    pub fn name(self) -> &'static str {
        // SAFETY: the name helpers accept any value and return static strings.
        static_str(unsafe { sys::dbdf_block_type_name(sys::dbdf_block_type_t(self as u32)) })
    }

    pub(crate) fn from_raw(raw: sys::dbdf_block_type_t) -> Result<BlockType> {
        match raw {
            sys::dbdf_block_type_t::DBDF_BLOCK_EMPTY => Ok(BlockType::Empty),
            sys::dbdf_block_type_t::DBDF_BLOCK_DENSE => Ok(BlockType::Dense),
            sys::dbdf_block_type_t::DBDF_BLOCK_CSR => Ok(BlockType::Csr),
            sys::dbdf_block_type_t::DBDF_BLOCK_COO => Ok(BlockType::Coo),
            _ => Err(unknown_code("block type", raw.0)),
        }
    }
}

impl fmt::Display for BlockType {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

/// How the writer encodes the blocks it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// The smallest exact encoding, with the narrowest value type into which every value round-trips bit for bit.
    #[default]
    Auto = 0,
    /// The block type of the call (dense for `add_dense`, ...) and the value type given.
    AsGiven = 1,
    /// A dense block of the value type given.
    Dense = 2,
    /// A CSR block of the value type given.
    Csr = 3,
    /// A COO block of the value type given.
    Coo = 4,
}

impl Encoding {
    /// The library's name: "auto", "as-given", "dense", "csr", "coo".
    pub fn name(self) -> &'static str {
        // SAFETY: the name helpers accept any value and return static strings.
        static_str(unsafe { sys::dbdf_encoding_name(self.to_raw()) })
    }

    pub(crate) fn to_raw(self) -> sys::dbdf_encoding_t {
        sys::dbdf_encoding_t(self as u32)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_the_binding_does_not_know_are_errors_not_invalid_enums() {
        let error = ValueType::from_raw(sys::dbdf_value_type_t(11)).unwrap_err();
        assert_eq!(error.status(), Status::Unsupported);
        assert!(error.message().contains("value type code 11"), "{error}");
        assert_eq!(ValueType::from_raw(sys::dbdf_value_type_t::DBDF_VALUE_NONE).unwrap(), None);
        assert_eq!(BlockType::from_raw(sys::dbdf_block_type_t(4)).unwrap_err().status(), Status::Unsupported);
        assert_eq!(DataType::from_raw(sys::dbdf_data_type_t(0)).unwrap_err().status(), Status::Unsupported);
        assert_eq!(DataType::from_raw(sys::dbdf_data_type_t(5)).unwrap_err().status(), Status::Unsupported);
        assert_eq!(DataType::from_raw(sys::dbdf_data_type_t::DBDF_DATA_SCALAR).unwrap(), DataType::Scalar);
        for value_type in ValueType::ALL {
            assert_eq!(ValueType::from_raw(value_type.to_raw()).unwrap(), Some(value_type));
        }
    }

    #[test]
    fn write_options_reach_the_c_struct() {
        let raw = crate::WriteOptions::new().encoding(Encoding::Coo).block_shape(7, 9).to_raw();
        assert_eq!(raw.struct_size, std::mem::size_of::<sys::dbdf_write_options_t>());
        assert_eq!((raw.encoding, raw.block_rows, raw.block_cols), (sys::dbdf_encoding_t::DBDF_ENCODING_COO, 7, 9));
    }
}
