// Automatic encoding (rules 9 and 10): the smallest exact block type with the narrowest bit-exact value type.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "dbdf/block.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::bits_of;
using testing::blocks_of;
using testing::read_dense;
using testing::write_to_memory;

template <class T>
std::vector<std::byte> write_one_block(DataType data_type, std::uint32_t rows, std::uint32_t cols,
                                       const std::vector<T>& values) {
    return write_to_memory([&](Writer& writer) {
        writer.begin_matrix(data_type, value_type_v<T>, rows, cols);
        writer.add_dense({0, 0, rows, cols}, value_type_v<T>, values.data(), values.size(), 0, WriteOptions{});
    });
}

TEST(AutomaticEncoding, AllZeroBlockBecomesEmpty) {
    const std::vector<double> zeros(12, 0.0);
    const auto blocks = blocks_of(write_one_block(DataType::DenseMatrix, 3, 4, zeros));
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].block_type, BlockType::Empty);
    EXPECT_EQ(blocks[0].encoded_bytes, 16u + 9u);
}

TEST(AutomaticEncoding, NegativeZeroIsNotZero) {
    std::vector<double> values(12, 0.0);
    values[5] = -0.0;
    const auto bytes = write_one_block(DataType::DenseMatrix, 3, 4, values);
    const auto blocks = blocks_of(bytes);
    EXPECT_NE(blocks[0].block_type, BlockType::Empty);
    EXPECT_EQ(blocks[0].value_type, ValueType::F32);  // -0.0 survives as float, not as an integer
    EXPECT_EQ(bits_of(read_dense<double>(bytes)), bits_of(values));
}

TEST(AutomaticEncoding, FullBlockOfSmallIntegersIsDenseU8) {
    std::vector<double> values(16);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i * 13 % 200 + 1);
    const auto bytes = write_one_block(DataType::DenseMatrix, 4, 4, values);
    const auto blocks = blocks_of(bytes);
    EXPECT_EQ(blocks[0].block_type, BlockType::Dense);
    EXPECT_EQ(blocks[0].value_type, ValueType::U8);
    EXPECT_EQ(blocks[0].encoded_bytes, 16u + 10u + 16u);
    EXPECT_EQ(read_dense<double>(bytes), values);
}

// Blocks of doubles that narrow to one byte are written from the bytes the analysis stored; blocks whose last value
// (or a -0.0 at a chunk boundary) rules that out are not. Odd shapes leave tails after the vector loops; tiles and
// two threads go through the write_dense pipeline.
TEST(AutomaticEncoding, OneByteBlocksFromTheAnalysisReadBackExactly) {
    constexpr std::uint32_t kRows = 37;
    constexpr std::uint32_t kCols = 53;
    std::mt19937_64 random(5);
    for (const ValueType expected : {ValueType::U8, ValueType::I8, ValueType::U16, ValueType::F32}) {
        std::vector<double> values(std::size_t{kRows} * kCols);
        for (double& value : values) {
            const auto draw = static_cast<int>(random() % 256);
            value = expected == ValueType::U8 || expected == ValueType::U16 ? draw : draw - 128;
        }
        if (expected == ValueType::U16) values.back() = 256;
        if (expected == ValueType::F32) values[1024] = -0.0;
        const auto one_block = write_one_block(DataType::DenseMatrix, kRows, kCols, values);
        EXPECT_EQ(blocks_of(one_block)[0].value_type, expected);
        EXPECT_EQ(bits_of(read_dense<double>(one_block)), bits_of(values));
        for (unsigned threads : {1u, 2u}) {
            const auto tiled = write_to_memory([&](Writer& writer) {
                writer.set_encode_threads(threads);
                writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
                writer.write_dense(ValueType::F64, values.data(), values.size(), 0,
                                   WriteOptions{Encoding::Auto, 16, 16});
            });
            EXPECT_EQ(bits_of(read_dense<double>(tiled)), bits_of(values)) << threads << " threads";
        }
    }
}

TEST(AutomaticEncoding, VerySparseBlocksBecomeCooInBothVariants) {
    std::vector<double> wide(100 * 100, 0.0);
    wide[5] = 0.1;
    wide[5000] = 0.2;
    wide[9999] = 0.3;
    auto blocks = blocks_of(write_one_block(DataType::CsrMatrix, 100, 100, wide));
    EXPECT_EQ(blocks[0].block_type, BlockType::Coo);
    EXPECT_EQ(blocks[0].value_type, ValueType::F64);
    EXPECT_EQ(blocks[0].encoded_bytes, 16u + 14u + 3u * (8u + 8u));

    std::vector<std::int32_t> tall(100, 0);
    tall[3] = -7;
    tall[60] = 9;
    blocks = blocks_of(write_one_block(DataType::DenseMatrix, 100, 1, tall));
    EXPECT_EQ(blocks[0].block_type, BlockType::Coo);
    EXPECT_EQ(blocks[0].value_type, ValueType::I8);
    EXPECT_EQ(blocks[0].encoded_bytes, 16u + 14u + 2u * (4u + 1u));
}

