// What the writer learns about a block's values before encoding it: how many are non-zero (rule 10: bit
// pattern), whether each is representable in its declared type (rule 8), and into which value types every value
// round-trips bit for bit (rule 9).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "dbdf/types.hpp"
#include "value_conversion.hpp"

namespace dbdf::detail {

// Bit i set: value type code i can hold every observed value bit for bit.
using TypeMask = std::uint16_t;

static_assert(kValueTypeCount < sizeof(TypeMask) * 8, "TypeMask needs a bit for every value type code");

constexpr TypeMask mask_of(ValueType type) { return static_cast<TypeMask>(1u << static_cast<unsigned>(type)); }

// The value types of one kind, as a mask.
constexpr TypeMask mask_of_kind(ValueKind kind) {
    TypeMask mask = 0;
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        if (info.kind == kind) mask |= mask_of(info.type);
    }
    return mask;
}

// The narrowest type of `feasible`; among types of equal size, the family of `source` first (unsigned, signed or
// float), then unsigned, signed, float. `source` is always feasible, so a result exists.
ValueType narrowest_type(TypeMask feasible, ValueType source);

template <class T>
bool is_bit_zero_value(T value) {
    using Bits =
        std::conditional_t<sizeof(T) == 1, std::uint8_t,
                           std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    return std::bit_cast<Bits>(value) == 0;
}

// Accumulates the narrowing facts of a sequence of values of type T.
template <class T>
class NarrowingAnalysis {
public:
    void observe(T value) {
        if constexpr (std::is_floating_point_v<T>) {
            if (integral_) {
                const bool integral_value =
                    std::isfinite(value) && std::trunc(value) == value && !(value == 0 && std::signbit(value));
                if (integral_value) {
                    if (!seen_ || value < min_) min_ = value;
                    if (!seen_ || value > max_) max_ = value;
                    seen_ = true;
                } else {
                    integral_ = false;
                }
            }
        } else {
            if (!seen_ || value < min_) min_ = value;
            if (!seen_ || value > max_) max_ = value;
            seen_ = true;
        }
        for_each_value_type([&](auto tag) {
            using Candidate = typename decltype(tag)::type;
            if constexpr (is_float(value_type_v<Candidate>)) {
                constexpr TypeMask bit = mask_of(value_type_v<Candidate>);
                if ((float_roundtrips_ & bit) != 0 && !roundtrips_bitwise<Candidate>(value)) float_roundtrips_ &= ~bit;
            }
        });
    }

    TypeMask feasible() const {
        TypeMask mask = mask_of(value_type_v<T>) | float_roundtrips_;
        bool integers_possible = true;
        if constexpr (std::is_floating_point_v<T>) integers_possible = integral_;
        if (!integers_possible) return mask;
        if (!seen_) {  // only zeros (or nothing): all integers fit
            return static_cast<TypeMask>(mask | mask_of_kind(ValueKind::Unsigned) | mask_of_kind(ValueKind::Signed));
        }
        for_each_value_type([&](auto tag) {
            using Candidate = typename decltype(tag)::type;
            if constexpr (!is_float(value_type_v<Candidate>)) {
                if (fits<Candidate>(min_) && fits<Candidate>(max_)) mask |= mask_of(value_type_v<Candidate>);
            }
        });
        return mask;
    }

    // Whether a type narrower than T can still hold every value observed. Once not, more values cannot change
    // the choice: T is then the narrowest type (equal-sized types of another family never win, see
    // narrowest_type), whatever else comes.
    bool narrower_possible() const {
        const TypeMask mask = feasible();
        for (const ValueTypeInfo& info : kValueTypeInfos) {
            if ((mask & mask_of(info.type)) != 0 && info.size < sizeof(T)) return true;
        }
        return false;
    }

private:
    T min_{};
    T max_{};
    bool seen_ = false;
    bool integral_ = true;  // float sources: every value finite, integral and not -0.0
    TypeMask float_roundtrips_ = mask_of_kind(ValueKind::Float);  // float types every value round-trips through
};

}  // namespace dbdf::detail
