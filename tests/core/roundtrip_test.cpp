// Write-then-read round trips over all value types x encodings x shapes, randomized with fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::bits_of;
using testing::read_dense;
using testing::write_to_memory;

// Random values of T, about half of them zero, with the type's extremes and (for floats) -0.0, infinities and
// NaNs with payloads mixed in.
template <class T>
std::vector<T> random_values(std::size_t count, std::uint32_t seed) {
    std::mt19937_64 random(seed);
    std::vector<T> values(count);
    for (auto& value : values) {
        const auto pick = random() % 16;
        if (pick < 8) {
            value = T{};
        } else if (pick == 8) {
            value = std::numeric_limits<T>::max();
        } else if (pick == 9) {
            value = std::numeric_limits<T>::lowest();
        } else if constexpr (std::is_floating_point_v<T>) {
            if (pick == 10)
                value = -T{0};
            else if (pick == 11)
                value = std::numeric_limits<T>::infinity();
            else if (pick == 12)
                value = std::bit_cast<T>(static_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(
                    sizeof(T) == 4 ? 0x7fc00123u : 0x7ff8000000000123ull));
            else
                value = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(random));
        } else {
            value = static_cast<T>(random());
        }
    }
    return values;
}

template <class T>
std::uint64_t detail_is_nonzero(T value) {
    std::vector<T> one{value};
    for (std::uint8_t byte : bits_of(one)) {
        if (byte != 0) return 1;
    }
    return 0;
}

template <class T>
class RoundTrip : public ::testing::Test {};

using AllValueTypes = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                       std::int16_t, std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(RoundTrip, AllValueTypes);

constexpr Encoding kEncodings[] = {Encoding::Auto, Encoding::AsGiven, Encoding::Dense, Encoding::Csr, Encoding::Coo};

struct Shape {
    std::uint64_t rows;
    std::uint64_t cols;
    std::uint32_t block_rows;
    std::uint32_t block_cols;
};

constexpr Shape kShapes[] = {
    {0, 0, 0, 0},     {0, 5, 0, 0}, {5, 0, 0, 0},
    {1, 1, 0, 0},     {3, 4, 0, 0}, {7, 1, 3, 1},  // single-column COO variant, ragged last tile
    {9, 11, 4, 3},                                 // ragged tiles both ways
    {16, 16, 16, 16},
};

TYPED_TEST(RoundTrip, DenseInputEveryEncodingAndShape) {
    using T = TypeParam;
    std::uint32_t seed = 1;
    for (const Shape& shape : kShapes) {
        for (Encoding encoding : kEncodings) {
            const auto values = random_values<T>(shape.rows * shape.cols, seed++);
            for (DataType data_type : {DataType::DenseMatrix, DataType::CsrMatrix}) {
                const auto bytes = write_to_memory([&](Writer& writer) {
                    writer.begin_matrix(data_type, value_type_v<T>, shape.rows, shape.cols);
                    writer.write_dense(value_type_v<T>, values.data(), values.size(), 0,
                                       WriteOptions{encoding, shape.block_rows, shape.block_cols});
                });
                SCOPED_TRACE(::testing::Message() << shape.rows << "x" << shape.cols << " encoding " << name(encoding));
                EXPECT_EQ(bits_of(read_dense<T>(bytes)), bits_of(values));
                Reader reader = Reader::open_memory(bytes);
                EXPECT_EQ(reader.validate({}), 0u);
            }
        }
    }
}

