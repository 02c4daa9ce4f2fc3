// Rules of docs/format-rules.md concerning several parts at once: the writer's tile order (rule 3), zero-area CSR
// blocks (rules 4 and 12), explicit zeros in CSR output (rule 14) and frame values in their column's type (rules 15,
// 8).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::blocks_of;
using testing::Bytes;
using testing::write_to_memory;

const WriteOptions kAsGiven{Encoding::AsGiven, 0, 0};

using Positions = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

Positions positions_of(std::span<const std::byte> bytes) {
    Positions positions;
    for (const BlockView& block : blocks_of(bytes)) positions.emplace_back(block.row, block.col);
    return positions;
}

// 5 x 7 in 2 x 3 tiles: three tile rows of three tiles, ragged at the bottom and on the right.
const Positions kRowMajorTiles = {{0, 0}, {0, 3}, {0, 6}, {2, 0}, {2, 3}, {2, 6}, {4, 0}, {4, 3}, {4, 6}};

TEST(FormatRules, Rule3TiledWriteDenseEmitsRowMajorTileOrder) {
    std::vector<std::uint8_t> values(5 * 7);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint8_t>(i + 1);
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::U8, 5, 7);
        writer.write_dense(ValueType::U8, values.data(), values.size(), 0, WriteOptions{Encoding::Dense, 2, 3});
    });
    EXPECT_EQ(positions_of(bytes), kRowMajorTiles);
}

TEST(FormatRules, Rule3TiledWriteCsrEmitsRowMajorTileOrder) {
    // One entry per row, on the diagonal where it exists.
    const std::vector<std::uint64_t> row_offsets{0, 1, 2, 3, 4, 5};
    const std::vector<std::uint64_t> col_indices{0, 1, 2, 3, 4};
    const std::vector<double> values{1.5, 2.5, 3.5, 4.5, 5.5};
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 5, 7);
        writer.write_csr(ValueType::F64, row_offsets.data(), col_indices.data(), values.data(), values.size(),
                         WriteOptions{Encoding::Csr, 2, 3});
    });
    EXPECT_EQ(positions_of(bytes), kRowMajorTiles);
}

// A 3 x 1 f64 DenseMatrix: a 3 x 0 CSR block with the given per-row counts (#nzb 0), then an empty 3 x 1 block
// covering the cells.
Bytes zero_area_csr_object(std::uint32_t middle_row_count) {
    return Bytes()
        .matrix(1, 3, 1, 10)
        .block(0, 0, 3, 0, 2)
        .u8(10)
        .u64(0)
        .u32(0)
        .u32(middle_row_count)
        .u32(0)
        .block(0, 0, 3, 1, 0);
}

TEST(FormatRules, Rules4And12ZeroAreaCsrBlockWithoutEntriesReadsEverywhere) {
    const Bytes input = zero_area_csr_object(0);
    Reader reader = Reader::open_memory(input.span());
    EXPECT_EQ(reader.validate({}), 0u);
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().cols, 0u);
    std::uint64_t block_offsets[4] = {9, 9, 9, 9};
    EXPECT_EQ(reader.decode_csr(ValueType::F64, block_offsets, 4, nullptr, nullptr, 0), 0u);
    EXPECT_EQ(std::vector<std::uint64_t>(block_offsets, block_offsets + 4), (std::vector<std::uint64_t>{0, 0, 0, 0}));
    std::vector<double> dense(3, -1.0);
    reader.read_dense_window(ValueType::F64, Window{0, 0, 3, 1}, dense.data(), dense.size(), 0);
    EXPECT_EQ(dense, (std::vector<double>{0, 0, 0}));
    std::vector<std::uint64_t> row_offsets(4, 9);
    EXPECT_EQ(reader.read_csr(ValueType::F64, row_offsets.data(), row_offsets.size(), nullptr, nullptr, 0), 0u);
    EXPECT_EQ(row_offsets, (std::vector<std::uint64_t>{0, 0, 0, 0}));
}

void expect_rule_12_at_byte(const std::function<void()>& action, std::uint64_t offset, const char* path) {
    SCOPED_TRACE(path);
    try {
        action();
        ADD_FAILURE() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Format) << error.what();
        EXPECT_EQ(error.rule(), 12) << error.what();
        EXPECT_EQ(error.offset(), offset) << error.what();
    }
}

