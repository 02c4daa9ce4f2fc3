// What the writer learns about a block's values before encoding it: how many are non-zero (rule 10: bit
// pattern), whether each is representable in its declared type (rule 8), and into which value types every value
// round-trips bit for bit (rule 9).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "dbdf/types.hpp"
#include "value_conversion.hpp"
#include "value_scan.hpp"

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

    // observe() for every bit-non-zero value of values[0..count), chunk by chunk with the whole-chunk passes of
    // value_scan.hpp, and the number of those values. The result is the one observe() gives, with one freedom:
    // once no type narrower than T can hold every value seen (narrower_possible), the values left are only
    // counted, as the writer does, since nothing after can change the type chosen.
    // For doubles, `low_bytes` (when given) receives the low byte of each value (scan_integral_storing_bytes);
    // low_bytes_complete() then says whether every value's byte was stored, which it is whenever the values
    // narrow to u8 or i8.
    std::uint64_t observe_values(const T* values, std::size_t count, std::uint8_t* low_bytes = nullptr) {
        std::uint64_t nonzero = 0;
        for (std::size_t start = 0; start < count; start += kScanChunk) {
            if (!narrower_possible()) {
                low_bytes_complete_ = false;
                return nonzero + count_nonzero_bits(values + start, count - start);
            }
            nonzero += observe_chunk(values + start, std::min(kScanChunk, count - start),
                                     low_bytes == nullptr ? nullptr : low_bytes + start);
        }
        return nonzero;
    }

    bool low_bytes_complete() const { return low_bytes_complete_; }

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
    // The reference, value by value: what a chunk that the whole-chunk passes cannot settle goes through.
    std::uint64_t observe_each(const T* values, std::size_t count) {
        std::uint64_t nonzero = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (is_bit_zero_value(values[i])) continue;
            observe(values[i]);
            ++nonzero;
        }
        return nonzero;
    }

    // Zeros may widen the range kept in min_ and max_ to include 0: harmless, since every integer type's range is
    // an interval holding 0, so [min(0, a), max(0, b)] fits one exactly when [a, b] does.
    void include_range(T low, T high) {
        min_ = seen_ ? std::min(min_, low) : low;
        max_ = seen_ ? std::max(max_, high) : high;
        seen_ = true;
    }

    std::uint64_t observe_chunk(const T* values, std::size_t count, std::uint8_t* low_bytes) {
        if (!std::is_same_v<T, double> && low_bytes != nullptr) low_bytes_complete_ = false;  // doubles only
        if constexpr (std::is_same_v<T, double>) {
            if (integral_) {
                const IntegralChunkFacts facts = low_bytes == nullptr
                                                     ? scan_integral(values, count)
                                                     : scan_integral_storing_bytes(values, count, low_bytes);
                // Beyond these bounds no integer type can hold the chunk (infinities land here too): the
                // reference decides what that means for the float types.
                constexpr double kLowest = -9223372036854775808.0;  // -2^63
                constexpr double kBeyond = 18446744073709551616.0;  // 2^64
                if (!facts.integral || facts.min < kLowest || facts.max >= kBeyond) {
                    low_bytes_complete_ = false;  // no integer type, or none of one byte: the bytes are unused
                    return observe_each(values, count);
                }
                include_range(facts.min, facts.max);
                // Integers of magnitude 2^24 or less are floats exactly; larger ones need the test.
                constexpr double kFloatExact = 16777216.0;
                if (f32_ok_ && (facts.min < -kFloatExact || facts.max > kFloatExact)) {
                    f32_ok_ = all_roundtrip_f32(values, count);
                }
                return count - facts.zeros;  // `integral` rules out -0.0, so the zeros are the bit-zero values
            }
            // Only f32 is left to decide (narrower_possible holds): its test is exact for the whole chunk.
            low_bytes_complete_ = false;
            if (f32_ok_) f32_ok_ = all_roundtrip_f32(values, count);
            return count_nonzero_bits(values, count);
        } else if constexpr (std::is_integral_v<T>) {
            const IntegerRange<T> range = integer_range(values, count);
            include_range(range.min, range.max);
            // Integers of magnitude 2^24 (2^53) or less are floats (doubles) exactly; outside, value by value.
            if (f32_ok_ && !always_fits<T, float>() && !within_magnitude(range, 24)) {
                for (std::size_t i = 0; i < count && f32_ok_; ++i) f32_ok_ = roundtrips_bitwise<float>(values[i]);
            }
            if (f64_ok_ && !always_fits<T, double>() && !within_magnitude(range, 53)) {
                for (std::size_t i = 0; i < count && f64_ok_; ++i) f64_ok_ = roundtrips_bitwise<double>(values[i]);
            }
            return count_nonzero_bits(values, count);
        } else {
            return observe_each(values, count);
        }
    }

    // Whether every integer of the range lies in [-2^bits, 2^bits].
    static bool within_magnitude(const IntegerRange<T>& range, int bits) {
        if constexpr (std::numeric_limits<T>::digits <= 24) {
            return true;
        } else {
            constexpr auto limit = [](int shift) { return std::uint64_t{1} << shift; };
            const bool low_ok = !std::is_signed_v<T> || std::cmp_greater_equal(range.min, -static_cast<std::int64_t>(limit(bits)));
            return low_ok && std::cmp_less_equal(range.max, limit(bits));
        }
    }

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
    bool low_bytes_complete_ = true;  // observe_values stored every value's low byte it was given room for
};

}  // namespace dbdf::detail
