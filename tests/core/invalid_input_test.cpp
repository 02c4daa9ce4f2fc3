// One test per class of malformed input: each fails with a clear error naming the rule and byte offset, at the
// stage where it can be seen (open, block iteration, or payload decoding / validation), and never allocates by a
// size field.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

struct Expected {
    ErrorCode code;
    int rule;
    std::uint64_t offset;
};

void expect_error(const std::function<void()>& action, Expected expected) {
    try {
        action();
        FAIL() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), expected.code) << error.what();
        EXPECT_EQ(error.rule(), expected.rule) << error.what();
        EXPECT_EQ(error.offset(), expected.offset) << error.what();
        EXPECT_NE(std::string(error.what()).find("byte " + std::to_string(expected.offset)), std::string::npos)
            << error.what();
    }
}

// Iterates all blocks (checking the layout), then validates; both must report `expected`.
void expect_iteration_error(const Bytes& input, Expected expected) {
    expect_error(
        [&] {
            Reader reader = Reader::open_memory(input.span());
            while (reader.next_block()) {}
        },
        expected);
    Reader reader = Reader::open_memory(input.span());
    std::vector<Violation> violations;
    reader.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_FALSE(violations.empty());
    EXPECT_EQ(violations[0].rule, expected.rule) << violations[0].message;
    EXPECT_EQ(violations[0].offset, expected.offset) << violations[0].message;
}

// Layout is fine; decoding the payload (and validation) must report `expected`.
void expect_decode_error(const Bytes& input, Expected expected) {
    Reader reader = Reader::open_memory(input.span());
    const auto& index = reader.build_index();
    ASSERT_FALSE(index.empty());
    expect_error(
        [&] {
            std::vector<double> out(reader.header().rows * reader.header().cols);
            reader.read_dense_window(ValueType::F64, Window{0, 0, reader.header().rows, reader.header().cols},
                                     out.data(), out.size(), 0);
        },
        expected);
    std::vector<Violation> violations;
    reader.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].rule, expected.rule) << violations[0].message;
    EXPECT_EQ(violations[0].offset, expected.offset) << violations[0].message;
}

TEST(InvalidInput, TruncatedHeader) {
    expect_error([] { Reader::open_memory(Bytes().u8(1).u8(1).u64(4).span()); }, {ErrorCode::Truncated, 0, 10});
}

TEST(InvalidInput, BadVersionAndReservedCodes) {
    expect_error([] { Reader::open_memory(Bytes().u8(2).u8(1).u64(1).u64(1).u8(10).span()); },
                 {ErrorCode::Format, 6, 0});
    expect_error([] { Reader::open_memory(Bytes().matrix(0, 1, 1, 10).span()); }, {ErrorCode::Format, 6, 1});
    expect_error([] { Reader::open_memory(Bytes().matrix(7, 1, 1, 10).span()); }, {ErrorCode::Format, 0, 1});
    expect_error([] { Reader::open_memory(Bytes().matrix(1, 1, 1, 0).span()); }, {ErrorCode::Format, 6, 18});
    expect_error([] { Reader::open_memory(Bytes().matrix(1, 1, 1, 11).span()); }, {ErrorCode::Format, 0, 18});
}

TEST(InvalidInput, UnknownBlockTypeAndBlockValueType) {
    expect_iteration_error(Bytes().matrix(1, 1, 1, 10).block(0, 0, 1, 1, 4), {ErrorCode::Format, 0, 19 + 24});
    expect_iteration_error(Bytes().matrix(1, 1, 1, 10).block(0, 0, 1, 1, 1).u8(0).f64(1),
                           {ErrorCode::Format, 6, 19 + 25});
    expect_iteration_error(Bytes().matrix(1, 1, 1, 10).block(0, 0, 1, 1, 1).u8(42).f64(1),
                           {ErrorCode::Format, 0, 19 + 25});
}