// A block without cells holds no entry (rule 4), so a non-zero row count contradicts #nzb 0 (rule 12). Every way
// of reading the object reports it the same way, at the offending count.
TEST(FormatRules, Rules4And12ZeroAreaCsrBlockWithARowCountFailsEverywhere) {
    const Bytes input = zero_area_csr_object(1);
    constexpr std::uint64_t kMiddleCount = 19 + 34 + 4;
    Reader reader = Reader::open_memory(input.span());
    expect_rule_12_at_byte([&] { reader.next_block(); }, kMiddleCount, "next_block");
    expect_rule_12_at_byte([&] { reader.build_index(); }, kMiddleCount, "build_index");
    expect_rule_12_at_byte([&] { reader.count_entries_total(); }, kMiddleCount, "count_entries_total");
    std::vector<double> dense(3);
    expect_rule_12_at_byte(
        [&] {
            reader.read_dense_window(ValueType::F64, Window{0, 0, 3, 1}, dense.data(), 3, 0);
        },
        kMiddleCount, "read_dense_window");
    std::vector<std::uint64_t> row_offsets(4);
    std::vector<std::uint64_t> col_indices(3);
    expect_rule_12_at_byte(
        [&] { reader.read_csr(ValueType::F64, row_offsets.data(), 4, col_indices.data(), dense.data(), 3); },
        kMiddleCount, "read_csr");
    std::vector<Violation> violations;
    reader.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].rule, 12);
    EXPECT_EQ(violations[0].offset, kMiddleCount);
}

TEST(FormatRules, Rules4And12ZeroAreaCsrBlockOfTheDaphneDialect) {
    // A 3 x 0 daphne CSR matrix whose rowOffsets are {0, 1, 0, 0}: offset 1 exceeds #nzb 0.
    const Bytes input = Bytes().matrix(2, 3, 0, 7).block(0, 0, 3, 0, 2).u8(7).u64(0).u64(0).u64(1).u64(0).u64(0);
    constexpr std::uint64_t kSecondOffset = 19 + 26 + 8 + 8;
    // The body of an object without cells is its row offsets alone, checked with the block record when the file is
    // opened: no later read would look at them.
    expect_rule_12_at_byte([&] { (void)Reader::open_memory(input.span(), Dialect::Daphne); }, kSecondOffset, "open");
}

// A 3 x 4 CSRMatrix of i32 with one 1 x 4 block per row: a CSR block holding an explicit zero at (0, 1), a dense
// block 0 7 0 0, a COO block holding an explicit zero at (2, 0).
std::vector<std::byte> blocks_with_explicit_zeros() {
    return write_to_memory([](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::I32, 3, 4);
        const std::uint64_t offsets[] = {0, 2};
        const std::uint32_t csr_cols[] = {1, 3};
        const std::int32_t csr_values[] = {0, 5};
        writer.add_csr({0, 0, 1, 4}, ValueType::I32, offsets, csr_cols, csr_values, 2, kAsGiven);
        const std::int32_t dense[] = {0, 7, 0, 0};
        writer.add_dense({1, 0, 1, 4}, ValueType::I32, dense, 4, 0, kAsGiven);
        const std::uint32_t coo_rows[] = {0, 0};
        const std::uint32_t coo_cols[] = {0, 2};
        const std::int32_t coo_values[] = {0, 9};
        writer.add_coo({2, 0, 1, 4}, ValueType::I32, coo_rows, coo_cols, coo_values, 2, kAsGiven);
    });
}

TEST(FormatRules, Rule14WholeObjectCsrKeepsExplicitZerosOfSparseBlocksOnly) {
    const auto bytes = blocks_with_explicit_zeros();
    const auto blocks = blocks_of(bytes);
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].block_type, BlockType::Csr);
    EXPECT_EQ(blocks[1].block_type, BlockType::Dense);
    EXPECT_EQ(blocks[2].block_type, BlockType::Coo);
    Reader reader = Reader::open_memory(bytes);
    EXPECT_EQ(reader.count_entries_total(), 5u);
    std::vector<std::uint64_t> row_offsets(4);
    std::vector<std::uint64_t> col_indices(5);
    std::vector<std::int32_t> values(5);
    ASSERT_EQ(reader.read_csr(ValueType::I32, row_offsets.data(), 4, col_indices.data(), values.data(), 5), 5u);
    EXPECT_EQ(row_offsets, (std::vector<std::uint64_t>{0, 2, 3, 5}));
    EXPECT_EQ(col_indices, (std::vector<std::uint64_t>{1, 3, 1, 0, 2}));
    EXPECT_EQ(values, (std::vector<std::int32_t>{0, 5, 7, 0, 9}));
}

