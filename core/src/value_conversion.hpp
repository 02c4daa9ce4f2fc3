// Exact conversion between the ten value types (rule 8): a value converts when the target type holds the same
// value; nothing is ever rounded, wrapped or truncated. NaN converts between the float types (it is a NaN in
// both); -0.0 converts to an integer 0 (the same value). The bitwise round trip used for narrowing on write
// (rule 9) is stricter: see roundtrips_bitwise.
#pragma once

#include <algorithm>
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

// The range test of an integer narrowing S -> D as one addition and one shift, so that a loop over many values
// can OR the biased values together and test once at the end; such a loop vectorizes where a per-value
// comparison pair does not. `value` fits D exactly when ((unsigned(value) + kBias) >> kShift) == 0, with the
// addition wrapping modulo 2^bits(S):
// - S and D signed: the bias 2^(bits(D)-1) moves D's range onto [0, 2^bits(D)); values outside land at or above
//   2^bits(D), negative ones wrap around to the top half.
// - S signed, D unsigned: negative values have the top bit of S set, so the limit is 2^min(bits(D), bits(S)-1).
// - S unsigned, D signed: the limit is D's maximum plus one, 2^(bits(D)-1).
// - both unsigned: the limit is 2^bits(D).
// Defined only for the pairs that need a check (!always_fits), where kShift < bits(S) always holds.
template <class S, class D>
struct IntegerRangeTest {
    static_assert(std::is_integral_v<S> && std::is_integral_v<D> && !always_fits<S, D>());
    using Bits = std::make_unsigned_t<S>;
    static constexpr int kSourceBits = std::numeric_limits<Bits>::digits;
    static constexpr int kTargetBits = std::numeric_limits<std::make_unsigned_t<D>>::digits;
    static constexpr int kShift = std::is_signed_v<D>   ? (std::is_signed_v<S> ? kTargetBits : kTargetBits - 1)
                                  : std::is_signed_v<S> ? std::min(kTargetBits, kSourceBits - 1)
                                                        : kTargetBits;
    static constexpr Bits kBias = std::is_signed_v<S> && std::is_signed_v<D> ? Bits{1} << (kTargetBits - 1) : 0;
    static_assert(kShift < kSourceBits);

    static Bits biased(S value) { return static_cast<Bits>(static_cast<Bits>(value) + kBias); }
    static bool all_fit(Bits or_of_biased) { return (or_of_biased >> kShift) == 0; }
};

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
    using Bits =
        std::conditional_t<sizeof(From) == 1, std::uint8_t,
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