TYPED_TEST(RoundTrip, SparseInputsKeepExplicitZerosUnlessAutomatic) {
    using T = TypeParam;
    // 4 x 5 block: entries at (0,1), (0,4), (2,0), (3,3); (2,0) is an explicit zero.
    const std::vector<std::uint64_t> row_offsets{0, 2, 2, 3, 4};
    const std::vector<std::uint32_t> row_indices{0, 0, 2, 3};
    const std::vector<std::uint32_t> col_indices{1, 4, 0, 3};
    // The last value is the type's lowest, or 2 for unsigned types whose lowest is zero.
    const T lowest = std::numeric_limits<T>::lowest() == T{} ? T{2} : std::numeric_limits<T>::lowest();
    const std::vector<T> values{std::numeric_limits<T>::max(), T{1}, T{0}, lowest};
    std::vector<T> expected(20, T{});
    expected[1] = values[0];
    expected[4] = values[1];
    expected[15 + 3] = values[3];
    for (Encoding encoding : kEncodings) {
        for (bool from_coo : {false, true}) {
            const auto bytes = write_to_memory([&](Writer& writer) {
                writer.begin_matrix(DataType::CsrMatrix, value_type_v<T>, 4, 5);
                if (from_coo) {
                    writer.add_coo({0, 0, 4, 5}, value_type_v<T>, row_indices.data(), col_indices.data(), values.data(),
                                   4, WriteOptions{encoding});
                } else {
                    writer.add_csr({0, 0, 4, 5}, value_type_v<T>, row_offsets.data(), col_indices.data(), values.data(),
                                   4, WriteOptions{encoding});
                }
            });
            SCOPED_TRACE(::testing::Message()
                         << "encoding " << name(encoding) << (from_coo ? " from COO" : " from CSR"));
            EXPECT_EQ(bits_of(read_dense<T>(bytes)), bits_of(expected));
            Reader reader = Reader::open_memory(bytes);
            ASSERT_TRUE(reader.next_block());
            const bool sparse_kept =
                encoding == Encoding::Csr || encoding == Encoding::Coo || encoding == Encoding::AsGiven;
            if (sparse_kept) {
                EXPECT_EQ(reader.block().stored_values, 4u);  // the explicit zero survives
            }
            if (encoding == Encoding::Auto && reader.block().block_type != BlockType::Dense) {
                EXPECT_EQ(reader.block().stored_values, 3u);
            }
        }
    }
}

TYPED_TEST(RoundTrip, BlocksInShuffledOrderWithMixedEncodings) {
    using T = TypeParam;
    constexpr std::uint64_t kRows = 10;
    constexpr std::uint64_t kCols = 7;
    const auto values = random_values<T>(kRows * kCols, 99);
    std::vector<BlockPlacement> tiles;
    for (std::uint64_t r = 0; r < kRows; r += 3) {
        for (std::uint64_t c = 0; c < kCols; c += 4) {
            tiles.push_back({r, c, static_cast<std::uint32_t>(std::min<std::uint64_t>(3, kRows - r)),
                             static_cast<std::uint32_t>(std::min<std::uint64_t>(4, kCols - c))});
        }
    }
    std::mt19937 random(7);
    std::shuffle(tiles.begin(), tiles.end(), random);
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, value_type_v<T>, kRows, kCols);
        for (std::size_t i = 0; i < tiles.size(); ++i) {
            const BlockPlacement& tile = tiles[i];
            writer.add_dense(tile, value_type_v<T>, values.data() + tile.row * kCols + tile.col,
                             values.size() - (tile.row * kCols + tile.col), kCols,
                             WriteOptions{kEncodings[i % std::size(kEncodings)]});
        }
    });
    EXPECT_EQ(bits_of(read_dense<T>(bytes)), bits_of(values));
    const auto blocks = testing::blocks_of(bytes);
    ASSERT_EQ(blocks.size(), tiles.size());
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        EXPECT_EQ(blocks[i].row, tiles[i].row);
        EXPECT_EQ(blocks[i].col, tiles[i].col);
    }
}

