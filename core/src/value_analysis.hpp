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

constexpr TypeMask mask_of(ValueType type) { return static_cast<TypeMask>(1u << static_cast<unsigned>(type)); }

// The narrowest type of `feasible`; among types of equal size, the family of `source` first (unsigned, signed or
// float), then unsigned, signed, float. `source` is always feasible, so a result exists.
ValueType narrowest_type(TypeMask feasible, ValueType source);

template <class T>
bool is_bit_zero_value(T value) {
    using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t,
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
                const bool integral_value = std::isfinite(value) && std::trunc(value) == value &&
                                            !(value == 0 && std::signbit(value));
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
        if (f32_ok_ && !roundtrips_bitwise<float>(value)) f32_ok_ = false;
        if (f64_ok_ && !roundtrips_bitwise<double>(value)) f64_ok_ = false;
    }

    TypeMask feasible() const {
        TypeMask mask = mask_of(value_type_v<T>);
        if (f32_ok_) mask |= mask_of(ValueType::F32);
        if (f64_ok_) mask |= mask_of(ValueType::F64);
        bool integers_possible = true;
        if constexpr (std::is_floating_point_v<T>) integers_possible = integral_;
        if (!integers_possible) return mask;
        if (!seen_) return static_cast<TypeMask>(mask | 0x1FE);  // only zeros (or nothing): all integers fit
        add_if_range_fits<std::uint8_t>(mask);
        add_if_range_fits<std::uint16_t>(mask);
        add_if_range_fits<std::uint32_t>(mask);
        add_if_range_fits<std::uint64_t>(mask);
        add_if_range_fits<std::int8_t>(mask);
        add_if_range_fits<std::int16_t>(mask);
        add_if_range_fits<std::int32_t>(mask);
        add_if_range_fits<std::int64_t>(mask);
        return mask;
    }

    // Whether a type narrower than T can still hold every value observed. Once not, more values cannot change
    // the choice: T is then the narrowest type (equal-sized types of another family never win, see
    // narrowest_type), whatever else comes.
    bool narrower_possible() const {
        const TypeMask mask = feasible();
        for (unsigned code = 1; code <= 10; ++code) {
            const auto type = static_cast<ValueType>(code);
            if ((mask & mask_of(type)) != 0 && value_size(type) < sizeof(T)) return true;
        }
        return false;
    }

private:
    template <class Integer>
    void add_if_range_fits(TypeMask& mask) const {
        if (fits<Integer>(min_) && fits<Integer>(max_)) mask |= mask_of(value_type_v<Integer>);
    }

    T min_{};
    T max_{};
    bool seen_ = false;
    bool integral_ = true;  // float sources: every value finite, integral and not -0.0
    bool f32_ok_ = true;
    bool f64_ok_ = true;
};

}  // namespace dbdf::detail
