// Arrow's format strings of the value types, derived from each type's kind and size in the list (types.hpp), so
// that no second list of types exists.
#include <string_view>

#include "dbdf/arrow.hpp"

namespace dbdf {

const char* arrow_format(ValueType type) {
    if (!is_valid(type)) return nullptr;
    const ValueTypeInfo& info = value_type_info(type);
    switch (info.kind) {
        case ValueKind::Unsigned: return info.size == 1 ? "C" : info.size == 2 ? "S" : info.size == 4 ? "I" : "L";
        case ValueKind::Signed: return info.size == 1 ? "c" : info.size == 2 ? "s" : info.size == 4 ? "i" : "l";
        case ValueKind::Float: return info.size == 2 ? "e" : info.size == 4 ? "f" : "g";
    }
    return nullptr;
}

std::optional<ValueType> value_type_of_arrow_format(std::string_view format) {
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        if (format == arrow_format(info.type)) return info.type;
    }
    return std::nullopt;
}

}  // namespace dbdf
