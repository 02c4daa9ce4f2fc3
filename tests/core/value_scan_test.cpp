// The writer's whole-chunk analysis (NarrowingAnalysis::observe_values) against its value-by-value reference
// (observe), and the narrowing copy against a per-value static_cast, on random and adversarial inputs: NaN
// payloads, -0.0, subnormals, infinities, 2^53 +- 1, every integer type's bounds and the values just past them,
// each placed first, last and at every chunk boundary.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "dbdf/endian.hpp"
#include "narrowing_copy.hpp"
#include "value_analysis.hpp"
#include "value_scan.hpp"

namespace dbdf::detail {
namespace {

double from_bits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

// What the writer learns from observe() of every bit-non-zero value, and what observe_values gives.
template <class T>
void expect_same_facts(const std::vector<T>& values, const std::string& what) {
    SCOPED_TRACE(what);
    NarrowingAnalysis<T> reference;
    std::uint64_t reference_nonzero = 0;
    for (T value : values) {
        if (is_bit_zero_value(value)) continue;
        reference.observe(value);
        ++reference_nonzero;
    }
    NarrowingAnalysis<T> scanned;
    EXPECT_EQ(scanned.observe_values(values.data(), values.size()), reference_nonzero);
    EXPECT_EQ(narrowest_type(scanned.feasible(), value_type_v<T>),
              narrowest_type(reference.feasible(), value_type_v<T>));
    EXPECT_EQ(scanned.narrower_possible(), reference.narrower_possible());
    // Until the analysis closes, it observes everything: the facts are the same, not only the choice.
    if (reference.narrower_possible()) {
        EXPECT_EQ(scanned.feasible(), reference.feasible());
    }
}

// Lengths around the chunk size, and positions at its boundaries.
std::vector<std::size_t> lengths() {
    return {1, 2, 3, 5, kScanChunk - 1, kScanChunk, kScanChunk + 1, 2 * kScanChunk + 7};
}

std::vector<std::size_t> positions(std::size_t length) {
    std::vector<std::size_t> at{0, 1, 2, 3, length / 2, length - 1, length - 2};
    for (std::size_t boundary = kScanChunk; boundary <= length; boundary += kScanChunk) {
        at.insert(at.end(), {boundary - 1, boundary, boundary + 1, boundary - 4, boundary + 3});
    }
    std::vector<std::size_t> valid;
    for (std::size_t p : at) {
        if (p < length) valid.push_back(p);
    }
    return valid;
}

const std::vector<double>& special_doubles() {
    static const std::vector<double> values = {
        0.0,
        -0.0,
        std::numeric_limits<double>::quiet_NaN(),
        -std::numeric_limits<double>::quiet_NaN(),
        from_bits(0x7FF0000000000001),  // signalling NaN, lowest payload
        from_bits(0x7FF8000000000001),  // quiet NaN whose payload a float cannot hold
        from_bits(0x7FF8000020000000),  // quiet NaN whose payload a float holds
        from_bits(0xFFF4000000000000),
        std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(),
        from_bits(1),
        -from_bits(1),
        std::numeric_limits<double>::min(),
        std::numeric_limits<double>::denorm_min() * 3,
        static_cast<double>(std::numeric_limits<float>::denorm_min()),
        0.5,
        -0.5,
        1.5,
        0.1,
        1e300,
        -1e300,
        static_cast<double>(std::numeric_limits<float>::max()),
        std::nextafter(double{std::numeric_limits<float>::max()}, 1e300),
        static_cast<double>(0.1f),
        255,
        256,
        -1,
        -128,
        -129,
        127,
        128,
        65535,
        65536,
        -32768,
        -32769,
        32767,
        2147483647.0,
        2147483648.0,
        -2147483648.0,
        -2147483649.0,
        4294967295.0,
        4294967296.0,
        16777216.0,
        16777217.0,
        16777218.0,
        -16777217.0,
        4503599627370495.0,
        4503599627370496.0,
        4503599627370497.0,
        9007199254740991.0,
        9007199254740992.0,
        9007199254740994.0,
        -9007199254740994.0,
        9223372036854775808.0,
        -9223372036854775808.0,
        std::nextafter(-9223372036854775808.0, -1e300),
        18446744073709549568.0,
        18446744073709551616.0,
        1099511627776.0,
        -1099511627776.0};
    return values;
}

// Backgrounds that keep different types possible: zeros (everything), small integers (u8), signed integers
// (i16), halves (f32), tenths (only f64).
std::vector<double> background(const std::string& kind, std::size_t length, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<double> values(length);
    for (std::size_t i = 0; i < length; ++i) {
        const auto draw = static_cast<int>(random() % 100);
        if (kind == "zeros") values[i] = 0.0;
        if (kind == "small") values[i] = draw < 30 ? 0.0 : draw;
        if (kind == "signed") values[i] = (draw - 50) * 300.0;
        if (kind == "halves") values[i] = draw / 2.0;
        if (kind == "tenths") values[i] = draw / 10.0;
    }
    return values;
}

TEST(ValueScan, DoublesMatchTheReferenceWithEverySpecialValueAtEveryBoundary) {
    for (const std::string kind : {"zeros", "small", "signed", "halves", "tenths"}) {
        for (std::size_t length : lengths()) {
            const std::vector<double> base = background(kind, length, length);
            expect_same_facts(base, kind + " alone, length " + std::to_string(length));
            for (std::size_t position : positions(length)) {
                for (double special : special_doubles()) {
                    std::vector<double> values = base;
                    values[position] = special;
                    expect_same_facts(values, kind + ", length " + std::to_string(length) + ", bits " +
                                                  std::to_string(std::bit_cast<std::uint64_t>(special)) + " at " +
                                                  std::to_string(position));
                }
            }
        }
    }
}

TEST(ValueScan, DoublesMatchTheReferenceOnRandomMixtures) {
    std::mt19937_64 random(2026);
    const std::vector<double>& specials = special_doubles();
    for (int round = 0; round < 400; ++round) {
        const std::size_t length = 1 + random() % (3 * kScanChunk);
        std::vector<double> values = background(round % 2 == 0 ? "small" : "signed", length, random());
        const std::size_t mixed = random() % 4;
        for (std::size_t k = 0; k < mixed; ++k) values[random() % length] = specials[random() % specials.size()];
        expect_same_facts(values, "round " + std::to_string(round));
    }
}

// Integral doubles of 2^52 and more: the fast test cannot tell them from fractions, so the reference decides.
TEST(ValueScan, LargeIntegralDoublesKeepTheirIntegerTypes) {
    std::vector<double> values(kScanChunk + 10, 4503599627370497.0);  // 2^52 + 1, fits i64 and u64 only
    expect_same_facts(values, "2^52 + 1");
    NarrowingAnalysis<double> analysis;
    analysis.observe_values(values.data(), values.size());
    EXPECT_NE(analysis.feasible() & mask_of(ValueType::I64), 0);
    EXPECT_NE(analysis.feasible() & mask_of(ValueType::U64), 0);
}

template <class T>
void check_integer_type(std::uint64_t seed) {
    using Limits = std::numeric_limits<T>;
    std::vector<T> specials = {0, 1, Limits::min(), Limits::max(), static_cast<T>(Limits::max() - 1)};
    for (std::int64_t v :
         {-129LL, -128LL, 127LL, 128LL, 255LL, 256LL, -32769LL, 65535LL, 65536LL, 16777216LL, 16777217LL, -16777217LL,
          2147483648LL, 4294967296LL, 9007199254740993LL, 1099511627776LL, -9007199254740993LL}) {
        if (std::in_range<T>(v)) specials.push_back(static_cast<T>(v));
    }
    std::mt19937_64 random(seed);
    for (std::size_t length : lengths()) {
        std::vector<T> base(length);
        for (T& value : base) value = static_cast<T>(random() % 50);
        expect_same_facts(base, "small, length " + std::to_string(length));
        for (std::size_t position : positions(length)) {
            for (T special : specials) {
                std::vector<T> values = base;
                values[position] = special;
                expect_same_facts(values, "length " + std::to_string(length) + ", " + std::to_string(special) + " at " +
                                              std::to_string(position));
            }
        }
    }
}

TEST(ValueScan, IntegersMatchTheReference) {
    check_integer_type<std::uint8_t>(1);
    check_integer_type<std::int8_t>(2);
    check_integer_type<std::uint16_t>(3);
    check_integer_type<std::int16_t>(4);
    check_integer_type<std::uint32_t>(5);
    check_integer_type<std::int32_t>(6);
    check_integer_type<std::uint64_t>(7);
    check_integer_type<std::int64_t>(8);
}

TEST(ValueScan, FloatsMatchTheReference) {
    std::vector<float> values(kScanChunk + 3, 2.0f);
    expect_same_facts(values, "integral floats");
    values[kScanChunk] = -0.0f;
    expect_same_facts(values, "with -0.0");
    values[kScanChunk] = std::bit_cast<float>(0x7FA00001u);
    expect_same_facts(values, "with a signalling NaN");
}

// Once no narrower type is possible the rest is only counted, and the count still includes -0.0.
TEST(ValueScan, CountsEveryNonZeroAfterTheAnalysisCloses) {
    std::vector<double> values(3 * kScanChunk, 0.1);
    values[2 * kScanChunk + 5] = 0.0;
    values[2 * kScanChunk + 6] = -0.0;
    NarrowingAnalysis<double> analysis;
    EXPECT_EQ(analysis.observe_values(values.data(), values.size()), values.size() - 1);
    EXPECT_FALSE(analysis.narrower_possible());
    EXPECT_EQ(count_nonzero_bits(values.data(), values.size()), values.size() - 1);
}

TEST(ValueScan, RoundTripThroughFloatIsBitExact) {
    for (double special : special_doubles()) {
        std::vector<double> values(9, 1.5);
        values[4] = special;
        EXPECT_EQ(all_roundtrip_f32(values.data(), values.size()), roundtrips_bitwise<float>(special))
            << std::bit_cast<std::uint64_t>(special);
    }
}

// Each way of storing while scanning gives what the narrowing copy gives for the values its type holds.
template <class E>
void expect_scan_stores(ScanStore store, std::int64_t low, std::int64_t high) {
    std::mt19937_64 random(17);
    for (std::size_t length : {1, 2, 3, 4, 5, 7, 9, 1029}) {
        std::vector<double> values(length);
        const auto span = static_cast<std::uint64_t>(high - low) + 1;
        for (double& value : values) value = static_cast<double>(low + static_cast<std::int64_t>(random() % span));
        values[0] = static_cast<double>(high);
        values[length - 1] = static_cast<double>(low);
        std::vector<std::byte> stored(length * sizeof(E) + 1, std::byte{0xAB});
        const IntegralChunkFacts facts = scan_integral_storing(values.data(), values.size(), store, stored.data() + 1);
        EXPECT_TRUE(facts.integral);
        std::vector<std::byte> copied(length * sizeof(E));
        store_converted<E>(values.data(), values.size(), copied.data());
        EXPECT_EQ(std::memcmp(stored.data() + 1, copied.data(), copied.size()), 0) << length << " values";
        const IntegralChunkFacts plain = scan_integral(values.data(), values.size());
        EXPECT_EQ(plain.zeros, facts.zeros);
        EXPECT_EQ(plain.min, facts.min);
        EXPECT_EQ(plain.max, facts.max);
    }
}

TEST(ValueScan, StoresEveryValueInItsNarrowedTypeWhileScanning) {
    expect_scan_stores<std::uint8_t>(ScanStore::Bytes, 0, 255);
    expect_scan_stores<std::int8_t>(ScanStore::Bytes, -128, 127);
    expect_scan_stores<std::uint16_t>(ScanStore::Halves, 0, 65535);
    expect_scan_stores<std::int16_t>(ScanStore::Halves, -32768, 32767);
    expect_scan_stores<std::uint32_t>(ScanStore::Words, 0, 4294967295);
    expect_scan_stores<std::uint32_t>(ScanStore::Words, 2147483640, 2147483650);
    expect_scan_stores<std::int32_t>(ScanStore::Words, -2147483648, 2147483647);
    expect_scan_stores<float>(ScanStore::Floats, -16777216, 16777216);
}

TEST(ValueScan, StoresFloatsWhileTestingTheirRoundTrip) {
    for (double special : special_doubles()) {
        std::vector<double> values(9, 1.5);
        values[4] = special;
        std::vector<std::byte> stored(values.size() * sizeof(float));
        EXPECT_EQ(all_roundtrip_f32_storing(values.data(), values.size(), stored.data()),
                  roundtrips_bitwise<float>(special));
        if (!roundtrips_bitwise<float>(special)) continue;
        std::vector<std::byte> copied(stored.size());
        store_converted<float>(values.data(), values.size(), copied.data());
        EXPECT_EQ(std::memcmp(stored.data(), copied.data(), copied.size()), 0) << std::bit_cast<std::uint64_t>(special);
    }
}

// --- the narrowing copy --------------------------------------------------------------------------------------

template <class E, class T>
void expect_stored_as_cast(const std::vector<T>& values) {
    std::vector<std::byte> stored(values.size() * sizeof(E) + 1);
    store_converted<E>(values.data(), values.size(), stored.data() + 1);  // unaligned on purpose
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::byte expected[sizeof(E)];
        store_le<E>(expected, static_cast<E>(values[i]));
        ASSERT_EQ(std::memcmp(stored.data() + 1 + i * sizeof(E), expected, sizeof(E)), 0) << "value " << i;
    }
}

TEST(NarrowingCopy, StoresWhatAPerValueCastStores) {
    std::mt19937_64 random(11);
    std::vector<double> bytes(1000);
    std::vector<double> shorts(1000);
    std::vector<double> words(1000);
    std::vector<std::int64_t> longs(1000);
    for (std::size_t i = 0; i < 1000; ++i) {
        bytes[i] = static_cast<double>(random() % 256);
        shorts[i] = static_cast<double>(static_cast<std::int16_t>(random()));
        words[i] = static_cast<double>(static_cast<std::uint32_t>(random()));
        longs[i] = static_cast<std::int32_t>(random());
    }
    bytes[0] = 255;
    bytes[999] = 0;
    expect_stored_as_cast<std::uint8_t>(bytes);
    expect_stored_as_cast<std::int16_t>(shorts);
    expect_stored_as_cast<std::int32_t>(shorts);
    expect_stored_as_cast<std::uint32_t>(words);
    expect_stored_as_cast<std::int64_t>(words);
    expect_stored_as_cast<std::int32_t>(longs);
    std::vector<double> signed_bytes = {-128, 127, -1, 0, 5, -7, 100, -100, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    expect_stored_as_cast<std::int8_t>(signed_bytes);
}

// Double to float keeps -0.0, infinities and NaN payloads a float can hold, bit for bit.
TEST(NarrowingCopy, DoubleToFloatKeepsSpecialBits) {
    std::vector<double> values;
    for (double special : special_doubles()) {
        if (roundtrips_bitwise<float>(special)) values.push_back(special);
    }
    ASSERT_GE(values.size(), 10u);
    std::vector<std::byte> stored(values.size() * 4);
    store_converted<float>(values.data(), values.size(), stored.data());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float back = load_le<float>(stored.data() + i * 4);
        EXPECT_EQ(std::bit_cast<std::uint64_t>(static_cast<double>(back)), std::bit_cast<std::uint64_t>(values[i]));
    }
}

}  // namespace
}  // namespace dbdf::detail