TEST(AutomaticEncoding, NanPayloadAndExtremesKeepTheirWidth) {
    const double payload_nan = std::bit_cast<double>(std::uint64_t{0x7ff8000000000123});
    std::vector<double> values{payload_nan, 1.0, -std::numeric_limits<double>::infinity(), 2.0};
    auto bytes = write_one_block(DataType::DenseMatrix, 2, 2, values);
    EXPECT_EQ(blocks_of(bytes)[0].value_type, ValueType::F64);
    EXPECT_EQ(bits_of(read_dense<double>(bytes)), bits_of(values));

    std::vector<std::int64_t> extremes{std::numeric_limits<std::int64_t>::min(), 0, 1,
                                       std::numeric_limits<std::int64_t>::max()};
    bytes = write_one_block(DataType::DenseMatrix, 2, 2, extremes);
    EXPECT_EQ(blocks_of(bytes)[0].value_type, ValueType::I64);
    EXPECT_EQ(read_dense<std::int64_t>(bytes), extremes);

    std::vector<std::uint64_t> big{std::numeric_limits<std::uint64_t>::max(), 1, 0, 5};
    bytes = write_one_block(DataType::DenseMatrix, 2, 2, big);
    EXPECT_EQ(blocks_of(bytes)[0].value_type, ValueType::U64);
    EXPECT_EQ(read_dense<std::uint64_t>(bytes), big);
}

// Smallest size among the four block types for `entries` non-zeros of `type`.
std::uint64_t smallest_possible(std::uint32_t rows, std::uint32_t cols, std::uint64_t entries, ValueType type) {
    if (entries == 0) return 16 + kEmptyBlockBytes;
    std::uint64_t best = std::min(dense_block_bytes(rows, cols, type), csr_block_bytes(rows, entries, type));
    best = std::min(best, coo_block_bytes(cols, entries, type));
    return 16 + best;
}

// Size in bytes of the narrowest value type into which every value round-trips exactly (rule 9), whatever its
// family: unsigned, signed, or float (f32 holds integers of up to 24 significant bits).
std::size_t narrowest_exact_width(const std::vector<std::int64_t>& values) {
    auto all = [&](auto fits) { return std::all_of(values.begin(), values.end(), fits); };
    auto within = [](std::int64_t low, std::int64_t high) {
        return [=](std::int64_t value) { return value >= low && value <= high; };
    };
    if (all(within(0, 255)) || all(within(-128, 127))) return 1;
    if (all(within(0, 65535)) || all(within(-32768, 32767))) return 2;
    const bool fits_f32 =
        all([](std::int64_t value) { return static_cast<std::int64_t>(static_cast<float>(value)) == value; });
    if (all(within(0, 4294967295LL)) || all(within(-2147483648LL, 2147483647LL)) || fits_f32) return 4;
    return 8;
}

ValueType signed_type_of_width(std::size_t width) {
    switch (width) {
        case 1: return ValueType::I8;
        case 2: return ValueType::I16;
        case 4: return ValueType::I32;
        default: return ValueType::I64;
    }
}

TEST(AutomaticEncoding, PicksTheSmallestOfAllFourForRandomDensities) {
    std::mt19937_64 random(42);
    for (int trial = 0; trial < 200; ++trial) {
        const auto rows = static_cast<std::uint32_t>(1 + random() % 20);
        const auto cols = static_cast<std::uint32_t>(1 + random() % 20);
        const double density = static_cast<double>(random() % 101) / 100.0;
        const std::int64_t magnitude = std::int64_t{1} << (random() % 40);
        std::vector<std::int64_t> values(std::size_t{rows} * cols, 0);
        std::uint64_t entries = 0;
        for (auto& value : values) {
            if (std::uniform_real_distribution<double>(0, 1)(random) < density) {
                value = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(magnitude)) + 1;
                if (random() % 2) value = -value;
                ++entries;
            }
        }
        const std::size_t width = narrowest_exact_width(values);
        const auto bytes = write_one_block(DataType::DenseMatrix, rows, cols, values);
        const auto blocks = blocks_of(bytes);
        ASSERT_EQ(blocks.size(), 1u);
        // Block sizes depend on the value type's width only, so any type of the narrowest width gives the minimum.
        EXPECT_EQ(blocks[0].encoded_bytes, smallest_possible(rows, cols, entries, signed_type_of_width(width)))
            << "trial " << trial;
        if (entries > 0) {
            EXPECT_EQ(value_size(blocks[0].value_type), width) << "trial " << trial;
        }
        EXPECT_EQ(read_dense<std::int64_t>(bytes), values) << "trial " << trial;
    }
}

TEST(AutomaticEncoding, NarrowedFrameColumnsReadBackInTheirDeclaredTypes) {
    const std::vector<double> prices{1.5, 2.25, 0.0, -4.0};
    const std::vector<std::int64_t> counts{1, 2, 300, 4};
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_frame(4, {ValueType::F64, ValueType::I64}, {"price", "count"});
        writer.write_column(0, ValueType::F64, prices.data(), prices.size(), WriteOptions{});
        writer.write_column(1, ValueType::I64, counts.data(), counts.size(), WriteOptions{});
    });
    const auto blocks = blocks_of(bytes);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].value_type, ValueType::F32);
    EXPECT_EQ(blocks[1].value_type, ValueType::I16);  // signed source: the signed type of that width
    Reader reader = Reader::open_memory(bytes);
    std::vector<double> price_column(4);
    std::vector<std::int64_t> count_column(4);
    reader.read_dense_window(ValueType::F64, Window{0, 0, 4, 1}, price_column.data(), 4, 1);
    reader.read_dense_window(ValueType::I64, Window{0, 1, 4, 1}, count_column.data(), 4, 1);
    EXPECT_EQ(price_column, prices);
    EXPECT_EQ(count_column, counts);
}

}  // namespace
}  // namespace dbdf
