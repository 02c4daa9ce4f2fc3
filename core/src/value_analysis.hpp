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
#include "narrowed_values.hpp"
#include "value_conversion.hpp"
#include "value_scan.hpp"

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

    // observe() for every bit-non-zero value of values[0..count), chunk by chunk with the whole-chunk passes of
    // value_scan.hpp, and the number of those values. The result is the one observe() gives, with one freedom:
    // once no type narrower than T can hold every value seen (narrower_possible), the values left are only
    // counted, as the writer does, since nothing after can change the type chosen.
    // For doubles, `narrowed` (when given) receives the values at cells first_cell.. in the narrowest type that
    // holds every value seen so far (keep_narrowed), mostly stored by the scan on the way; when every value of its
    // block was observed here, it holds the block's payload in narrowest_type(feasible()), or stores nothing when
    // that type is wider than four bytes, or wider than one byte with a payload over
    // NarrowedValues::kMostWiderBytes (the writer's narrowing copy makes those).
    std::uint64_t observe_values(const T* values, std::size_t count, NarrowedValues* narrowed = nullptr,
                                 std::size_t first_cell = 0) {
        std::uint64_t nonzero = 0;
        for (std::size_t start = 0; start < count; start += kScanChunk) {
            if (!narrower_possible()) {
                if (narrowed != nullptr) narrowed->change_type(ValueType::None, 0);
                return nonzero + count_nonzero_bits(values + start, count - start);
            }
            nonzero += observe_chunk(values + start, std::min(kScanChunk, count - start), narrowed, first_cell + start);
        }
        return nonzero;
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

    std::uint64_t observe_chunk(const T* values, std::size_t count, NarrowedValues* narrowed, std::size_t cell) {
        if constexpr (std::is_same_v<T, double>) {
            const ScanStore store = narrowed == nullptr ? ScanStore::None : narrowed->scan_store();
            std::byte* out = store == ScanStore::None ? nullptr : narrowed->at(cell);
            bool stored = false;  // the chunk is stored in the narrowed type by the pass that settled it
            std::uint64_t nonzero = 0;
            if (integral_) {
                const IntegralChunkFacts facts = scan_integral_storing(values, count, store, out);
                // Beyond these bounds no integer type can hold the chunk (infinities land here too): the
                // reference decides what that means for the float types.
                constexpr double kLowest = -9223372036854775808.0;  // -2^63
                constexpr double kBeyond = 18446744073709551616.0;  // 2^64
                if (!facts.integral || facts.min < kLowest || facts.max >= kBeyond) {
                    nonzero = observe_each(values, count);
                } else {
                    include_range(facts.min, facts.max);
                    // Integers of magnitude 2^24 or less are floats exactly; larger ones need the test.
                    constexpr double kFloatExact = 16777216.0;
                    if (keeps_float(ValueType::F32) && (facts.min < -kFloatExact || facts.max > kFloatExact) &&
                        !all_roundtrip_f32(values, count)) {
                        rule_out_float(ValueType::F32);
                    }
                    stored = store != ScanStore::None;
                    nonzero = count - facts.zeros;  // `integral` rules out -0.0, so the zeros are the bit-zero values
                }
            } else {
                // Only f32 is left to decide (narrower_possible holds): its test is exact for the whole chunk.
                if (keeps_float(ValueType::F32)) {
                    const bool roundtrip = store == ScanStore::Floats ? all_roundtrip_f32_storing(values, count, out)
                                                                      : all_roundtrip_f32(values, count);
                    if (!roundtrip) rule_out_float(ValueType::F32);
                    stored = store == ScanStore::Floats;
                }
                nonzero = count_nonzero_bits(values, count);
            }
            if (narrowed != nullptr && narrowed->storing()) keep_narrowed(*narrowed, values, count, cell, stored);
            return nonzero;
        } else if constexpr (std::is_integral_v<T>) {
            const IntegerRange<T> range = integer_range(values, count);
            include_range(range.min, range.max);
            // Integers of magnitude 2^24 (2^53) or less are floats (doubles) exactly; outside, value by value.
            if (keeps_float(ValueType::F32) && !always_fits<T, float>() && !within_magnitude(range, 24)) {
                rule_out_float_unless_each_roundtrips<float>(values, count);
            }
            if (keeps_float(ValueType::F64) && !always_fits<T, double>() && !within_magnitude(range, 53)) {
                rule_out_float_unless_each_roundtrips<double>(values, count);
            }
            return count_nonzero_bits(values, count);
        } else {
            return observe_each(values, count);
        }
    }

    // After a chunk: `narrowed` holds the values so far in the narrowest type that holds them all. That type only
    // changes when the stored one stops holding the values (a type still feasible stays the narrowest, since the
    // feasible types only shrink); the values stored before the chunk are then converted, and the chunk is stored
    // again from its values when the pass that settled it did not store it in that type.
    void keep_narrowed(NarrowedValues& narrowed, const double* values, std::size_t count, std::size_t cell,
                       bool stored) {
        const bool still_holds = narrowed.type() == ValueType::F32
                                     ? keeps_float(ValueType::F32)
                                     : integral_ && (!seen_ || narrowed.holds_range(min_, max_));
        if (still_holds && stored) return;
        if (!still_holds) narrowed.change_type(narrowest_type(feasible(), ValueType::F64), cell);
        if (narrowed.storing()) narrowed.store(values, count, cell);
    }

    // Whether every integer of the range lies in [-2^bits, 2^bits].
    static bool within_magnitude(const IntegerRange<T>& range, int bits) {
        if constexpr (std::numeric_limits<T>::digits <= 24) {
            return true;
        } else {
            constexpr auto limit = [](int shift) { return std::uint64_t{1} << shift; };
            const bool low_ok =
                !std::is_signed_v<T> || std::cmp_greater_equal(range.min, -static_cast<std::int64_t>(limit(bits)));
            return low_ok && std::cmp_less_equal(range.max, limit(bits));
        }
    }

    bool keeps_float(ValueType type) const { return (float_roundtrips_ & mask_of(type)) != 0; }
    void rule_out_float(ValueType type) { float_roundtrips_ &= static_cast<TypeMask>(~mask_of(type)); }

    template <class Float>
    void rule_out_float_unless_each_roundtrips(const T* values, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            if (!roundtrips_bitwise<Float>(values[i])) {
                rule_out_float(value_type_v<Float>);
                return;
            }
        }
    }

    T min_{};
    T max_{};
    bool seen_ = false;
    bool integral_ = true;  // float sources: every value finite, integral and not -0.0
    TypeMask float_roundtrips_ = mask_of_kind(ValueKind::Float);  // float types every value round-trips through
};

}  // namespace dbdf::detail
