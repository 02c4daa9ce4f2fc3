// The C++ type of each of dbdf.h's value types, for the tool's typed code.
//
// The tool is a client of dbdf.h like any user program, so it dispatches over dbdf_value_type_t, and this is the one
// switch that does. It names every enumerator and has no default: -Wswitch-enum (an error in the checked builds)
// stops the build when dbdf.h gains a value type that the switch does not name, and a value outside the enum throws
// rather than being read as some other type. The library itself checks dbdf.h against the core's list of value
// types (docs/value-types.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dbdf.h"

namespace dbdf_cli {

template <class T>
struct type_tag {
    using type = T;
};

// Thrown when a value type code reaches typed code unchecked: a bug of the tool, not of its input.
[[noreturn]] inline void throw_not_a_value_type(dbdf_value_type_t type) {
    throw std::logic_error("value type code " + std::to_string(static_cast<int>(type)) +
                           " reached the tool's typed code unchecked");
}

// Calls visitor(type_tag<T>{}) with the C++ type of `type`; throws std::logic_error for DBDF_VALUE_NONE and values
// outside the enum.
template <class Visitor>
decltype(auto) visit_value_type(dbdf_value_type_t type, Visitor&& visitor) {
    switch (type) {
        case DBDF_VALUE_U8: return std::forward<Visitor>(visitor)(type_tag<std::uint8_t>{});
        case DBDF_VALUE_U16: return std::forward<Visitor>(visitor)(type_tag<std::uint16_t>{});
        case DBDF_VALUE_U32: return std::forward<Visitor>(visitor)(type_tag<std::uint32_t>{});
        case DBDF_VALUE_U64: return std::forward<Visitor>(visitor)(type_tag<std::uint64_t>{});
        case DBDF_VALUE_I8: return std::forward<Visitor>(visitor)(type_tag<std::int8_t>{});
        case DBDF_VALUE_I16: return std::forward<Visitor>(visitor)(type_tag<std::int16_t>{});
        case DBDF_VALUE_I32: return std::forward<Visitor>(visitor)(type_tag<std::int32_t>{});
        case DBDF_VALUE_I64: return std::forward<Visitor>(visitor)(type_tag<std::int64_t>{});
        case DBDF_VALUE_F32: return std::forward<Visitor>(visitor)(type_tag<float>{});
        case DBDF_VALUE_F64: return std::forward<Visitor>(visitor)(type_tag<double>{});
        case DBDF_VALUE_NONE: break;
    }
    throw_not_a_value_type(type);
}

// Every value type the library knows, in code order. The library is asked rather than the enum listed again: the
// codes are 1, 2, ... N without gaps (the format's rule, checked by the core's tests), and a size of 0 ends them.
inline const std::vector<dbdf_value_type_t>& all_value_types() {
    static const std::vector<dbdf_value_type_t> types = [] {
        std::vector<dbdf_value_type_t> listed;
        for (int code = 1; dbdf_value_type_size(static_cast<dbdf_value_type_t>(code)) != 0; ++code) {
            listed.push_back(static_cast<dbdf_value_type_t>(code));
        }
        return listed;
    }();
    return types;
}

// Whether `type` is a floating-point type; false for DBDF_VALUE_NONE.
inline bool is_float_type(dbdf_value_type_t type) {
    if (type == DBDF_VALUE_NONE) return false;
    return visit_value_type(type, [](auto tag) { return std::is_floating_point_v<typename decltype(tag)::type>; });
}

}  // namespace dbdf_cli
