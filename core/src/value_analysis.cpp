#include "value_analysis.hpp"

#include <tuple>

namespace dbdf::detail {

ValueType narrowest_type(TypeMask feasible, ValueType source) {
    const ValueTypeInfo* source_info = find_value_type_info(source);
    const ValueKind preferred = source_info != nullptr ? source_info->kind : ValueKind::Unsigned;
    // Smaller first; among equal sizes the source's kind, then the kinds in ValueKind's order.
    auto rank = [&](const ValueTypeInfo& info) { return std::tuple{info.size, info.kind != preferred, info.kind}; };
    const ValueTypeInfo* best = nullptr;
    for (const ValueTypeInfo& candidate : kValueTypeInfos) {
        if ((feasible & mask_of(candidate.type)) == 0) continue;
        if (best == nullptr || rank(candidate) < rank(*best)) best = &candidate;
    }
    return best != nullptr ? best->type : source;
}

}  // namespace dbdf::detail