TEST(InvalidInput, TruncatedBlockHeaderAndPayload) {
    // 10 trailing bytes cannot form a block header (rule 5).
    expect_iteration_error(Bytes().matrix(1, 1, 1, 10).u64(0).u16(0), {ErrorCode::Truncated, 5, 19});
    // The dense payload is one value short.
    expect_iteration_error(Bytes().matrix(1, 1, 2, 10).block(0, 0, 1, 2, 1).u8(10).f64(1),
                           {ErrorCode::Truncated, 5, 19});
    // Complete block followed by partial bytes of another (rule 5).
    expect_iteration_error(Bytes().matrix(1, 1, 1, 10).block(0, 0, 1, 1, 1).u8(10).f64(1).u8(0),
                           {ErrorCode::Truncated, 5, 19 + 34});
}

TEST(InvalidInput, BlockOutOfBounds) {
    expect_iteration_error(Bytes().matrix(1, 2, 2, 10).block(1, 0, 2, 2, 0), {ErrorCode::Format, 2, 19});
    // rx + #r overflows 64 bits: still out of bounds, not wrapped around.
    expect_iteration_error(Bytes().matrix(1, 2, 2, 10).block(~0ull, 0, 2, 2, 0), {ErrorCode::Format, 2, 19});
}

TEST(InvalidInput, OverlappingAndUncoveredCells) {
    expect_iteration_error(Bytes().matrix(1, 2, 2, 10).block(0, 0, 2, 2, 0).block(1, 1, 1, 1, 0),
                           {ErrorCode::Format, 1, 19 + 25});
    const Bytes uncovered = Bytes().matrix(1, 2, 2, 10).block(0, 0, 2, 1, 0);
    expect_iteration_error(uncovered, {ErrorCode::Format, 1, uncovered.size()});
}

TEST(InvalidInput, CsrCountsAndColumnIndices) {
    // #nzb 2 but the rows hold 1 entry.
    expect_decode_error(
        Bytes().matrix(2, 2, 2, 10).block(0, 0, 2, 2, 2).u8(10).u64(2).u32(1).u32(0).f64(1).u32(0).u32(0).u32(0).u32(0),
        {ErrorCode::Format, 12, 19 + 26});
    // Columns 1 then 0 in row 0.
    expect_decode_error(
        Bytes().matrix(2, 2, 2, 10).block(0, 0, 2, 2, 2).u8(10).u64(2).u32(2).u32(1).f64(1).u32(0).f64(2).u32(0),
        {ErrorCode::Format, 12, 19 + 34 + 4 + 12});
    // Column 2 in a 2-column block.
    expect_decode_error(Bytes().matrix(2, 2, 2, 10).block(0, 0, 2, 2, 2).u8(10).u64(1).u32(1).u32(2).f64(1).u32(0),
                        {ErrorCode::Format, 12, 19 + 34 + 4});
    // #nzb larger than the block's cells fails already at iteration.
    expect_iteration_error(Bytes().matrix(2, 2, 2, 10).block(0, 0, 2, 2, 2).u8(10).u64(5),
                           {ErrorCode::Format, 12, 19 + 26});
}

TEST(InvalidInput, CooOrderAndRange) {
    // Multi-column variant: (1, 0) then (0, 1).
    expect_decode_error(
        Bytes().matrix(2, 2, 2, 10).block(0, 0, 2, 2, 3).u8(10).u32(2).u32(1).u32(0).f64(1).u32(0).u32(1).f64(2),
        {ErrorCode::Format, 13, 19 + 30 + 16});
    // Single-column variant: row 3 in a 3-row block.
    expect_decode_error(Bytes().matrix(1, 3, 1, 10).block(0, 0, 3, 1, 3).u8(10).u32(1).u32(3).f64(1),
                        {ErrorCode::Format, 13, 19 + 30});
    // Duplicate entry.
    expect_decode_error(Bytes().matrix(1, 3, 1, 10).block(0, 0, 3, 1, 3).u8(10).u32(2).u32(1).f64(1).u32(1).f64(2),
                        {ErrorCode::Format, 13, 19 + 30 + 12});
}

TEST(InvalidInput, ValueNotRepresentableInTheObjectsType) {
    // A u16 block holding 300 inside a u8 object (rule 8).
    expect_decode_error(Bytes().matrix(1, 1, 2, 1).block(0, 0, 1, 2, 1).u8(2).u16(7).u16(300),
                        {ErrorCode::Range, 8, 19 + 26 + 2});
    // An f64 block holding 0.5 inside an i32 object.
    expect_decode_error(Bytes().matrix(1, 1, 1, 7).block(0, 0, 1, 1, 1).u8(10).f64(0.5),
                        {ErrorCode::Range, 8, 19 + 26});
}