TYPED_TEST(RoundTrip, WholeObjectCsrMatchesDenseNonZeros) {
    using T = TypeParam;
    constexpr std::uint64_t kRows = 13;
    constexpr std::uint64_t kCols = 9;
    const auto values = random_values<T>(kRows * kCols, 5);
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, value_type_v<T>, kRows, kCols);
        writer.write_dense(value_type_v<T>, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 5, 4});
    });
    Reader reader = Reader::open_memory(bytes);
    const std::uint64_t entries = reader.count_entries_total();
    std::vector<std::uint64_t> row_offsets(kRows + 1);
    std::vector<std::uint64_t> col_indices(entries);
    std::vector<T> csr_values(entries);
    ASSERT_EQ(reader.read_csr(value_type_v<T>, row_offsets.data(), row_offsets.size(), col_indices.data(),
                              csr_values.data(), csr_values.size()),
              entries);
    std::vector<T> rebuilt(kRows * kCols, T{});
    for (std::uint64_t row = 0; row < kRows; ++row) {
        for (std::uint64_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k) {
            if (k > row_offsets[row]) {
                EXPECT_LT(col_indices[k - 1], col_indices[k]);
            }
            rebuilt[row * kCols + col_indices[k]] = csr_values[k];
        }
    }
    EXPECT_EQ(bits_of(rebuilt), bits_of(values));
    std::uint64_t non_zero = 0;
    for (T v : values) non_zero += detail_is_nonzero(v);
    EXPECT_EQ(entries, non_zero);
}

// write_csr tiles object-wide CSR arrays into ragged 4 x 3 blocks. With the CSR encoding every tile is a CSR block
// holding exactly the entries given (explicit zeros included), so reading the object as CSR gives the arrays back.
TYPED_TEST(RoundTrip, WriteCsrTilesObjectWideArrays) {
    using T = TypeParam;
    constexpr std::uint64_t kRows = 9;
    constexpr std::uint64_t kCols = 11;
    const auto random = random_values<T>(kRows * kCols, 17);
    std::vector<std::uint64_t> row_offsets{0};
    std::vector<std::uint64_t> col_indices;
    std::vector<T> values;
    std::vector<T> dense(kRows * kCols, T{});
    for (std::uint64_t row = 0; row < kRows; ++row) {
        for (std::uint64_t col = (row % 3); col < kCols; col += 3) {  // about half of the values are zero
            col_indices.push_back(col);
            values.push_back(random[row * kCols + col]);
            dense[row * kCols + col] = values.back();
        }
        row_offsets.push_back(col_indices.size());
    }
    for (Encoding encoding : {Encoding::Csr, Encoding::Auto}) {
        SCOPED_TRACE(::testing::Message() << "encoding " << name(encoding));
        const auto bytes = write_to_memory([&](Writer& writer) {
            writer.begin_matrix(DataType::CsrMatrix, value_type_v<T>, kRows, kCols);
            writer.write_csr(value_type_v<T>, row_offsets.data(), col_indices.data(), values.data(), values.size(),
                             WriteOptions{encoding, 4, 3});
        });
        EXPECT_EQ(bits_of(read_dense<T>(bytes)), bits_of(dense));
        const auto blocks = testing::blocks_of(bytes);
        ASSERT_EQ(blocks.size(), 3u * 4u);
        EXPECT_EQ(blocks[5].row, 4u);
        EXPECT_EQ(blocks[5].col, 3u);
        EXPECT_EQ(blocks[11].rows, 1u);  // ragged corner: row 8, columns 9 and 10
        EXPECT_EQ(blocks[11].cols, 2u);
        Reader reader = Reader::open_memory(bytes);
        EXPECT_EQ(reader.validate({}), 0u);
        if (encoding != Encoding::Csr) continue;
        for (const BlockView& block : blocks) EXPECT_EQ(block.block_type, BlockType::Csr);
        std::vector<std::uint64_t> read_offsets(kRows + 1);
        std::vector<std::uint64_t> read_cols(values.size());
        std::vector<T> read_values(values.size());
        ASSERT_EQ(reader.read_csr(value_type_v<T>, read_offsets.data(), read_offsets.size(), read_cols.data(),
                                  read_values.data(), read_values.size()),
                  values.size());
        EXPECT_EQ(read_offsets, row_offsets);
        EXPECT_EQ(read_cols, col_indices);
        EXPECT_EQ(bits_of(read_values), bits_of(values));
    }
}

}  // namespace
}  // namespace dbdf
