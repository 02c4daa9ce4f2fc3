// A CSR block encoded from dense values (each row stored straight into the output buffer, its count patched
// afterwards) must hold the bytes that the same entries given as CSR arrays produce: that path is pinned by the
// golden byte tests. Every special value is placed at every column of rows whose widths straddle the groups of
// eight values the encoder passes over at once, in rows where every value is an entry (the encoder's worst case),
// across flushes of the output buffer, and in rows too wide for the buffer's worst case.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::write_to_memory;

template <class T>
bool bit_zero(T value) {
    return std::bit_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t,
                                            std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint8_t>>>(value) ==
           0;
}

// The block of `values` (rows x cols, row-major) written from the dense values and from CSR arrays of its
// bit-non-zero values, with the same encoding: both files' bytes.
template <class T>
std::pair<std::vector<std::byte>, std::vector<std::byte>> both_ways(const std::vector<T>& values, std::uint32_t rows,
                                                                    std::uint32_t cols, Encoding encoding) {
    std::vector<std::uint64_t> row_offsets{0};
    std::vector<std::uint32_t> col_indices;
    std::vector<T> entries;
    for (std::uint32_t r = 0; r < rows; ++r) {
        for (std::uint32_t c = 0; c < cols; ++c) {
            const T value = values[std::size_t{r} * cols + c];
            if (bit_zero(value)) continue;
            col_indices.push_back(c);
            entries.push_back(value);
        }
        row_offsets.push_back(entries.size());
    }
    const BlockPlacement place{0, 0, rows, cols};
    const WriteOptions options{encoding, 0, 0};
    const auto from_dense = write_to_memory([&](Writer& w) {
        w.begin_matrix(DataType::CsrMatrix, value_type_v<T>, rows, cols);
        w.add_dense(place, value_type_v<T>, values.data(), values.size(), 0, options);
    });
    const auto from_arrays = write_to_memory([&](Writer& w) {
        w.begin_matrix(DataType::CsrMatrix, value_type_v<T>, rows, cols);
        w.add_csr(place, value_type_v<T>, row_offsets.data(), col_indices.data(), entries.data(), entries.size(),
                  options);
    });
    return {from_dense, from_arrays};
}

// Row p holds `special` at column p and at column cols-1-p; a last row holds it in every column.
template <class T>
std::vector<T> special_at_every_column(T special, std::uint32_t cols) {
    std::vector<T> values(std::size_t{cols + 1} * cols, T{});
    for (std::uint32_t p = 0; p < cols; ++p) {
        values[std::size_t{p} * cols + p] = special;
        values[std::size_t{p} * cols + (cols - 1 - p)] = special;
        values[std::size_t{cols} * cols + p] = special;
    }
    return values;
}

const std::uint32_t kWidths[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100};

TEST(CsrFromDense, EverySpecialDoubleAtEveryColumnGivesTheBytesOfCsrArrays) {
    using Limits = std::numeric_limits<double>;
    const double specials[] = {
        -0.0,
        std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}),  // quiet NaN with a payload
        std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}),  // signalling NaN
        std::bit_cast<double>(std::uint64_t{0xfff8000000000abc}),  // negative NaN with a payload
        Limits::denorm_min(),
        -Limits::denorm_min(),
        Limits::infinity(),
        -Limits::infinity(),
        Limits::max(),
        Limits::lowest(),
        1.5,
    };
    for (const double special : specials) {
        for (const std::uint32_t cols : kWidths) {
            const auto [from_dense, from_arrays] =
                both_ways(special_at_every_column(special, cols), cols + 1, cols, Encoding::Csr);
            ASSERT_EQ(from_dense, from_arrays)
                << "value bits " << std::bit_cast<std::uint64_t>(special) << ", " << cols << " columns";
        }
    }
}

TEST(CsrFromDense, NarrowedAndOtherTypesGiveTheBytesOfCsrArrays) {
    for (const std::uint32_t cols : kWidths) {
        // Automatic encoding narrows these to u8 / i8 / u16, from either path; the widest rows come out as CSR.
        for (const double special : {200.0, -100.0, 1000.0}) {
            const auto [from_dense, from_arrays] =
                both_ways(special_at_every_column(special, cols), cols + 1, cols, Encoding::Auto);
            ASSERT_EQ(from_dense, from_arrays) << special << ", " << cols << " columns";
            if (cols == 100) {
                EXPECT_EQ(testing::blocks_of(from_dense).at(0).block_type, BlockType::Csr);
            }
        }
        const auto floats = both_ways(special_at_every_column(-0.0f, cols), cols + 1, cols, Encoding::Csr);
        ASSERT_EQ(floats.first, floats.second) << cols << " columns of float";
        const auto int64s = both_ways(special_at_every_column(std::numeric_limits<std::int64_t>::min(), cols), cols + 1,
                                      cols, Encoding::Csr);
        ASSERT_EQ(int64s.first, int64s.second) << cols << " columns of int64";
        const auto bytes = both_ways(special_at_every_column(std::uint8_t{255}, cols), cols + 1, cols, Encoding::Csr);
        ASSERT_EQ(bytes.first, bytes.second) << cols << " columns of uint8";
    }
}