TEST(FormatRules, Rule14BlockCsrAndCooKeepExplicitZerosOfSparseBlocksOnly) {
    const auto bytes = blocks_with_explicit_zeros();
    Reader reader = Reader::open_memory(bytes);
    struct Expected {
        std::uint64_t entries;
        std::vector<std::uint32_t> cols;
        std::vector<std::int32_t> values;
    };
    const Expected expected[] = {{2, {1, 3}, {0, 5}}, {1, {1}, {7}}, {2, {0, 2}, {0, 9}}};
    for (const Expected& block : expected) {
        ASSERT_TRUE(reader.next_block());
        SCOPED_TRACE(::testing::Message() << "block " << reader.block().index);
        EXPECT_EQ(reader.count_entries(), block.entries);
        std::uint64_t offsets[2];
        std::vector<std::uint32_t> cols(block.entries);
        std::vector<std::int32_t> values(block.entries);
        ASSERT_EQ(reader.decode_csr(ValueType::I32, offsets, 2, cols.data(), values.data(), block.entries),
                  block.entries);
        EXPECT_EQ(offsets[1], block.entries);
        EXPECT_EQ(cols, block.cols);
        EXPECT_EQ(values, block.values);
        std::vector<std::uint32_t> coo_rows(block.entries);
        ASSERT_EQ(reader.decode_coo(ValueType::I32, coo_rows.data(), cols.data(), values.data(), block.entries),
                  block.entries);
        EXPECT_EQ(cols, block.cols);
        EXPECT_EQ(values, block.values);
    }
}

// A 2-row frame with a u8 column "small" and an i64 column "big", held in one dense block of i16 values spanning
// both columns: `small` goes to column 0, then 300 and -1000 to column 1.
Bytes frame_with_i16_block(std::int16_t first_small, std::int16_t second_small) {
    return Bytes()
        .u8(1)
        .u8(3)
        .u64(2)
        .u64(2)
        .u8(1)
        .u8(8)
        .u16(5)
        .text("small")
        .u16(3)
        .text("big")
        .block(0, 0, 2, 2, 1)
        .u8(6)
        .u16(static_cast<std::uint16_t>(first_small))
        .u16(300)
        .u16(static_cast<std::uint16_t>(second_small))
        .u16(static_cast<std::uint16_t>(std::int16_t{-1000}));
}

TEST(FormatRules, Rule15FrameBlockValuesAreCheckedAgainstEachColumnsType) {
    // Fits: 7 and 255 in u8, 300 and -1000 in i64.
    const Bytes fitting = frame_with_i16_block(7, 255);
    Reader reader = Reader::open_memory(fitting.span());
    EXPECT_EQ(reader.validate({}), 0u);
    std::vector<std::int64_t> all(4);
    reader.read_dense_window(ValueType::I64, Window{0, 0, 2, 2}, all.data(), all.size(), 0);
    EXPECT_EQ(all, (std::vector<std::int64_t>{7, 300, 255, -1000}));

    // -1 in the u8 column (the same value would fit the i64 column): a range error naming rule 8.
    const Bytes negative = frame_with_i16_block(7, -1);
    constexpr std::uint64_t kBlockValues = 32 + 26;
    constexpr std::uint64_t kSecondSmall = kBlockValues + 2 * 2;
    Reader bad = Reader::open_memory(negative.span());
    try {
        bad.read_dense_window(ValueType::I64, Window{0, 0, 2, 2}, all.data(), all.size(), 0);
        FAIL() << "-1 was accepted in a u8 column";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Range) << error.what();
        EXPECT_EQ(error.rule(), 8) << error.what();
        EXPECT_EQ(error.offset(), kSecondSmall) << error.what();
        EXPECT_NE(std::string(error.what()).find("u8"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("rule 8"), std::string::npos) << error.what();
    }
    std::vector<Violation> violations;
    bad.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].code, ErrorCode::Range);
    EXPECT_EQ(violations[0].rule, 8);
    EXPECT_EQ(violations[0].offset, kSecondSmall);
    // The i64 column alone holds only values of its type.
    std::vector<std::int64_t> big(2);
    bad.read_dense_window(ValueType::I64, Window{0, 1, 2, 1}, big.data(), big.size(), 0);
    EXPECT_EQ(big, (std::vector<std::int64_t>{300, -1000}));
}

TEST(FormatRules, Rule15WriterChecksFrameBlockValuesPerColumn) {
    Writer writer(std::make_unique<MemorySink>());
    writer.begin_frame(2, {ValueType::U8, ValueType::I64}, {"small", "big"});
    const std::int16_t negative_in_small[] = {7, 300, -1, -1000};
    try {
        writer.add_dense({0, 0, 2, 2}, ValueType::I16, negative_in_small, 4, 0, kAsGiven);
        FAIL() << "-1 was accepted in a u8 column";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Range) << error.what();
        EXPECT_EQ(error.rule(), 8) << error.what();
        EXPECT_NE(std::string(error.what()).find("(1, 0)"), std::string::npos) << error.what();
    }
    // The writer stays usable; values that fit their own column's type are accepted.
    const std::int16_t fitting[] = {7, 300, 255, -1000};
    writer.add_dense({0, 0, 2, 2}, ValueType::I16, fitting, 4, 0, kAsGiven);
    writer.finish();
    const auto& bytes = static_cast<MemorySink&>(writer.sink()).bytes();
    EXPECT_EQ(bytes, frame_with_i16_block(7, 255).vector());
}

}  // namespace
}  // namespace dbdf
