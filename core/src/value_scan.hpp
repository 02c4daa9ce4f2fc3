// Whole-chunk passes over a block's values for the narrowing analysis (value_analysis.hpp): each reads a run of
// values once, with no branch per value, so that the compiler (or, for doubles on x86-64, SSE2 code) handles whole
// vectors. They establish facts about a chunk as a whole; NarrowingAnalysis::observe_values combines them and falls
// back to its per-value reference for a chunk that a fast pass cannot settle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace dbdf::detail {

// Values per chunk: small enough that a chunk a fast pass cannot settle is cheap to go over again value by value
// (it is in the L1 cache then), large enough that the per-chunk bookkeeping costs nothing.
inline constexpr std::size_t kScanChunk = 1024;

template <class T>
using SameSizeBits =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// How many values are not bit-zero (rule 10: -0.0 counts, +0.0 does not).
template <class T>
std::uint64_t count_nonzero_bits(const T* values, std::size_t count);

// What one pass tells about a chunk of doubles as candidates for an integer type.
struct IntegralChunkFacts {
    std::uint64_t zeros = 0;  // values equal to +0.0 or -0.0
    // True proves that no value is -0.0 and every other one is finite and integral, or infinite (min and max
    // show those). False proves nothing: the chunk has a non-integral value, a NaN, a -0.0, or an integral value
    // of 2^52 or more that the test below does not recognize.
    bool integral = false;
    double min = 0;  // of every value, zeros included; meaningful only when `integral`
    double max = 0;
};

IntegralChunkFacts scan_integral(const double* values, std::size_t count);

// How a scan stores each value on the way, in the layout of a dense payload of that width (little-endian):
//   Bytes   the low byte of the value converted to int32 (the value as u8 or i8, two's complement);
//   Halves  the low 16 bits of the value converted to int32 (as u16 or i16);
//   Words   the low 32 bits of the value as an integer (as u32 or i32: values of 2^31 up to 2^32 have 2^32
//           subtracted before cvttpd2dq, which is exact for integers);
//   Floats  the value converted to float (cvtpd2ps, as static_cast<float>).
// What is stored for a value that the type does not hold exactly is meaningless; the analysis stores again what
// it cannot use (NarrowedValues).
enum class ScanStore : std::uint8_t { None, Bytes, Halves, Words, Floats };

// Bytes a scan stores per value: the one place that says it, so that the scans and the narrowed values' types
// (narrowed_values.cpp checks them against value_size at compile time) cannot disagree.
constexpr std::size_t scan_store_width(ScanStore store) {
    switch (store) {
        case ScanStore::None: return 0;
        case ScanStore::Bytes: return 1;
        case ScanStore::Halves: return 2;
        case ScanStore::Words:
        case ScanStore::Floats: return 4;
    }
    return 0;
}

// scan_integral, storing on the way every value as `store` says at out[i * width] (nothing for ScanStore::None).
// When the chunk proves integral and its range fits the stored type, those are its payload in that type, so a
// block that narrows to it is written without reading its values a second time.
IntegralChunkFacts scan_integral_storing(const double* values, std::size_t count, ScanStore store, std::byte* out);

// True when every value survives double -> float -> double with identical bits (rule 9), NaN payloads and -0.0
// included: the same test as roundtrips_bitwise<float>, for a whole chunk.
bool all_roundtrip_f32(const double* values, std::size_t count);

// all_roundtrip_f32, storing on the way every value converted to float at out[i * 4] (little-endian): the payload
// of the chunk as f32 when the result is true.
bool all_roundtrip_f32_storing(const double* values, std::size_t count, std::byte* out);

// Minimum and maximum of a chunk of integers.
template <class T>
struct IntegerRange {
    T min;
    T max;
};

template <class T>
IntegerRange<T> integer_range(const T* values, std::size_t count);  // count >= 1

// Defined and instantiated for every value type in value_scan.cpp, which is compiled with the loop vectorizer on:
// out of sight here, so that no caller inlines a copy of the loop built without it.
#define DBDF_VALUE_SCAN_EXTERN(T) extern template std::uint64_t count_nonzero_bits<T>(const T*, std::size_t);
DBDF_VALUE_SCAN_EXTERN(std::uint8_t)
DBDF_VALUE_SCAN_EXTERN(std::uint16_t)
DBDF_VALUE_SCAN_EXTERN(std::uint32_t)
DBDF_VALUE_SCAN_EXTERN(std::uint64_t)
DBDF_VALUE_SCAN_EXTERN(std::int8_t)
DBDF_VALUE_SCAN_EXTERN(std::int16_t)
DBDF_VALUE_SCAN_EXTERN(std::int32_t)
DBDF_VALUE_SCAN_EXTERN(std::int64_t)
DBDF_VALUE_SCAN_EXTERN(float)
DBDF_VALUE_SCAN_EXTERN(double)
#undef DBDF_VALUE_SCAN_EXTERN
#define DBDF_INTEGER_RANGE_EXTERN(T) extern template IntegerRange<T> integer_range<T>(const T*, std::size_t);
DBDF_INTEGER_RANGE_EXTERN(std::uint8_t)
DBDF_INTEGER_RANGE_EXTERN(std::uint16_t)
DBDF_INTEGER_RANGE_EXTERN(std::uint32_t)
DBDF_INTEGER_RANGE_EXTERN(std::uint64_t)
DBDF_INTEGER_RANGE_EXTERN(std::int8_t)
DBDF_INTEGER_RANGE_EXTERN(std::int16_t)
DBDF_INTEGER_RANGE_EXTERN(std::int32_t)
DBDF_INTEGER_RANGE_EXTERN(std::int64_t)
#undef DBDF_INTEGER_RANGE_EXTERN

}  // namespace dbdf::detail
