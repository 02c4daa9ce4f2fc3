#include "value_scan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "dbdf/endian.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dbdf::detail {
namespace {

// 2^52: adding it to a non-negative double below it and subtracting it again rounds to an integer, so the
// result equals the value exactly when the value is integral. A value of 2^52 or more is integral but may not
// come back equal (the sum rounds to even): a false "not integral" that makes the caller check value by value.
constexpr double kTwoTo52 = 4503599627370496.0;
constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

constexpr double kTwoTo31 = 2147483648.0;
constexpr double kTwoTo32 = 4294967296.0;

// One value stored as `kStore` says (ScanStore), the way the SSE2 code below stores it: conversions only where
// they are defined (inside int32's range, or int64's for Words; NaN never), 0 elsewhere.
template <ScanStore kStore>
void store_scanned(double value, std::byte* out) {
    const bool in_int32 = std::fabs(value) < kTwoTo31;
    if constexpr (kStore == ScanStore::Bytes) {
        store_le<std::uint8_t>(out, static_cast<std::uint8_t>(static_cast<std::int32_t>(in_int32 ? value : 0.0)));
    } else if constexpr (kStore == ScanStore::Halves) {
        store_le<std::uint16_t>(out, static_cast<std::uint16_t>(static_cast<std::int32_t>(in_int32 ? value : 0.0)));
    } else if constexpr (kStore == ScanStore::Words) {
        const bool in_words = value > -kTwoTo31 - 1.0 && value < kTwoTo32;
        store_le<std::uint32_t>(out, static_cast<std::uint32_t>(static_cast<std::int64_t>(in_words ? value : 0.0)));
    } else if constexpr (kStore == ScanStore::Floats) {
        store_le<float>(out, static_cast<float>(value));
    }
}

template <ScanStore kStore>
constexpr std::size_t kStoredWidth = scan_store_width(kStore);

// The same facts for values[begin..count), one value at a time (the tail of a chunk, and hosts without SSE2).
template <ScanStore kStore>
IntegralChunkFacts scan_integral_scalar(const double* values, std::size_t count, IntegralChunkFacts facts,
                                        bool& not_integral, std::uint64_t& negative_zero, std::byte* out) {
    for (std::size_t i = 0; i < count; ++i) {
        const double value = values[i];
        const double magnitude = std::fabs(value);
        if constexpr (kStore != ScanStore::None) store_scanned<kStore>(value, out + i * kStoredWidth<kStore>);
        const double rounded = (magnitude + kTwoTo52) - kTwoTo52;
        not_integral |= !(rounded == magnitude);  // NaN compares unequal
        const bool zero = magnitude == 0.0;
        negative_zero |= zero ? std::bit_cast<std::uint64_t>(value) : 0;
        facts.zeros += zero ? 1 : 0;
        facts.min = std::min(facts.min, value);
        facts.max = std::max(facts.max, value);
    }
    return facts;
}

#if defined(__SSE2__)
// scan_integral's accumulators for two lanes of doubles: the scalar code's facts, lane by lane.
struct IntegralLanes {
    __m128d low;
    __m128d high;
    __m128d inexact = _mm_setzero_pd();    // all ones in a lane once a value there was not integral
    __m128d zero_bits = _mm_setzero_pd();  // the bits of the lane's values equal to zero, ORed
    __m128i zeros = _mm_setzero_si128();

    explicit IntegralLanes(double first) : low(_mm_set1_pd(first)), high(low) {}

    void add(__m128d value) {
        const __m128d sign = _mm_castsi128_pd(_mm_set1_epi64x(static_cast<long long>(kSignBit)));
        const __m128d magic = _mm_set1_pd(kTwoTo52);
        const __m128d magnitude = _mm_andnot_pd(sign, value);
        const __m128d rounded = _mm_sub_pd(_mm_add_pd(magnitude, magic), magic);
        inexact = _mm_or_pd(inexact, _mm_cmpneq_pd(rounded, magnitude));
        const __m128d is_zero = _mm_cmpeq_pd(magnitude, _mm_setzero_pd());
        zero_bits = _mm_or_pd(zero_bits, _mm_and_pd(is_zero, value));
        zeros = _mm_sub_epi64(zeros, _mm_castpd_si128(is_zero));  // a true lane is -1
        low = _mm_min_pd(low, value);
        high = _mm_max_pd(high, value);
    }

