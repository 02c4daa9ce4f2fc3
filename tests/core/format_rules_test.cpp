// FORMAT-RULES that concern several parts at once: zero-area CSR blocks (rules 4 and 12).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

// A 3 x 1 f64 DenseMatrix: a 3 x 0 CSR block with the given per-row counts (#nzb 0), then an empty 3 x 1 block
// covering the cells.
Bytes zero_area_csr_object(std::uint32_t middle_row_count) {
    return Bytes().matrix(1, 3, 1, 10).block(0, 0, 3, 0, 2).u8(10).u64(0).u32(0).u32(middle_row_count).u32(0)
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
    expect_rule_12_at_byte([&] { reader.read_dense_window(ValueType::F64, Window{0, 0, 3, 1}, dense.data(), 3, 0); },
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
    Reader reader = Reader::open_memory(input.span(), Dialect::Daphne);
    expect_rule_12_at_byte([&] { reader.next_block(); }, kSecondOffset, "next_block");
    std::vector<Violation> violations;
    reader.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].rule, 12);
    EXPECT_EQ(violations[0].offset, kSecondOffset);
}

}  // namespace
}  // namespace dbdf