// Automatic encoding of doubles no narrower type holds: the analysis collects the CSR payload while it counts,
// and the block is written from it. Rows of zeros come first (stored again once the values close the narrowing),
// and the specials sit at every column, each row with two other entries.
TEST(CsrFromDense, PayloadCollectedByTheAnalysisGivesTheBytesOfCsrArrays) {
    const double unnarrowable = 0.1;  // no float holds it
    const double specials[] = {
        -0.0,
        std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}),
        std::bit_cast<double>(std::uint64_t{0xfff0000000000003}),
        std::numeric_limits<double>::denorm_min(),
        -std::numeric_limits<double>::infinity(),
        1.5,
    };
    for (const double special : specials) {
        for (const std::uint32_t cols : {16u, 17u, 33u, 100u}) {
            constexpr std::uint32_t kZeroRows = 3;
            const std::uint32_t rows = kZeroRows + cols * 2;
            std::vector<double> values(std::size_t{rows} * cols, 0.0);
            values[std::size_t{kZeroRows} * cols + cols / 2] = unnarrowable;
            for (std::uint32_t p = 0; p < cols; ++p) {  // three entries per row: CSR beats COO
                double* row = values.data() + std::size_t{kZeroRows + 1 + p} * cols;
                row[p] = special;
                row[(p + 1) % cols] = unnarrowable;
                row[(p + 7) % cols] = unnarrowable;
            }
            const auto [from_dense, from_arrays] = both_ways(values, rows, cols, Encoding::Auto);
            ASSERT_EQ(from_dense, from_arrays) << std::bit_cast<std::uint64_t>(special) << ", " << cols << " columns";
            EXPECT_EQ(testing::blocks_of(from_dense).at(0).block_type, BlockType::Csr);
            EXPECT_EQ(testing::blocks_of(from_dense).at(0).value_type, ValueType::F64);
        }
    }
}

TEST(CsrFromDense, CollectionDroppedWhenTheBlockFillsUpGivesTheBytesOfCsrArrays) {
    // Sparse first rows start the collection; from row 40 on every other value is an entry, which outgrows the
    // collector's buffer (a quarter of the dense payload) before the block ends. The block stays sparse enough
    // for CSR to win, so it is encoded from the values.
    constexpr std::uint32_t rows = 100;
    constexpr std::uint32_t cols = 64;
    std::vector<double> values(std::size_t{rows} * cols, 0.0);
    for (std::uint32_t r = 0; r < rows; ++r) values[std::size_t{r} * cols + r % cols] = 0.1 * (r + 1);
    for (std::uint32_t r = 40; r < 60; ++r) {
        for (std::uint32_t c = 0; c < cols; c += 2) values[std::size_t{r} * cols + c] = 0.3;
    }
    const auto [from_dense, from_arrays] = both_ways(values, rows, cols, Encoding::Auto);
    ASSERT_EQ(from_dense, from_arrays);
    EXPECT_EQ(testing::blocks_of(from_dense).at(0).block_type, BlockType::Csr);
}

TEST(CsrFromDense, FullRowsAcrossBufferFlushesGiveTheBytesOfCsrArrays) {
    // Every value an entry: each row takes its worst case, 98 KiB, and the 1 MiB output buffer fills and flushes
    // about every tenth row, mid-block.
    constexpr std::uint32_t rows = 40;
    constexpr std::uint32_t cols = 8192;
    std::vector<double> values(std::size_t{rows} * cols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.5 + static_cast<double>(i % 977);
    const auto [from_dense, from_arrays] = both_ways(values, rows, cols, Encoding::Csr);
    ASSERT_EQ(from_dense, from_arrays);
    EXPECT_EQ(testing::read_dense<double>(from_dense), values);
}

TEST(CsrFromDense, RowsWiderThanTheBufferGiveTheBytesOfCsrArrays) {
    // 100,000 columns of doubles: a row's worst case (1.2 MB) exceeds the output buffer, so these rows take the
    // counting path; the last row is full, the others sparse.
    constexpr std::uint32_t rows = 3;
    constexpr std::uint32_t cols = 100000;
    std::vector<double> values(std::size_t{rows} * cols, 0.0);
    for (std::uint32_t c = 0; c < cols; c += 997) values[c] = -0.0;
    for (std::uint32_t c = 5; c < cols; c += 13) values[cols + c] = static_cast<double>(c);
    for (std::uint32_t c = 0; c < cols; ++c) values[std::size_t{2} * cols + c] = 1.25;
    const auto [from_dense, from_arrays] = both_ways(values, rows, cols, Encoding::Csr);
    ASSERT_EQ(from_dense, from_arrays);
    EXPECT_EQ(testing::bits_of(testing::read_dense<double>(from_dense)), testing::bits_of(values));
}

}  // namespace
}  // namespace dbdf
