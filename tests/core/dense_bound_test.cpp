// The count of a dense block's non-zeros stops at entries_that_rule_out_sparse (block_facts.cpp): the bound against
// its derivation from the record sizes, the plans on both sides of it, and blocks whose non-zeros sit exactly at the
// bound, one below it, or reach it in the middle of a row, written through the analysis and read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "block_encoder.hpp"
#include "block_facts.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf::detail {
namespace {

using dbdf::testing::bits_of;
using dbdf::testing::blocks_of;
using dbdf::testing::read_dense;
using dbdf::testing::write_to_memory;

std::uint64_t rounded_up_quotient(std::int64_t numerator, std::int64_t denominator) {
    return numerator <= 0 ? 0 : static_cast<std::uint64_t>((numerator + denominator - 1) / denominator);
}

// The bound as the comment in block_facts.cpp derives it from the record sizes.
std::uint64_t bound_from_formulas(std::uint32_t rows, std::uint32_t cols, ValueType type) {
    const auto s = static_cast<std::int64_t>(value_size(type));
    const std::int64_t dense_values = std::int64_t{rows} * cols * s;
    const std::int64_t index_bytes = cols == 1 ? 4 : 8;
    const std::uint64_t csr = rounded_up_quotient(dense_values - 4 * std::int64_t{rows} - 8, 4 + s);
    const std::uint64_t coo = std::min(rounded_up_quotient(dense_values - 4, index_bytes + s), kMaxBlockExtent + 1);
    const std::uint64_t bound = std::max({std::uint64_t{1}, csr, coo});
    return bound > std::uint64_t{rows} * cols ? UINT64_MAX : bound;
}

TEST(DenseBound, MatchesTheFormulasAndSplitsThePlansForEveryTypeAndShape) {
    struct Shape {
        std::uint32_t rows;
        std::uint32_t cols;
    };
    // Single cells, single rows and columns (COO's single-column variant), small odd blocks, the automatic tile of
    // a wide matrix of doubles, and blocks of 2^32 cells or more, where COO runs out of entries.
    const std::vector<Shape> shapes{{1, 1},    {1, 2},         {2, 1},         {1, 7},           {7, 1},
                                    {3, 5},    {40, 50},       {100, 1},       {1, 100000},      {32, 16384},
                                    {4096, 1}, {65535, 65535}, {65536, 65536}, {0xFFFFFFFFu, 3}, {2, 0xFFFFFFFFu}};
    int dense_possible = 0;
    for (const Shape shape : shapes) {
        const BlockPosition position{0, 0, shape.rows, shape.cols};
        for (const ValueTypeInfo& info : kValueTypeInfos) {
            const std::string what =
                std::to_string(shape.rows) + " x " + std::to_string(shape.cols) + " " + std::string(name(info.type));
            const std::uint64_t bound = entries_that_rule_out_sparse(shape.rows, shape.cols, info.type);
            EXPECT_EQ(bound, bound_from_formulas(shape.rows, shape.cols, info.type)) << what;
            const std::uint64_t cells = std::uint64_t{shape.rows} * shape.cols;
            if (bound == UINT64_MAX) {  // even a full block is smaller sparse
                EXPECT_NE(smallest_plan(position, cells, info.type).block_type, BlockType::Dense) << what;
                continue;
            }
            ++dense_possible;
            ASSERT_GE(bound, 1u) << what;
            ASSERT_LE(bound, cells) << what;
            EXPECT_EQ(smallest_plan(position, bound, info.type).block_type, BlockType::Dense) << what;
            EXPECT_EQ(smallest_plan(position, cells, info.type).block_type, BlockType::Dense) << what;
            const BlockType below = smallest_plan(position, bound - 1, info.type).block_type;
            EXPECT_NE(below, BlockType::Dense) << what;
            if (bound > 1) {
                EXPECT_NE(below, BlockType::Empty) << what;
            }
        }
    }
    EXPECT_GT(dense_possible, 100);
    // The figure the derivation quotes: a 32 x 16384 tile of doubles is dense from two thirds of its cells on.
    EXPECT_EQ(entries_that_rule_out_sparse(32, 16384, ValueType::F64), 349514u);
}

// A rows x cols block of doubles with values at the given cells, zeros elsewhere; no value is an integer or a
// float (0.1 + i), so the narrowing analysis closes on the first and the block keeps f64.
std::vector<double> block_with_nonzeros(std::uint32_t rows, std::uint32_t cols, const std::vector<std::size_t>& cells) {
    std::vector<double> values(std::size_t{rows} * cols, 0.0);
    for (std::size_t i = 0; i < cells.size(); ++i) values[cells[i]] = 0.1 + static_cast<double>(i);
    return values;
}

ObjectHeader f64_matrix_header(std::uint32_t rows, std::uint32_t cols) {
    ObjectHeader header;
    header.data_type = DataType::DenseMatrix;
    header.value_type = ValueType::F64;
    header.rows = rows;
    header.cols = cols;
    return header;
}

std::vector<std::size_t> first_cells(std::uint64_t count) {
    std::vector<std::size_t> cells(count);
    for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = i;
    return cells;
}

TEST(DenseBound, BlocksAtTheBoundAndOneBelowGetTheExactPlan) {
    constexpr std::uint32_t kRows = 40;
    constexpr std::uint32_t kCols = 50;
    const std::uint64_t bound = entries_that_rule_out_sparse(kRows, kCols, ValueType::F64);
    ASSERT_EQ(bound, 1320u);  // CSR: (16000 - 160 - 8) / 12 = 1319.3; COO: (16000 - 4) / 16 = 999.75
    const BlockPosition position{0, 0, kRows, kCols};
    struct Case {
        const char* what;
        std::vector<std::size_t> cells;
        bool count_stops = false;  // non-zeros lie past the row that reaches the bound
    };
    std::vector<std::size_t> last_cell_late = first_cells(bound - 2);
    last_cell_late.push_back(std::size_t{kRows} * kCols - 1);  // the count must reach the last cell to see it
    std::vector<std::size_t> bound_mid_row = first_cells(bound);
    for (std::size_t& cell : bound_mid_row) cell += kCols / 2;  // the bound is reached inside row 26
    const std::vector<Case> cases{{"one below the bound", first_cells(bound - 1)},
                                  {"one below, the last in the last cell", last_cell_late},
                                  {"at the bound", first_cells(bound)},
                                  {"at the bound, reached in the middle of a row", bound_mid_row},
                                  {"one above the bound", first_cells(bound + 1)},
                                  {"every cell", first_cells(std::uint64_t{kRows} * kCols), true}};
    const ObjectHeader header = f64_matrix_header(kRows, kCols);
    const BlockPlacement place{0, 0, kRows, kCols};
    for (const Case& one : cases) {
        SCOPED_TRACE(one.what);
        const std::vector<double> values = block_with_nonzeros(kRows, kCols, one.cells);
        const std::uint64_t nonzero = one.cells.size();
        const EncodingPlan exact = smallest_plan(position, nonzero, ValueType::F64);
        EXPECT_EQ(exact.block_type, nonzero >= bound ? BlockType::Dense : BlockType::Csr);

        const BlockFacts facts = analyze<double>(DenseSource<double>{values.data(), kRows, kCols, kCols},
                                                 DeclaredTypes<double>(header, place), FactsWanted::All, nullptr);
        // Below the bound every non-zero is counted; from it on the count may stop at the end of the row that
        // reaches it, never before.
        if (nonzero < bound) {
            EXPECT_EQ(facts.entries, nonzero);
        } else {
            EXPECT_GE(facts.entries, bound);
            EXPECT_LE(facts.entries, nonzero);
            // Rows 0 to 26 hold the bound's 1320 cells: the count ends with row 26.
            if (one.count_stops) {
                EXPECT_EQ(facts.entries, 27u * kCols);
            }
        }
        const EncodingPlan planned =
            smallest_plan(position, facts.entries, narrowest_type(facts.feasible, ValueType::F64));
        EXPECT_EQ(planned.block_type, exact.block_type);
        EXPECT_EQ(planned.value_type, ValueType::F64);
        EXPECT_EQ(encoded_record_bytes(position, planned), encoded_record_bytes(position, exact));

        for (unsigned threads : {1u, 2u}) {
            const auto bytes = write_to_memory([&](Writer& writer) {
                writer.set_encode_threads(threads);
                writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
                writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
            });
            const auto blocks = blocks_of(bytes);
            ASSERT_EQ(blocks.size(), 1u);
            EXPECT_EQ(blocks[0].block_type, exact.block_type) << threads << " threads";
            EXPECT_EQ(blocks[0].encoded_bytes, encoded_record_bytes(position, exact)) << threads << " threads";
            EXPECT_EQ(bits_of(read_dense<double>(bytes)), bits_of(values)) << threads << " threads";
        }
    }
}

// The count stops only once no narrower type can hold the values: integers that still fit one byte are counted and
// analysed to the end, past the bound of their own width, so a late value that widens them is seen.
TEST(DenseBound, NoStopWhileANarrowerTypeIsStillPossible) {
    constexpr std::uint32_t kRows = 40;
    constexpr std::uint32_t kCols = 50;
    std::vector<double> values(std::size_t{kRows} * kCols, 7.0);
    values.back() = 70000.0;  // needs four bytes: f32 (the source's family first), u32, i32
    const BlockPosition position{0, 0, kRows, kCols};
    const ObjectHeader header = f64_matrix_header(kRows, kCols);
    const BlockPlacement place{0, 0, kRows, kCols};
    const BlockFacts facts = analyze<double>(DenseSource<double>{values.data(), kRows, kCols, kCols},
                                             DeclaredTypes<double>(header, place), FactsWanted::All, nullptr);
    EXPECT_EQ(facts.entries, values.size());
    const EncodingPlan planned = smallest_plan(position, facts.entries, narrowest_type(facts.feasible, ValueType::F64));
    EXPECT_EQ(planned.block_type, BlockType::Dense);
    EXPECT_EQ(planned.value_type, ValueType::F32);
}

}  // namespace
}  // namespace dbdf::detail
