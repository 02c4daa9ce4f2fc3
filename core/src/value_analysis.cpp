#include "value_analysis.hpp"

#include <array>

namespace dbdf::detail {
namespace {

enum class Family { Unsigned, Signed, Float };

Family family_of(ValueType type) {
    if (is_float(type)) return Family::Float;
    return is_signed_integer(type) ? Family::Signed : Family::Unsigned;
}

// Types of each size, listed unsigned, signed, float.
constexpr std::array<std::array<ValueType, 3>, 4> kBySize{{
    {ValueType::U8, ValueType::I8, ValueType::None},
    {ValueType::U16, ValueType::I16, ValueType::None},
    {ValueType::U32, ValueType::I32, ValueType::F32},
    {ValueType::U64, ValueType::I64, ValueType::F64},
}};

}  // namespace

ValueType narrowest_type(TypeMask feasible, ValueType source) {
    const Family preferred = family_of(source);
    for (const auto& same_size : kBySize) {
        for (ValueType candidate : same_size) {
            if (candidate != ValueType::None && family_of(candidate) == preferred && (feasible & mask_of(candidate))) {
                return candidate;
            }
        }
        for (ValueType candidate : same_size) {
            if (candidate != ValueType::None && (feasible & mask_of(candidate))) return candidate;
        }
    }
    return source;
}

}  // namespace dbdf::detail
