// A block of doubles that narrows to f32 under automatic encoding is written from the floats the analysis stored
// while it scanned the values (BlockFacts::floats), not converted a second time. Its bytes must be those of the
// same values given as floats in a dense f32 block: every special value a float holds is placed on both sides of
// each chunk boundary of the rows (the analysis works chunk by chunk), at the block's first and last cell, and in
// blocks whose first chunk is all integers (which store their low bytes instead, so the block is converted after
// the analysis as before) or that a value no float holds keeps at f64.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "value_scan.hpp"

namespace dbdf {
namespace {

using testing::write_to_memory;

constexpr std::uint32_t kRows = 3;
constexpr std::uint32_t kCols = 2 * detail::kScanChunk + 9;  // two whole chunks and a short one per row

// The matrix written from its doubles with automatic encoding, and the same values as one block of `type` with the
// dense encoding (floats for f32): both files' bytes.
std::pair<std::vector<std::byte>, std::vector<std::byte>> automatic_and_dense(const std::vector<double>& values,
                                                                              ValueType type) {
    std::vector<float> floats;
    for (double value : values) floats.push_back(static_cast<float>(value));
    const BlockPlacement place{0, 0, kRows, kCols};
    const auto automatic = write_to_memory([&](Writer& w) {
        w.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        w.add_dense(place, ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 0, 0});
    });
    const auto dense = write_to_memory([&](Writer& w) {
        w.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        const void* given = type == ValueType::F32 ? static_cast<const void*>(floats.data()) : values.data();
        w.add_dense(place, type, given, values.size(), 0, WriteOptions{Encoding::Dense, 0, 0});
    });
    return {automatic, dense};
}

// Quarters and eighths: never integral, every one a float exactly.
std::vector<double> fractions() {
    std::vector<double> values(std::size_t{kRows} * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 13) * 0.25 + 0.125;
    return values;
}

std::vector<double> specials_a_float_holds() {
    const auto from_bits = [](std::uint64_t bits) { return std::bit_cast<double>(bits); };
    return {0.0,
            -0.0,
            std::numeric_limits<double>::quiet_NaN(),
            -std::numeric_limits<double>::quiet_NaN(),
            from_bits(0x7FF8000020000000),  // a quiet NaN whose payload a float holds
            from_bits(0xFFFC0000E0000000),
            std::numeric_limits<double>::infinity(),
            -std::numeric_limits<double>::infinity(),
            static_cast<double>(std::numeric_limits<float>::denorm_min()),
            -static_cast<double>(std::numeric_limits<float>::denorm_min()),
            static_cast<double>(std::numeric_limits<float>::min()),
            static_cast<double>(std::numeric_limits<float>::max()),
            -static_cast<double>(std::numeric_limits<float>::max()),
            static_cast<double>(0.1f),
            16777216.0,
            -1.0,
            255.0,
            1e30f};
}

// Cells on both sides of every chunk boundary of the middle row, and the block's first and last cells.
std::vector<std::size_t> cells_at_boundaries() {
    std::vector<std::size_t> cells{0, std::size_t{kRows} * kCols - 1};
    const std::size_t row_start = kCols;
    for (std::size_t column :
         {std::size_t{0}, std::size_t{1}, detail::kScanChunk - 1, detail::kScanChunk, detail::kScanChunk + 1,
          2 * detail::kScanChunk - 1, 2 * detail::kScanChunk, std::size_t{kCols} - 1}) {
        cells.push_back(row_start + column);
    }
    return cells;
}

TEST(NarrowingToF32, BlockFromTheStoredFloatsHoldsTheBytesOfTheFloats) {
    for (double special : specials_a_float_holds()) {
        for (std::size_t cell : cells_at_boundaries()) {
            std::vector<double> values = fractions();
            values[cell] = special;
            const auto [automatic, dense] = automatic_and_dense(values, ValueType::F32);
            ASSERT_EQ(automatic, dense) << "bits " << std::bit_cast<std::uint64_t>(special) << " at cell " << cell;
        }
    }
}

TEST(NarrowingToF32, BlockWhoseFirstChunkIsIntegersIsConvertedAsBefore) {
    std::vector<double> values = fractions();
    for (std::size_t i = 0; i < detail::kScanChunk; ++i) values[i] = 1000.0 + static_cast<double>(i);
    for (std::size_t cell : cells_at_boundaries()) {
        std::vector<double> with_zero = values;
        with_zero[cell] = -0.0;
        const auto [automatic, dense] = automatic_and_dense(with_zero, ValueType::F32);
        ASSERT_EQ(automatic, dense) << "-0.0 at cell " << cell;
    }
}

// A value no float holds, after the floats of earlier chunks were stored: the block stays f64.
TEST(NarrowingToF32, ValueNoFloatHoldsKeepsTheBlockAtF64) {
    const auto from_bits = [](std::uint64_t bits) { return std::bit_cast<double>(bits); };
    for (double special : {0.1, from_bits(0x7FF0000000000001), from_bits(0x7FF8000000000001), from_bits(1),
                           static_cast<double>(std::numeric_limits<float>::max()) * 2}) {
        for (std::size_t cell : cells_at_boundaries()) {
            std::vector<double> values = fractions();
            values[cell] = special;
            const auto [automatic, dense] = automatic_and_dense(values, ValueType::F64);
            ASSERT_EQ(automatic, dense) << "bits " << std::bit_cast<std::uint64_t>(special) << " at cell " << cell;
        }
    }
}

}  // namespace
}  // namespace dbdf