    void merge(const IntegralLanes& other) {
        low = _mm_min_pd(low, other.low);
        high = _mm_max_pd(high, other.high);
        inexact = _mm_or_pd(inexact, other.inexact);
        zero_bits = _mm_or_pd(zero_bits, other.zero_bits);
        zeros = _mm_add_epi64(zeros, other.zeros);
    }
};

// Bits in which double -> float -> double changed a value, ORed over the lanes' values.
inline __m128i roundtrip_difference(__m128d value) {
    const __m128d back = _mm_cvtps_pd(_mm_cvtpd_ps(value));
    return _mm_xor_si128(_mm_castpd_si128(back), _mm_castpd_si128(value));
}

// The low bytes of four values converted to int32 (cvttpd2dq gives 0x80000000 outside its range; no trap).
inline void store_low_bytes(__m128d first, __m128d second, std::byte* out) {
    const __m128i words = _mm_unpacklo_epi64(_mm_cvttpd_epi32(first), _mm_cvttpd_epi32(second));
    const __m128i bytes = _mm_and_si128(words, _mm_set1_epi32(0xFF));  // the packs below then never saturate
    const __m128i packed = _mm_packus_epi16(_mm_packs_epi32(bytes, bytes), _mm_setzero_si128());
    const auto four = static_cast<std::uint32_t>(_mm_cvtsi128_si32(packed));
    std::memcpy(out, &four, sizeof four);
}

// The low 16 bits of four values converted to int32.
inline void store_low_halves(__m128d first, __m128d second, std::byte* out) {
    const __m128i words = _mm_unpacklo_epi64(_mm_cvttpd_epi32(first), _mm_cvttpd_epi32(second));
    // Each word's low half, sign-extended: the signed pack below then never saturates.
    const __m128i halves = _mm_srai_epi32(_mm_slli_epi32(words, 16), 16);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packs_epi32(halves, halves));
}

// Two values as the low 32 bits of their integer: those of 2^31 or more (u32 only) are first brought into int32's
// range by subtracting 2^32, exact for integers below 2^53.
inline __m128i low_words(__m128d value) {
    const __m128d high = _mm_cmpge_pd(value, _mm_set1_pd(kTwoTo31));
    return _mm_cvttpd_epi32(_mm_sub_pd(value, _mm_and_pd(high, _mm_set1_pd(kTwoTo32))));
}

inline void store_low_words(__m128d first, __m128d second, std::byte* out) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi64(low_words(first), low_words(second)));
}

inline void store_floats(__m128d first, __m128d second, std::byte* out) {
    _mm_storeu_ps(reinterpret_cast<float*>(out), _mm_movelh_ps(_mm_cvtpd_ps(first), _mm_cvtpd_ps(second)));
}

template <ScanStore kStore>
inline void store_four(__m128d first, __m128d second, std::byte* out) {
    if constexpr (kStore == ScanStore::Bytes) store_low_bytes(first, second, out);
    if constexpr (kStore == ScanStore::Halves) store_low_halves(first, second, out);
    if constexpr (kStore == ScanStore::Words) store_low_words(first, second, out);
    if constexpr (kStore == ScanStore::Floats) store_floats(first, second, out);
}
#endif

}  // namespace

template <class T>
std::uint64_t count_nonzero_bits(const T* values, std::size_t count) {
    using Bits = SameSizeBits<T>;
    std::uint64_t nonzero = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Bits bits = std::bit_cast<Bits>(values[i]);
        if constexpr (sizeof(T) == 8) {
            // (bits | -bits) has its top bit set exactly when bits != 0: a subtraction, an OR and a shift, which
            // SSE2 has for 64-bit lanes (it has no 64-bit comparison).
            nonzero += (bits | (Bits{0} - bits)) >> 63;
        } else {
            nonzero += bits != 0 ? 1u : 0u;
        }
    }
    return nonzero;
}

template <class T>
IntegerRange<T> integer_range(const T* values, std::size_t count) {
    static_assert(std::is_integral_v<T>);
    T low = values[0];
    T high = values[0];
    for (std::size_t i = 1; i < count; ++i) {
        low = values[i] < low ? values[i] : low;
        high = values[i] > high ? values[i] : high;
    }
    return {low, high};
}

template <ScanStore kStore>
IntegralChunkFacts scan_integral_chunk(const double* values, std::size_t count, std::byte* out) {
    IntegralChunkFacts facts;
    if (count == 0) {
        facts.integral = true;
        return facts;
    }
    facts.min = values[0];
    facts.max = values[0];
    bool not_integral = false;
    std::uint64_t negative_zero = 0;  // the bits of every value equal to zero, ORed: non-zero once a -0.0 is seen
    std::size_t done = 0;
#if defined(__SSE2__)
    // Two vectors of two doubles per step, each with accumulators of its own so that the steps overlap.
    IntegralLanes first(values[0]);
    IntegralLanes second(values[0]);
    for (; done + 4 <= count; done += 4) {
        const __m128d one = _mm_loadu_pd(values + done);
        const __m128d two = _mm_loadu_pd(values + done + 2);
        first.add(one);
        second.add(two);
        if constexpr (kStore != ScanStore::None) store_four<kStore>(one, two, out + done * kStoredWidth<kStore>);
    }
    first.merge(second);
    alignas(16) double lanes[2];
    alignas(16) std::uint64_t bits[2];
    _mm_store_pd(lanes, first.low);
    facts.min = std::min(lanes[0], lanes[1]);
    _mm_store_pd(lanes, first.high);
    facts.max = std::max(lanes[0], lanes[1]);
    _mm_store_si128(reinterpret_cast<__m128i*>(bits), _mm_castpd_si128(first.inexact));
    not_integral = (bits[0] | bits[1]) != 0;
    _mm_store_si128(reinterpret_cast<__m128i*>(bits), _mm_castpd_si128(first.zero_bits));
    negative_zero = bits[0] | bits[1];
    _mm_store_si128(reinterpret_cast<__m128i*>(bits), first.zeros);
    facts.zeros = bits[0] + bits[1];
#endif
    facts = scan_integral_scalar<kStore>(values + done, count - done, facts, not_integral, negative_zero,
                                         kStore == ScanStore::None ? nullptr : out + done * kStoredWidth<kStore>);
    facts.integral = !not_integral && negative_zero == 0;
    return facts;
}

