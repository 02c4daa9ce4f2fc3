#include "dbdf/types.hpp"

#include <array>
#include <utility>

namespace dbdf {

std::string_view name(ValueType type) {
    switch (type) {
        case ValueType::None: return "none";
        case ValueType::U8: return "u8";
        case ValueType::U16: return "u16";
        case ValueType::U32: return "u32";
        case ValueType::U64: return "u64";
        case ValueType::I8: return "i8";
        case ValueType::I16: return "i16";
        case ValueType::I32: return "i32";
        case ValueType::I64: return "i64";
        case ValueType::F32: return "f32";
        case ValueType::F64: return "f64";
    }
    return "unknown";
}

std::string_view name(DataType type) {
    switch (type) {
        case DataType::DenseMatrix: return "dense";
        case DataType::CsrMatrix: return "csr";
        case DataType::Frame: return "frame";
        case DataType::Scalar: return "scalar";
    }
    return "unknown";
}

std::string_view name(BlockType type) {
    switch (type) {
        case BlockType::Empty: return "empty";
        case BlockType::Dense: return "dense";
        case BlockType::Csr: return "csr";
        case BlockType::Coo: return "coo";
    }
    return "unknown";
}

std::optional<ValueType> parse_value_type(std::string_view text) {
    static constexpr std::array<std::pair<std::string_view, ValueType>, 24> kNames{{
        {"u8", ValueType::U8},       {"u16", ValueType::U16},     {"u32", ValueType::U32},
        {"u64", ValueType::U64},     {"i8", ValueType::I8},       {"i16", ValueType::I16},
        {"i32", ValueType::I32},     {"i64", ValueType::I64},     {"f32", ValueType::F32},
        {"f64", ValueType::F64},     {"uint8", ValueType::U8},    {"uint16", ValueType::U16},
        {"uint32", ValueType::U32},  {"uint64", ValueType::U64},  {"int8", ValueType::I8},
        {"int16", ValueType::I16},   {"int32", ValueType::I32},   {"int64", ValueType::I64},
        {"float32", ValueType::F32}, {"float64", ValueType::F64}, {"float", ValueType::F32},
        {"double", ValueType::F64},  {"si32", ValueType::I32},    {"si64", ValueType::I64},
    }};
    for (const auto& [candidate, type] : kNames) {
        if (candidate == text) return type;
    }
    return std::nullopt;
}

}  // namespace dbdf
