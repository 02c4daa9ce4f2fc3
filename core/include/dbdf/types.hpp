// Codes and sizes of the format: value types, data types, block types.
//
// The value types are one list, DBDF_VALUE_TYPES below. The enum, the names, the sizes, the C++ type of each code,
// the npy and DAPHNE codes and every dispatch over value types derive from it; nothing else in the core counts
// them or lists them again (docs/value-types.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dbdf {

// How the bits of a value are read; also the order in which equal-sized candidates are tried when the writer
// narrows a block (value_analysis.cpp).
enum class ValueKind : std::uint8_t { Unsigned = 0, Signed = 1, Float = 2 };

// A value type that DAPHNE's runtime has no ValueTypeCode for.
inline constexpr int kNoDaphneCode = -1;

// The value types of the format, one row each. A macro because a row pairs a C++ type with values, which no
// constexpr table can hold; DBDF_VALUE_TYPES(X) expands X(...) once per row, in code order. Columns:
//   enumerator  the ValueType enumerator (ValueType::U8)
//   code        the spec's value type code; the rows are 1, 2, ... N without gaps (checked below)
//   name        the short name dbdf prints and parses ("u8"); dbdf_value_type_name() returns it
//   long_name   the long name parse_value_type() also accepts ("uint8", NumPy's dtype name)
//   cpp_type    the C++ type of one value; its size is the value's size in the file
//   kind        unsigned integer, signed integer or floating point (ValueKind)
//   npy_code    NumPy's dtype code without the byte-order character ("u1")
//   daphne_code DAPHNE's ValueTypeCode (runtime/local/datastructures/ValueTypeCode.h), kNoDaphneCode if none
//   daphne_meta the name DAPHNE's .meta files use ("ui8"), empty if none
// (One row per type, kept in columns.)
// clang-format off
#define DBDF_VALUE_TYPES(X)                                                            \
    X(U8,  1,  "u8",  "uint8",   std::uint8_t,  Unsigned, "u1", 3,             "ui8")  \
    X(U16, 2,  "u16", "uint16",  std::uint16_t, Unsigned, "u2", kNoDaphneCode, "")     \
    X(U32, 3,  "u32", "uint32",  std::uint32_t, Unsigned, "u4", 4,             "ui32") \
    X(U64, 4,  "u64", "uint64",  std::uint64_t, Unsigned, "u8", 5,             "ui64") \
    X(I8,  5,  "i8",  "int8",    std::int8_t,   Signed,   "i1", 0,             "si8")  \
    X(I16, 6,  "i16", "int16",   std::int16_t,  Signed,   "i2", kNoDaphneCode, "")     \
    X(I32, 7,  "i32", "int32",   std::int32_t,  Signed,   "i4", 1,             "si32") \
    X(I64, 8,  "i64", "int64",   std::int64_t,  Signed,   "i8", 2,             "si64") \
    X(F32, 9,  "f32", "float32", float,         Float,    "f4", 6,             "f32")  \
    X(F64, 10, "f64", "float64", double,        Float,    "f8", 7,             "f64")
// clang-format on

// The spec's value type codes. 0 is reserved ("none"; used for frames, which have a type per column).
enum class ValueType : std::uint8_t {
    None = 0,
#define DBDF_VALUE_TYPE_ENUMERATOR(enumerator, code, ...) enumerator = code,
    DBDF_VALUE_TYPES(DBDF_VALUE_TYPE_ENUMERATOR)
#undef DBDF_VALUE_TYPE_ENUMERATOR
};

// One row of the list as data, for lookups at run time.
struct ValueTypeInfo {
    ValueType type;
    std::string_view name;
    std::string_view long_name;
    std::size_t size;
    ValueKind kind;
    std::string_view npy_code;
    int daphne_code;
    std::string_view daphne_meta_name;
};

// Every value type, in code order: kValueTypeInfos[i].type has code i + 1.
inline constexpr std::array kValueTypeInfos{
// clang-format off
#define DBDF_VALUE_TYPE_INFO(enumerator, code, name, long_name, cpp_type, kind, npy_code, daphne_code, daphne_meta) \
    ValueTypeInfo{ValueType::enumerator, name, long_name, sizeof(cpp_type), ValueKind::kind, npy_code, daphne_code,  \
                  daphne_meta},
    // clang-format on
    DBDF_VALUE_TYPES(DBDF_VALUE_TYPE_INFO)
#undef DBDF_VALUE_TYPE_INFO
};
inline constexpr std::size_t kValueTypeCount = kValueTypeInfos.size();

// Codes index the table (code i + 1 at i), which is what is_valid() and the lookups below rely on.
static_assert(
    [] {
        for (std::size_t i = 0; i < kValueTypeCount; ++i) {
            if (static_cast<std::size_t>(kValueTypeInfos[i].type) != i + 1) return false;
        }
        return true;
    }(),
    "DBDF_VALUE_TYPES: codes must be 1, 2, ... N in order, without gaps");

// Scalar (4) exists only in the daphne dialect (a single value serialized by DAPHNE's runtime); the spec
// defines 1..3, and is_valid() accepts only those.
enum class DataType : std::uint8_t { DenseMatrix = 1, CsrMatrix = 2, Frame = 3, Scalar = 4 };

enum class BlockType : std::uint8_t { Empty = 0, Dense = 1, Csr = 2, Coo = 3 };

inline constexpr std::uint8_t kFormatVersion = 1;

