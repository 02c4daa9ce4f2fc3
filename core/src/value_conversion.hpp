// Exact conversion between the ten value types (rule 8): a value converts when the target type holds the same
// value; nothing is ever rounded, wrapped or truncated. NaN converts between the float types (it is a NaN in
// both); -0.0 converts to an integer 0 (the same value). The bitwise round trip used for narrowing on write
// (rule 9) is stricter: see roundtrips_bitwise.
#pragma once

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "dbdf/types.hpp"

namespace dbdf::detail {

// 2^digits as a floating value: the exclusive upper bound of an integer type, exactly representable.
template <class Integer, class Float>
constexpr Float integer_upper_bound() {
    Float bound = 1;
    for (int bit = 0; bit < std::numeric_limits<Integer>::digits; ++bit) bound *= 2;
    return bound;
}

// True when every value of From is exactly a value of To, so no per-value check is needed.
template <class From, class To>
constexpr bool always_fits() {
    if constexpr (std::is_same_v<From, To>) {
        return true;
    } else if constexpr (std::is_floating_point_v<From>) {
        return std::is_floating_point_v<To> && sizeof(To) >= sizeof(From);
    } else if constexpr (std::is_floating_point_v<To>) {
        return std::numeric_limits<From>::digits <= std::numeric_limits<To>::digits;
    } else {
        return std::cmp_greater_equal(std::numeric_limits<From>::min(), std::numeric_limits<To>::min()) &&
               std::cmp_less_equal(std::numeric_limits<From>::max(), std::numeric_limits<To>::max());
    }
}

// Converts `value` to To when it is exactly representable; returns false (and leaves `out`) otherwise.
template <class To, class From>
inline bool convert_exact(From value, To& out) {
    if constexpr (always_fits<From, To>()) {
        out = static_cast<To>(value);
        return true;
    } else if constexpr (std::is_floating_point_v<From> && std::is_floating_point_v<To>) {
        // double -> float: NaN stays NaN; infinities stay; finite values must survive the round trip.
        if (std::isnan(value) || std::isinf(value)) {
            out = static_cast<To>(value);
            return true;
        }
        if (std::fabs(value) > static_cast<From>(std::numeric_limits<To>::max())) return false;
        const To narrowed = static_cast<To>(value);
        if (static_cast<From>(narrowed) != value) return false;
        out = narrowed;
        return true;
    } else if constexpr (std::is_floating_point_v<From>) {
        // float -> integer: finite, integral and within [min, 2^digits).
        if (!std::isfinite(value) || std::trunc(value) != value) return false;
        constexpr From lower = static_cast<From>(std::numeric_limits<To>::min());  // 0 or -2^k: exact
        constexpr From upper = integer_upper_bound<To, From>();
        if (value < lower || value >= upper) return false;
        out = static_cast<To>(value);
        return true;
    } else if constexpr (std::is_floating_point_v<To>) {
        // integer -> float: the rounded value must convert back to the same integer.
        const To converted = static_cast<To>(value);
        if (converted >= integer_upper_bound<From, To>()) return false;  // rounded up past From's range
        if (static_cast<From>(converted) != value) return false;
        out = converted;
        return true;
    } else {
        if (!std::in_range<To>(value)) return false;
        out = static_cast<To>(value);
        return true;
    }
}

template <class To, class From>
inline bool fits(From value) {
    To ignored{};
    return convert_exact<To>(value, ignored);
}

// True when `value` survives From -> To -> From with identical bits (rule 9: -0.0 and NaN payloads count).
template <class To, class From>
inline bool roundtrips_bitwise(From value) {
    To narrowed{};
    if (!convert_exact<To>(value, narrowed)) return false;
    From back{};
    if (!convert_exact<From>(narrowed, back)) return false;
    using Bits = std::conditional_t<sizeof(From) == 1, std::uint8_t,
                 std::conditional_t<sizeof(From) == 2, std::uint16_t,
                 std::conditional_t<sizeof(From) == 4, std::uint32_t, std::uint64_t>>>;
    return std::bit_cast<Bits>(back) == std::bit_cast<Bits>(value);
}

// Runtime target: does `value` fit the type `target`?
template <class From>
inline bool fits_type(ValueType target, From value) {
    return visit_value_type(target, [&](auto tag) { return fits<typename decltype(tag)::type>(value); });
}

template <class From>
inline bool always_fits_type(ValueType target) {
    return visit_value_type(target, [](auto tag) { return always_fits<From, typename decltype(tag)::type>(); });
}

// Text of a value for error messages.
template <class T>
std::string value_text(T value) {
    if constexpr (std::is_floating_point_v<T>) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", static_cast<double>(value));
        return buffer;
    } else {
        return std::to_string(value);
    }
}

}  // namespace dbdf::detail
