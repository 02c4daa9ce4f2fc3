// The reader on layouts of many blocks whose extents vary: indexing, iterating and validating take O(n log n)
// (a hang here is what the CTest timeout would catch), and an overlap among them is still found and named.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

// An n x n u8 matrix whose column j is split into an empty block of rows [0, j + 1) and one of rows [j + 1, n),
// column by column: 2n - 1 blocks of 25 bytes.
Bytes staircase(std::uint32_t n) {
    Bytes bytes = Bytes().matrix(1, n, n, 1);
    for (std::uint32_t j = 0; j < n; ++j) {
        bytes.block(0, j, j + 1, 1, 0);
        if (j + 1 < n) bytes.block(j + 1, j, n - j - 1, 1, 0);
    }
    return bytes;
}

TEST(ReaderLayout, AStaircaseOf60000BlocksIsIndexedIteratedAndValidated) {
    constexpr std::uint32_t kColumns = 30000;
    const Bytes input = staircase(kColumns);
    Reader reader = Reader::open_memory(input.span());
    std::uint64_t blocks = 0;
    while (reader.next_block()) ++blocks;
    EXPECT_EQ(blocks, 2u * kColumns - 1);
    EXPECT_EQ(reader.validate({}), 0u);
    Reader indexed = Reader::open_memory(input.span());
    EXPECT_EQ(indexed.build_index().size(), 2u * kColumns - 1);
    // Column 7 holds the blocks of rows [0, 8) and [8, n); a window of rows 6 to 9 of it reads both.
    std::vector<std::uint8_t> values(4, 9);
    indexed.read_dense_window(ValueType::U8, Window{6, 7, 4, 1}, values.data(), values.size(), 0);
    EXPECT_EQ(values, (std::vector<std::uint8_t>{0, 0, 0, 0}));
}

TEST(ReaderLayout, AnOverlapAmongManyBlocksIsNamedByEveryPath) {
    constexpr std::uint32_t kColumns = 20000;
    // One more block at the end, over column 100's lower block: rows [5000, 5002) of columns [99, 101).
    Bytes input = staircase(kColumns);
    const std::uint64_t last_offset = input.size();
    input.block(5000, 99, 2, 2, 0);
    const std::uint64_t offender = 2 * kColumns - 1;
    // Column 99's lower block (rows [100, n)) is block 2 * 99 + 1; its record follows 19 header bytes.
    const std::string expected = "block " + std::to_string(offender) +
                                 " at (5000, 99) overlaps the block at (100, 99) "
                                 "whose record starts at byte " +
                                 std::to_string(19 + 25 * (2 * 99 + 1));
    auto expect_overlap = [&](const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Format);
        EXPECT_EQ(error.rule(), 1);
        EXPECT_EQ(error.offset(), last_offset);
        EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    };
    Reader iterated = Reader::open_memory(input.span());
    try {
        while (iterated.next_block()) {}
        FAIL() << "the overlap was not found by iterating";
    } catch (const Error& error) {
        expect_overlap(error);
    }
    Reader indexed = Reader::open_memory(input.span());
    try {
        indexed.build_index();
        FAIL() << "the overlap was not found by indexing";
    } catch (const Error& error) {
        expect_overlap(error);
    }
    Reader validated = Reader::open_memory(input.span());
    std::vector<Violation> violations;
    validated.validate([&](const Violation& violation) { violations.push_back(violation); });
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].rule, 1);
    EXPECT_EQ(violations[0].offset, last_offset);
    EXPECT_NE(violations[0].message.find(expected), std::string::npos) << violations[0].message;
}

}  // namespace
}  // namespace dbdf
