#include "dbdf/types.hpp"

#include <array>
#include <string>
#include <utility>

#include "dbdf/error.hpp"

namespace dbdf {

std::string_view name(ValueType type) {
    if (type == ValueType::None) return "none";
    const ValueTypeInfo* info = find_value_type_info(type);
    return info != nullptr ? info->name : "unknown";
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
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        if (text == info.name || text == info.long_name) return info.type;
    }
    // Names outside the list's columns that parsing has always accepted: C's names of the float types, and two of
    // DAPHNE's names.
    static constexpr std::array<std::pair<std::string_view, ValueType>, 4> kAliases{{
        {"float", ValueType::F32},
        {"double", ValueType::F64},
        {"si32", ValueType::I32},
        {"si64", ValueType::I64},
    }};
    for (const auto& [alias, type] : kAliases) {
        if (alias == text) return type;
    }
    return std::nullopt;
}

std::string invalid_value_type_reason(unsigned code) {
    if (code == 0) return " is reserved";
    return " is unknown (valid: 1.." + std::to_string(kValueTypeCount) + ")";
}

std::string value_type_name_range() {
    return std::string(kValueTypeInfos.front().name) + ".." + std::string(kValueTypeInfos.back().name);
}

std::optional<ValueType> value_type_of_npy_code(std::string_view code) {
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        if (code == info.npy_code) return info.type;
    }
    return std::nullopt;
}

namespace detail {

void throw_not_a_value_type(ValueType type) {
    throw Error(ErrorCode::Internal, "value type code " + std::to_string(static_cast<unsigned>(type)) +
                                         " is not one of the " + std::to_string(kValueTypeCount) +
                                         " value types; it reached a dispatch unchecked");
}

}  // namespace detail

}  // namespace dbdf