TEST(InvalidInput, LabelRunningPastTheEnd) {
    expect_error(
        [] {
            Reader::open_memory(
                Bytes().u8(1).u8(3).u64(0).u64(2).u8(10).u8(10).u16(1).text("a").u16(3).text("b").span());
        },
        {ErrorCode::Truncated, 16, 23});
}

TEST(InvalidInput, AbsurdSizesFailFastWithoutAllocating) {
    // 2^63 rows: the header is well-formed; the one (tiny) block cannot cover it.
    const Bytes huge = Bytes().matrix(1, std::uint64_t{1} << 63, 1, 10).block(0, 0, 1, 1, 0);
    expect_iteration_error(huge, {ErrorCode::Format, 1, huge.size()});
    Reader reader = Reader::open_memory(huge.span());
    double one = 0;
    try {
        reader.read_dense_window(ValueType::F64, Window{0, 0, std::uint64_t{1} << 63, 1}, &one, 1, 0);
        FAIL() << "a one-element buffer accepted 2^63 rows";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::BufferTooSmall) << error.what();
    }
    // A CSR block claiming 2^62 entries, and a dense block of (2^32-1)^2 values, in small inputs.
    expect_iteration_error(
        Bytes().matrix(2, ~0ull, ~0ull, 10).block(0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 2).u8(10).u64(std::uint64_t{1} << 62),
        {ErrorCode::Truncated, 5, 19});
    expect_iteration_error(Bytes().matrix(1, ~0ull, ~0ull, 10).block(0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 1).u8(10),
                           {ErrorCode::Truncated, 5, 19});
    // 2^63 frame columns in a 40-byte input.
    Bytes frame = Bytes().u8(1).u8(3).u64(1).u64(std::uint64_t{1} << 63);
    while (frame.size() < 40) frame.u8(10);
    expect_error([&] { Reader::open_memory(frame.span()); }, {ErrorCode::Truncated, 7, 10});
}

// After an error, next_block repeats it and the reader stays on the last good block; rewind clears the error, so
// iteration starts over from the first block (and meets the same bad block again).
TEST(InvalidInput, ErrorsRepeatUntilRewindStartsOver) {
    const Bytes input = Bytes().matrix(1, 1, 2, 10).block(0, 0, 1, 1, 0).block(0, 1, 1, 1, 4);
    constexpr std::uint64_t kBadBlockType = 19 + 25 + 24;
    Reader reader = Reader::open_memory(input.span());
    ASSERT_TRUE(reader.next_block());
    for (int attempt = 0; attempt < 2; ++attempt) {
        expect_error([&] { reader.next_block(); }, {ErrorCode::Format, 0, kBadBlockType});
        ASSERT_TRUE(reader.has_block());
        EXPECT_EQ(reader.block().index, 0u);
    }
    reader.rewind();
    EXPECT_FALSE(reader.has_block());
    ASSERT_TRUE(reader.next_block());  // the error no longer stands in the way
    EXPECT_EQ(reader.block().index, 0u);
    expect_error([&] { reader.next_block(); }, {ErrorCode::Format, 0, kBadBlockType});
}

}  // namespace
}  // namespace dbdf

namespace dbdf {
namespace {

// Found by fuzzing: a 0-column dense block claiming 2^31 rows made validation walk every (empty) row.
TEST(InvalidInput, ZeroAreaBlockWithHugeRowCountCostsNothing) {
    const testing::Bytes input = testing::Bytes()
                                     .matrix(1, 0x80000000u, 1, 1)
                                     .block(0, 0, 0x80000000u, 0, 1)
                                     .u8(8)
                                     .block(0, 0, 0x80000000u, 1, 0);
    Reader reader = Reader::open_memory(input.span());
    EXPECT_EQ(reader.validate({}), 0u);  // rule 4: zero-area blocks are accepted
    EXPECT_EQ(reader.count_entries_total(), 0u);
    std::uint8_t value = 1;
    reader.read_dense_window(ValueType::U8, Window{0x7FFFFFFFu, 0, 1, 1}, &value, 1, 0);
    EXPECT_EQ(value, 0);
}

}  // namespace
}  // namespace dbdf