// Byte sizes of the fixed parts of the layout (spec tables).
inline constexpr std::size_t kMatrixHeaderBytes = 19;             // version, dt, #r, #c, vt
inline constexpr std::size_t kFrameFixedHeaderBytes = 18;         // version, dt, #r, #c; then per-column parts
inline constexpr std::size_t kBlockPositionBytes = 16;            // rx, cx
inline constexpr std::size_t kBlockHeaderBytes = 9;               // #r, #c, bt
inline constexpr std::size_t kDenseFixedBytes = 10;               // block header + vt
inline constexpr std::size_t kCsrFixedBytes = 18;                 // block header + vt + #nzb (uint64)
inline constexpr std::size_t kCooFixedBytes = 14;                 // block header + vt + #nzb (uint32)
inline constexpr std::uint64_t kMaxBlockExtent = 0xFFFF'FFFFull;  // rule 7: uint32 fields

// The row of `type`; nullptr for None and codes outside the list.
constexpr const ValueTypeInfo* find_value_type_info(ValueType type) {
    const auto code = static_cast<std::size_t>(type);
    return code >= 1 && code <= kValueTypeCount ? &kValueTypeInfos[code - 1] : nullptr;
}

// The constexpr predicates below index the list rather than compare find_value_type_info()'s pointer with null:
// GCC does not treat that comparison as a constant expression under -fsanitize=undefined.
constexpr bool is_valid(ValueType type) {
    const auto code = static_cast<std::size_t>(type);
    return code >= 1 && code <= kValueTypeCount;
}
constexpr const ValueTypeInfo& value_type_info(ValueType valid_type) {
    return kValueTypeInfos[static_cast<std::size_t>(valid_type) - 1];
}
constexpr bool is_valid(DataType type) {
    return static_cast<std::uint8_t>(type) >= 1 && static_cast<std::uint8_t>(type) <= 3;
}
constexpr bool is_valid(BlockType type) { return static_cast<std::uint8_t>(type) <= 3; }

constexpr bool is_matrix(DataType type) { return type == DataType::DenseMatrix || type == DataType::CsrMatrix; }

// Size in bytes of one value; 0 for None and invalid codes.
constexpr std::size_t value_size(ValueType type) { return is_valid(type) ? value_type_info(type).size : 0; }

constexpr bool has_kind(ValueType type, ValueKind kind) { return is_valid(type) && value_type_info(type).kind == kind; }
constexpr bool is_float(ValueType type) { return has_kind(type, ValueKind::Float); }
constexpr bool is_signed_integer(ValueType type) { return has_kind(type, ValueKind::Signed); }
constexpr bool is_unsigned_integer(ValueType type) { return has_kind(type, ValueKind::Unsigned); }

std::string_view name(ValueType type);  // "u8" ... "f64", "none"; "unknown"
std::string_view name(DataType type);   // "dense", "csr", "frame", "scalar"; "unknown"
std::string_view name(BlockType type);  // "empty", "dense", "csr", "coo"; "unknown"
// A short or long name of the list ("u8", "uint8"), or one of the aliases "float", "double", "si32", "si64".
std::optional<ValueType> parse_value_type(std::string_view text);

// Why `code` is not a value type, for messages: " is reserved" (0) or " is unknown (valid: 1..N)".
std::string invalid_value_type_reason(unsigned code);
// The names of the first and last value types of the list, for messages: "u8..f64".
std::string value_type_name_range();

// NumPy's dtype code of `type` without the byte-order character ("f8"); empty for None and invalid codes.
constexpr std::string_view npy_code(ValueType type) {
    return is_valid(type) ? value_type_info(type).npy_code : std::string_view{};
}
// The value type of such a dtype code; nullopt for codes dbdf has no value type for ("b1", "c16", "<f8").
std::optional<ValueType> value_type_of_npy_code(std::string_view code);

// Compile-time map from C++ types to value type codes; undefined for a type that is not in the list.
template <class T>
struct value_type_of;
#define DBDF_VALUE_TYPE_OF(enumerator, code, name, long_name, cpp_type, ...) \
    template <>                                                              \
    struct value_type_of<cpp_type> {                                         \
        static constexpr ValueType value = ValueType::enumerator;            \
    };
DBDF_VALUE_TYPES(DBDF_VALUE_TYPE_OF)
#undef DBDF_VALUE_TYPE_OF
template <class T>
inline constexpr ValueType value_type_v = value_type_of<T>::value;

template <class T>
struct type_tag {
    using type = T;
};

namespace detail {
// Throws Error(Internal): a code that no check stopped reached a dispatch over value types.
[[noreturn]] void throw_not_a_value_type(ValueType type);
}  // namespace detail

// Calls visitor(type_tag<T>{}) with the C++ type of `type`. Callers check codes that come from outside first, with
// the error their input deserves; a code outside the list (None included) still never reaches the visitor as some
// other type: it throws Error(Internal).
template <class Visitor>
decltype(auto) visit_value_type(ValueType type, Visitor&& visitor) {
    switch (type) {
#define DBDF_VALUE_TYPE_CASE(enumerator, code, name, long_name, cpp_type, ...) \
    case ValueType::enumerator: return std::forward<Visitor>(visitor)(type_tag<cpp_type>{});
        DBDF_VALUE_TYPES(DBDF_VALUE_TYPE_CASE)
#undef DBDF_VALUE_TYPE_CASE
        case ValueType::None: break;
    }
    detail::throw_not_a_value_type(type);
}

// Calls visitor(type_tag<T>{}) for every value type of the list, in code order.
template <class Visitor>
constexpr void for_each_value_type(Visitor&& visitor) {
#define DBDF_VALUE_TYPE_CALL(enumerator, code, name, long_name, cpp_type, ...) visitor(type_tag<cpp_type>{});
    DBDF_VALUE_TYPES(DBDF_VALUE_TYPE_CALL)
#undef DBDF_VALUE_TYPE_CALL
}

}  // namespace dbdf
