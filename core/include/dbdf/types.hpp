// Codes and sizes of the format: value types, data types, block types, and a compile-time map from C++
// types to value type codes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dbdf {

// The spec's value type codes. 0 is reserved ("none"; used for frames, which have a type per column).
enum class ValueType : std::uint8_t {
    None = 0,
    U8 = 1,
    U16 = 2,
    U32 = 3,
    U64 = 4,
    I8 = 5,
    I16 = 6,
    I32 = 7,
    I64 = 8,
    F32 = 9,
    F64 = 10,
};

// Scalar (4) exists only in the daphne dialect (a single value serialized by DAPHNE's runtime); the spec
// defines 1..3, and is_valid() accepts only those.
enum class DataType : std::uint8_t { DenseMatrix = 1, CsrMatrix = 2, Frame = 3, Scalar = 4 };

enum class BlockType : std::uint8_t { Empty = 0, Dense = 1, Csr = 2, Coo = 3 };

inline constexpr std::uint8_t kFormatVersion = 1;

// Byte sizes of the fixed parts of the layout (spec tables).
inline constexpr std::size_t kMatrixHeaderBytes = 19;  // version, dt, #r, #c, vt
inline constexpr std::size_t kFrameFixedHeaderBytes = 18;  // version, dt, #r, #c; then per-column parts
inline constexpr std::size_t kBlockPositionBytes = 16;  // rx, cx
inline constexpr std::size_t kBlockHeaderBytes = 9;  // #r, #c, bt
inline constexpr std::size_t kDenseFixedBytes = 10;  // block header + vt
inline constexpr std::size_t kCsrFixedBytes = 18;  // block header + vt + #nzb (uint64)
inline constexpr std::size_t kCooFixedBytes = 14;  // block header + vt + #nzb (uint32)
inline constexpr std::uint64_t kMaxBlockExtent = 0xFFFF'FFFFull;  // rule 7: uint32 fields

constexpr bool is_valid(ValueType type) {
    return static_cast<std::uint8_t>(type) >= 1 && static_cast<std::uint8_t>(type) <= 10;
}
constexpr bool is_valid(DataType type) {
    return static_cast<std::uint8_t>(type) >= 1 && static_cast<std::uint8_t>(type) <= 3;
}
constexpr bool is_valid(BlockType type) { return static_cast<std::uint8_t>(type) <= 3; }

constexpr bool is_matrix(DataType type) { return type == DataType::DenseMatrix || type == DataType::CsrMatrix; }

// Size in bytes of one value; 0 for None and invalid codes.
constexpr std::size_t value_size(ValueType type) {
    switch (type) {
        case ValueType::U8:
        case ValueType::I8: return 1;
        case ValueType::U16:
        case ValueType::I16: return 2;
        case ValueType::U32:
        case ValueType::I32:
        case ValueType::F32: return 4;
        case ValueType::U64:
        case ValueType::I64:
        case ValueType::F64: return 8;
        default: return 0;
    }
}

constexpr bool is_float(ValueType type) { return type == ValueType::F32 || type == ValueType::F64; }
constexpr bool is_signed_integer(ValueType type) {
    return type == ValueType::I8 || type == ValueType::I16 || type == ValueType::I32 || type == ValueType::I64;
}
constexpr bool is_unsigned_integer(ValueType type) {
    return type == ValueType::U8 || type == ValueType::U16 || type == ValueType::U32 || type == ValueType::U64;
}

std::string_view name(ValueType type);  // "u8" ... "f64", "none"; "unknown"
std::string_view name(DataType type);   // "dense", "csr", "frame", "scalar"; "unknown"
std::string_view name(BlockType type);  // "empty", "dense", "csr", "coo"; "unknown"
std::optional<ValueType> parse_value_type(std::string_view text);  // also "uint8", "float64", "double", ...

// Compile-time map from C++ arithmetic types to value type codes.
template <class T>
struct value_type_of;
template <> struct value_type_of<std::uint8_t> { static constexpr ValueType value = ValueType::U8; };
template <> struct value_type_of<std::uint16_t> { static constexpr ValueType value = ValueType::U16; };
template <> struct value_type_of<std::uint32_t> { static constexpr ValueType value = ValueType::U32; };
template <> struct value_type_of<std::uint64_t> { static constexpr ValueType value = ValueType::U64; };
template <> struct value_type_of<std::int8_t> { static constexpr ValueType value = ValueType::I8; };
template <> struct value_type_of<std::int16_t> { static constexpr ValueType value = ValueType::I16; };
template <> struct value_type_of<std::int32_t> { static constexpr ValueType value = ValueType::I32; };
template <> struct value_type_of<std::int64_t> { static constexpr ValueType value = ValueType::I64; };
template <> struct value_type_of<float> { static constexpr ValueType value = ValueType::F32; };
template <> struct value_type_of<double> { static constexpr ValueType value = ValueType::F64; };
template <class T>
inline constexpr ValueType value_type_v = value_type_of<T>::value;

template <class T>
struct type_tag {
    using type = T;
};

// Calls visitor(type_tag<T>{}) with the C++ type of `type`. `type` must be valid (checked by callers).
template <class Visitor>
decltype(auto) visit_value_type(ValueType type, Visitor&& visitor) {
    switch (type) {
        case ValueType::U8: return std::forward<Visitor>(visitor)(type_tag<std::uint8_t>{});
        case ValueType::U16: return std::forward<Visitor>(visitor)(type_tag<std::uint16_t>{});
        case ValueType::U32: return std::forward<Visitor>(visitor)(type_tag<std::uint32_t>{});
        case ValueType::U64: return std::forward<Visitor>(visitor)(type_tag<std::uint64_t>{});
        case ValueType::I8: return std::forward<Visitor>(visitor)(type_tag<std::int8_t>{});
        case ValueType::I16: return std::forward<Visitor>(visitor)(type_tag<std::int16_t>{});
        case ValueType::I32: return std::forward<Visitor>(visitor)(type_tag<std::int32_t>{});
        case ValueType::I64: return std::forward<Visitor>(visitor)(type_tag<std::int64_t>{});
        case ValueType::F32: return std::forward<Visitor>(visitor)(type_tag<float>{});
        default: return std::forward<Visitor>(visitor)(type_tag<double>{});
    }
}

}  // namespace dbdf