IntegralChunkFacts scan_integral(const double* values, std::size_t count) {
    return scan_integral_chunk<ScanStore::None>(values, count, nullptr);
}

IntegralChunkFacts scan_integral_storing(const double* values, std::size_t count, ScanStore store, std::byte* out) {
    switch (store) {
        case ScanStore::None: break;
        case ScanStore::Bytes: return scan_integral_chunk<ScanStore::Bytes>(values, count, out);
        case ScanStore::Halves: return scan_integral_chunk<ScanStore::Halves>(values, count, out);
        case ScanStore::Words: return scan_integral_chunk<ScanStore::Words>(values, count, out);
        case ScanStore::Floats: return scan_integral_chunk<ScanStore::Floats>(values, count, out);
    }
    return scan_integral_chunk<ScanStore::None>(values, count, nullptr);
}

template <bool kStoreFloats>
bool roundtrip_f32_chunk(const double* values, std::size_t count, std::byte* out) {
    std::size_t done = 0;
    std::uint64_t differing = 0;
#if defined(__SSE2__)
    __m128i first = _mm_setzero_si128();
    __m128i second = _mm_setzero_si128();
    for (; done + 4 <= count; done += 4) {
        const __m128d one = _mm_loadu_pd(values + done);
        const __m128d two = _mm_loadu_pd(values + done + 2);
        first = _mm_or_si128(first, roundtrip_difference(one));
        second = _mm_or_si128(second, roundtrip_difference(two));
        if constexpr (kStoreFloats) store_floats(one, two, out + done * sizeof(float));
    }
    alignas(16) std::uint64_t bits[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(bits), _mm_or_si128(first, second));
    differing = bits[0] | bits[1];
#endif
    for (; done < count; ++done) {
        const float narrowed = static_cast<float>(values[done]);
        if constexpr (kStoreFloats) store_le<float>(out + done * sizeof(float), narrowed);
        const double back = static_cast<double>(narrowed);
        differing |= std::bit_cast<std::uint64_t>(back) ^ std::bit_cast<std::uint64_t>(values[done]);
    }
    return differing == 0;
}

bool all_roundtrip_f32(const double* values, std::size_t count) {
    return roundtrip_f32_chunk<false>(values, count, nullptr);
}

bool all_roundtrip_f32_storing(const double* values, std::size_t count, std::byte* out) {
    return roundtrip_f32_chunk<true>(values, count, out);
}

#define DBDF_VALUE_SCAN_INSTANCE(T) template std::uint64_t count_nonzero_bits<T>(const T*, std::size_t);
DBDF_VALUE_SCAN_INSTANCE(std::uint8_t)
DBDF_VALUE_SCAN_INSTANCE(std::uint16_t)
DBDF_VALUE_SCAN_INSTANCE(std::uint32_t)
DBDF_VALUE_SCAN_INSTANCE(std::uint64_t)
DBDF_VALUE_SCAN_INSTANCE(std::int8_t)
DBDF_VALUE_SCAN_INSTANCE(std::int16_t)
DBDF_VALUE_SCAN_INSTANCE(std::int32_t)
DBDF_VALUE_SCAN_INSTANCE(std::int64_t)
DBDF_VALUE_SCAN_INSTANCE(float)
DBDF_VALUE_SCAN_INSTANCE(double)
#undef DBDF_VALUE_SCAN_INSTANCE
#define DBDF_INTEGER_RANGE_INSTANCE(T) template IntegerRange<T> integer_range<T>(const T*, std::size_t);
DBDF_INTEGER_RANGE_INSTANCE(std::uint8_t)
DBDF_INTEGER_RANGE_INSTANCE(std::uint16_t)
DBDF_INTEGER_RANGE_INSTANCE(std::uint32_t)
DBDF_INTEGER_RANGE_INSTANCE(std::uint64_t)
DBDF_INTEGER_RANGE_INSTANCE(std::int8_t)
DBDF_INTEGER_RANGE_INSTANCE(std::int16_t)
DBDF_INTEGER_RANGE_INSTANCE(std::int32_t)
DBDF_INTEGER_RANGE_INSTANCE(std::int64_t)
#undef DBDF_INTEGER_RANGE_INSTANCE

}  // namespace dbdf::detail
