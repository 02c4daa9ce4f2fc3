// Exact conversion (rule 8) and bitwise narrowing (rule 9) of single values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "value_analysis.hpp"
#include "value_conversion.hpp"

namespace dbdf::detail {
namespace {

TEST(ValueConversion, IntegersConvertOnlyWithinRange) {
    EXPECT_TRUE(fits<std::uint8_t>(std::int64_t{255}));
    EXPECT_FALSE(fits<std::uint8_t>(std::int64_t{256}));
    EXPECT_FALSE(fits<std::uint8_t>(std::int64_t{-1}));
    EXPECT_TRUE(fits<std::int8_t>(std::int64_t{-128}));
    EXPECT_FALSE(fits<std::int8_t>(std::int64_t{-129}));
    EXPECT_FALSE(fits<std::int64_t>(std::numeric_limits<std::uint64_t>::max()));
    EXPECT_TRUE(fits<std::uint64_t>(std::numeric_limits<std::uint64_t>::max()));
}

TEST(ValueConversion, FloatsConvertToIntegersOnlyWhenIntegralAndInRange) {
    EXPECT_TRUE(fits<std::int32_t>(3.0));
    EXPECT_FALSE(fits<std::int32_t>(0.5));
    EXPECT_FALSE(fits<std::int32_t>(std::nan("")));
    EXPECT_FALSE(fits<std::int32_t>(std::numeric_limits<double>::infinity()));
    EXPECT_TRUE(fits<std::int32_t>(-2147483648.0));
    EXPECT_FALSE(fits<std::int32_t>(2147483648.0));
    EXPECT_TRUE(fits<std::uint64_t>(18446744073709549568.0));   // largest double below 2^64
    EXPECT_FALSE(fits<std::uint64_t>(18446744073709551616.0));  // 2^64
    EXPECT_TRUE(fits<std::int64_t>(-0.0));                      // same value as 0
}

TEST(ValueConversion, IntegersConvertToFloatsOnlyWhenExact) {
    EXPECT_TRUE(fits<float>(std::int32_t{16777216}));
    EXPECT_FALSE(fits<float>(std::int32_t{16777217}));
    EXPECT_TRUE(fits<double>(std::int64_t{1} << 53));
    EXPECT_FALSE(fits<double>((std::int64_t{1} << 53) + 1));
    EXPECT_FALSE(fits<double>(std::numeric_limits<std::uint64_t>::max()));  // rounds to 2^64
    EXPECT_TRUE(fits<double>(std::numeric_limits<std::int64_t>::min()));
}

TEST(ValueConversion, DoubleToFloatKeepsNanAndInfinityButNotRounding) {
    EXPECT_TRUE(fits<float>(0.5));
    EXPECT_FALSE(fits<float>(0.1));
    EXPECT_FALSE(fits<float>(1e300));
    EXPECT_TRUE(fits<float>(std::numeric_limits<double>::infinity()));
    EXPECT_TRUE(fits<float>(std::nan("")));
}

TEST(ValueConversion, BitwiseRoundTripKeepsSignOfZeroAndNanPayload) {
    EXPECT_FALSE(roundtrips_bitwise<std::int8_t>(-0.0));
    EXPECT_TRUE(roundtrips_bitwise<std::int8_t>(0.0));
    EXPECT_TRUE(roundtrips_bitwise<float>(-0.0));
    const double quiet_nan = std::bit_cast<double>(std::uint64_t{0x7ff8000000000000});
    const double payload_nan = std::bit_cast<double>(std::uint64_t{0x7ff8000000000123});
    EXPECT_TRUE(roundtrips_bitwise<float>(quiet_nan));
    EXPECT_FALSE(roundtrips_bitwise<float>(payload_nan));
}

// The branch-free range test the dense decoder ORs over whole runs agrees with std::in_range for every integer
// pair that needs a check, at and around each bound of both types.
// Returns 1 when the pair was checked.
template <class S, class D>
int expect_range_test_matches_in_range() {
    if constexpr (std::is_integral_v<S> && std::is_integral_v<D> && !always_fits<S, D>()) {
        using Test = IntegerRangeTest<S, D>;
        // Every bound of S and D, and its neighbours within S, computed in 128 bits where they cannot overflow.
        __extension__ typedef __int128 Wide;
        std::vector<S> probes;
        for (const Wide bound : {Wide{std::numeric_limits<S>::min()}, Wide{std::numeric_limits<S>::max()},
                                 Wide{std::numeric_limits<D>::min()}, Wide{std::numeric_limits<D>::max()}, Wide{0}}) {
            for (int delta = -2; delta <= 2; ++delta) {
                const Wide probe = bound + delta;
                if (probe >= Wide{std::numeric_limits<S>::min()} && probe <= Wide{std::numeric_limits<S>::max()}) {
                    probes.push_back(static_cast<S>(probe));
                }
            }
        }
        typename Test::Bits all_in_range = 0;
        for (const S value : probes) {
            SCOPED_TRACE(testing::Message()
                         << value_text(value) << " as " << name(value_type_v<S>) << " to " << name(value_type_v<D>));
            EXPECT_EQ(Test::all_fit(Test::biased(value)), std::in_range<D>(value));
            if (std::in_range<D>(value)) all_in_range |= Test::biased(value);
        }
        EXPECT_TRUE(Test::all_fit(all_in_range));
        return 1;
    }
    return 0;
}

TEST(ValueConversion, BranchFreeIntegerRangeTestAgreesWithInRange) {
    int checked_pairs = 0;
    for (int stored = 1; stored <= 10; ++stored) {
        for (int requested = 1; requested <= 10; ++requested) {
            visit_value_type(static_cast<ValueType>(stored), [&](auto stored_tag) {
                visit_value_type(static_cast<ValueType>(requested), [&](auto requested_tag) {
                    checked_pairs += expect_range_test_matches_in_range<typename decltype(stored_tag)::type,
                                                                        typename decltype(requested_tag)::type>();
                });
            });
        }
    }
    // 64 integer pairs, less the 26 that always fit (8 identities, 18 widenings).
    EXPECT_EQ(checked_pairs, 38);
}

TEST(NarrowingAnalysis, PicksNarrowestTypeOfPreferredFamily) {
    NarrowingAnalysis<std::uint64_t> small;
    for (std::uint64_t v : {0, 7, 200}) small.observe(v);
    EXPECT_EQ(narrowest_type(small.feasible(), ValueType::U64), ValueType::U8);

    NarrowingAnalysis<std::int64_t> negative;
    for (std::int64_t v : {-5, 100}) negative.observe(v);
    EXPECT_EQ(narrowest_type(negative.feasible(), ValueType::I64), ValueType::I8);

    NarrowingAnalysis<std::int64_t> wide;
    for (std::int64_t v : {-1, 40000}) wide.observe(v);
    EXPECT_EQ(narrowest_type(wide.feasible(), ValueType::I64), ValueType::I32);

    NarrowingAnalysis<double> integral;
    for (double v : {1.0, 2.0, 255.0}) integral.observe(v);
    EXPECT_EQ(narrowest_type(integral.feasible(), ValueType::F64), ValueType::U8);

    NarrowingAnalysis<double> halves;
    for (double v : {0.5, -1.25}) halves.observe(v);
    EXPECT_EQ(narrowest_type(halves.feasible(), ValueType::F64), ValueType::F32);

    NarrowingAnalysis<double> tenths;
    tenths.observe(0.1);
    EXPECT_EQ(narrowest_type(tenths.feasible(), ValueType::F64), ValueType::F64);

    NarrowingAnalysis<double> negative_zero;
    negative_zero.observe(-0.0);
    EXPECT_EQ(narrowest_type(negative_zero.feasible(), ValueType::F64), ValueType::F32);

    NarrowingAnalysis<std::uint64_t> power_of_two;
    power_of_two.observe(std::uint64_t{1} << 40);
    EXPECT_EQ(narrowest_type(power_of_two.feasible(), ValueType::U64), ValueType::F32);
}

}  // namespace
}  // namespace dbdf::detail
