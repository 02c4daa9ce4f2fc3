// Exact conversion (rule 8) and bitwise narrowing (rule 9) of single values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

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
    EXPECT_TRUE(fits<std::uint64_t>(18446744073709549568.0));  // largest double below 2^64
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
