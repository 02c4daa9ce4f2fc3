// Blocks of doubles written from the values the analysis stored in their narrowed type (NarrowedValues) carry the
// payload the narrowing copy (store_converted, what encode_block writes) gives for the same values, byte for byte:
// blocks that stay u8, that widen to 16 or 32 bits or to f32 in their middle, at a chunk boundary or in a vector
// loop's tail, and blocks whose last value, -0.0 or a NaN payload rules a type out.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "narrowed_values.hpp"
#include "narrowing_copy.hpp"
#include "process_mappings.hpp"
#include "test_support.hpp"
#include "value_analysis.hpp"

namespace dbdf::detail {
namespace {

// values[first..first + count) as the narrowing copy stores them in `type`.
std::vector<std::byte> copied_as(ValueType type, const double* values, std::size_t count) {
    std::vector<std::byte> bytes(count * value_size(type));
    visit_value_type(type, [&](auto tag) {
        using E = typename decltype(tag)::type;
        store_converted<E>(values, count, bytes.data());
    });
    return bytes;
}

struct Case {
    std::string name;
    std::uint32_t rows;
    std::uint32_t cols;
    std::vector<double> values;
    ValueType expected;  // the narrowest type of the values (None: wider than four bytes, nothing stored)
};

// A block of small integers (0..99, u8) of rows x cols whose value at `at` is `value`.
Case small_integers_with(std::string name, std::uint32_t rows, std::uint32_t cols, std::size_t at, double value,
                         ValueType expected) {
    std::mt19937_64 random(at + 1);
    std::vector<double> values(std::size_t{rows} * cols);
    for (double& cell : values) cell = static_cast<double>(random() % 100);
    values.at(at) = value;
    return {std::move(name), rows, cols, std::move(values), expected};
}

// Values from `draw` for every cell.
template <class Draw>
Case drawn(std::string name, std::uint32_t rows, std::uint32_t cols, ValueType expected, Draw draw) {
    std::mt19937_64 random(rows * 31 + cols);
    std::vector<double> values(std::size_t{rows} * cols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = draw(random, i);
    return {std::move(name), rows, cols, std::move(values), expected};
}

std::vector<Case> cases() {
    const double two31 = 2147483648.0;
    const double quiet_nan_payload = std::bit_cast<double>(std::uint64_t{0x7ff8000020000000});  // float holds it
    const double nan_low_payload = std::bit_cast<double>(std::uint64_t{0x7ff8000000000123});    // float loses it
    std::vector<Case> all;
    all.push_back(small_integers_with("stays u8", 37, 53, 0, 99, ValueType::U8));
    all.push_back(small_integers_with("i8 from -5", 37, 53, 700, -5, ValueType::I8));
    // 16 bits: in the middle of a chunk, first in a chunk, last of a chunk, in the tail after the vector loop of
    // an odd row, the very last value.
    all.push_back(small_integers_with("u16 mid-chunk", 37, 53, 1500, 300, ValueType::U16));
    all.push_back(small_integers_with("u16 at a chunk", 4, 4096, 2048, 300, ValueType::U16));
    all.push_back(small_integers_with("u16 ends a chunk", 4, 4096, 1023, 65535, ValueType::U16));
    all.push_back(small_integers_with("u16 in a tail", 37, 53, 53 * 9 + 52, 40000, ValueType::U16));
    all.push_back(small_integers_with("u16 last", 37, 53, 37 * 53 - 1, 256, ValueType::U16));
    all.push_back(small_integers_with("i16 after u8", 37, 53, 1200, -129, ValueType::I16));
    all.push_back(small_integers_with("u16 in a later row", 5, 3001, 9000, 30000, ValueType::U16));
    {
        Case c = small_integers_with("i8 then i16", 5, 3001, 9000, 30000, ValueType::I16);
        c.values[100] = -100;  // i8 first, then 16 bits: the stored bytes widen sign-extended
        all.push_back(std::move(c));
    }
    all.push_back(drawn("u16 32768..65535", 19, 1031, ValueType::U16,
                        [](auto& random, std::size_t) { return static_cast<double>(32768 + random() % 32768); }));
    all.push_back(drawn("negative i16", 19, 1031, ValueType::I16,
                        [](auto& random, std::size_t) { return -static_cast<double>(random() % 32769); }));
    // Four bytes: integers up to 2^24 are floats exactly, so f32 (the source's kind) is their type; beyond, those
    // that do not round-trip make it u32 or i32.
    all.push_back(drawn("integers 0..10^6 are f32", 7, 3000, ValueType::F32,
                        [](auto& random, std::size_t) { return static_cast<double>(random() % 1000001); }));
    all.push_back(drawn("i32 near -2^31 and 2^31", 7, 3000, ValueType::I32, [&](auto& random, std::size_t i) {
        const double near = static_cast<double>(random() % 1000);
        return i % 3 == 0 ? -two31 + near : i % 3 == 1 ? two31 - 1 - near : static_cast<double>(random() % 100);
    }));
    {
        Case c = drawn("u16 widening to i32 late", 7, 3000, ValueType::I32,
                       [](auto& random, std::size_t) { return static_cast<double>(random() % 60000); });
        c.values[5000] = -7;
        c.values[19000] = 16777217;  // not a float: i32, after f32 was the type
        all.push_back(std::move(c));
    }
    {
        Case c = drawn("2^31 makes u32", 7, 3000, ValueType::U32,
                       [](auto& random, std::size_t) { return static_cast<double>(random() % 100); });
        c.values[4097] = two31;       // a float: f32 first
        c.values[15000] = two31 + 1;  // odd beyond 2^24: not a float
        c.values[20999] = 4294967295.0;
        all.push_back(std::move(c));
    }
    {
        Case c = drawn("2^31 with negatives is wider", 7, 3000, ValueType::None,
                       [](auto& random, std::size_t) { return -static_cast<double>(random() % 100); });
        c.values[3000] = two31 + 1;
        all.push_back(std::move(c));
    }
    {
        Case c = drawn("2^32 + 1 is wider", 7, 3000, ValueType::None,
                       [](auto& random, std::size_t) { return static_cast<double>(random() % 100); });
        c.values[20999] = 4294967297.0;
        all.push_back(std::move(c));
    }
    all.push_back(drawn("f32 halves", 13, 1000, ValueType::F32,
                        [](auto& random, std::size_t) { return static_cast<double>(random() % 200) + 0.5; }));
    {
        Case c = drawn("f32 ruled out by the last value", 13, 1000, ValueType::None,
                       [](auto& random, std::size_t) { return static_cast<double>(random() % 200) + 0.25; });
        c.values.back() = 0.1;
        all.push_back(std::move(c));
    }
    all.push_back(small_integers_with("-0.0 in a later chunk", 37, 53, 1024, -0.0, ValueType::F32));
    all.push_back(small_integers_with("-0.0 mid-chunk", 37, 53, 1500, -0.0, ValueType::F32));
    {
        Case c = small_integers_with("-0.0 after 16 bits", 37, 53, 1500, -0.0, ValueType::F32);
        c.values[10] = 1000;
        all.push_back(std::move(c));
    }
    all.push_back(small_integers_with("NaN payload float holds", 37, 53, 1030, quiet_nan_payload, ValueType::F32));
    all.push_back(small_integers_with("NaN payload float loses", 37, 53, 1030, nan_low_payload, ValueType::None));
    all.push_back(small_integers_with("2^60 is a float", 37, 53, 1960, 1152921504606846976.0, ValueType::F32));
    {
        Case c = drawn("f32 integers then halves", 9, 1500, ValueType::F32,
                       [](auto& random, std::size_t) { return static_cast<double>(random() % 100000); });
        c.values[9 * 1500 - 3] = 0.5;
        all.push_back(std::move(c));
    }
    return all;
}

// The analysis as the writer runs it, row by row: what it stores against the narrowing copy of the same values.
TEST(NarrowedValues, StoredPayloadIsTheNarrowingCopy) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        NarrowedValues narrowed(c.values.size(), nullptr);
        NarrowingAnalysis<double> analysis;
        for (std::uint32_t row = 0; row < c.rows; ++row) {
            const std::size_t first = std::size_t{row} * c.cols;
            analysis.observe_values(c.values.data() + first, c.cols, &narrowed, first);
        }
        const ValueType narrowest = narrowest_type(analysis.feasible(), ValueType::F64);
        EXPECT_EQ(narrowest, c.expected == ValueType::None ? ValueType::F64 : c.expected);
        if (c.expected == ValueType::None) {
            EXPECT_FALSE(narrowed.storing());
            continue;
        }
        ASSERT_EQ(narrowed.type(), narrowest);
        const std::vector<std::byte> expected = copied_as(narrowest, c.values.data(), c.values.size());
        const std::span<const std::byte> stored = narrowed.payload();
        ASSERT_EQ(stored.size(), expected.size());
        EXPECT_EQ(std::memcmp(stored.data(), expected.data(), expected.size()), 0);
    }
}

// Every dense block of a written file: its payload is the narrowing copy of its cells in its value type.
void expect_blocks_are_copies(const std::vector<std::byte>& file, const std::vector<double>& values,
                              std::uint32_t cols) {
    for (const BlockView& block : testing::blocks_of(file)) {
        if (block.block_type != BlockType::Dense || block.value_type == ValueType::F64) continue;
        std::vector<double> cells;
        for (std::uint64_t row = block.row; row < block.row_end(); ++row) {
            const double* first = values.data() + row * cols + block.col;
            cells.insert(cells.end(), first, first + block.cols);
        }
        const std::vector<std::byte> expected = copied_as(block.value_type, cells.data(), cells.size());
        ASSERT_EQ(block.payload_bytes, expected.size());
        EXPECT_EQ(std::memcmp(file.data() + block.payload_offset, expected.data(), expected.size()), 0)
            << "block at (" << block.row << ", " << block.col << ")";
    }
}

// Through the writer: one block added whole, and tiles through write_dense on one and two threads.
TEST(NarrowedValues, WrittenBlocksAreTheNarrowingCopy) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const auto one_block = testing::write_to_memory([&](Writer& writer) {
            writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, c.rows, c.cols);
            writer.add_dense({0, 0, c.rows, c.cols}, ValueType::F64, c.values.data(), c.values.size(), 0,
                             WriteOptions{});
        });
        const std::vector<BlockView> blocks = testing::blocks_of(one_block);
        ASSERT_EQ(blocks.size(), 1u);
        EXPECT_EQ(blocks[0].value_type, c.expected == ValueType::None ? ValueType::F64 : c.expected);
        expect_blocks_are_copies(one_block, c.values, c.cols);
        EXPECT_EQ(testing::bits_of(testing::read_dense<double>(one_block)), testing::bits_of(c.values));
        for (unsigned threads : {1u, 2u}) {
            const auto tiled = testing::write_to_memory([&](Writer& writer) {
                writer.set_encode_threads(threads);
                writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, c.rows, c.cols);
                writer.write_dense(ValueType::F64, c.values.data(), c.values.size(), 0,
                                   WriteOptions{Encoding::Auto, 5, 1030});
            });
            expect_blocks_are_copies(tiled, c.values, c.cols);
            EXPECT_EQ(testing::bits_of(testing::read_dense<double>(tiled)), testing::bits_of(c.values))
                << threads << " threads";
        }
    }
}

// A block whose width grows reuses a buffer that is large enough, converting in place (the last value first).
TEST(NarrowedValues, RestartKeepsTheBufferAndWidensInPlace) {
    std::vector<double> values(3001);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 250);
    values[2500] = -30000;
    NarrowedValues narrowed(values.size(), nullptr);
    const std::byte* first_round_buffer = nullptr;
    for (int round = 0; round < 2; ++round) {
        narrowed.restart();
        EXPECT_EQ(narrowed.type(), ValueType::U8);
        NarrowingAnalysis<double> analysis;
        analysis.observe_values(values.data(), values.size(), &narrowed);
        ASSERT_EQ(narrowed.type(), ValueType::I16);
        const std::vector<std::byte> expected = copied_as(ValueType::I16, values.data(), values.size());
        EXPECT_EQ(std::memcmp(narrowed.payload().data(), expected.data(), expected.size()), 0) << round;
        // The second round starts in the buffer the first grew to i16 and widens there: no new buffer.
        if (round == 0) {
            first_round_buffer = narrowed.payload().data();
        } else {
            EXPECT_EQ(narrowed.payload().data(), first_round_buffer);
        }
    }
}

// A block whose wider type would take more than kMostWiderBytes is not stored at that type: 3 x 2^20 values take
// 6 MiB as u16 (stored) and 12 MiB as f32 (not stored; the writer narrows the block by the copy, as before, and
// writes the same bytes).
TEST(NarrowedValues, ABlockTooLargeForItsWiderTypeIsNarrowedByTheCopy) {
    constexpr std::uint32_t kRows = 3072;
    constexpr std::uint32_t kCols = 1024;
    std::vector<double> values(std::size_t{kRows} * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 200);
    values.back() = 40000;
    NarrowedValues narrowed(values.size(), nullptr);
    NarrowingAnalysis<double> u16_analysis;
    u16_analysis.observe_values(values.data(), values.size(), &narrowed);
    ASSERT_EQ(narrowed.type(), ValueType::U16);
    ASSERT_LE(narrowed.payload().size(), NarrowedValues::kMostWiderBytes);
    const std::vector<std::byte> expected = copied_as(ValueType::U16, values.data(), values.size());
    EXPECT_EQ(std::memcmp(narrowed.payload().data(), expected.data(), expected.size()), 0);

    values.back() = 0.5;  // f32, whose 12 MiB are more than kMostWiderBytes
    narrowed.restart();
    NarrowingAnalysis<double> f32_analysis;
    f32_analysis.observe_values(values.data(), values.size(), &narrowed);
    EXPECT_EQ(narrowest_type(f32_analysis.feasible(), ValueType::F64), ValueType::F32);
    EXPECT_FALSE(narrowed.storing());
    const auto file = testing::write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        writer.add_dense({0, 0, kRows, kCols}, ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
    });
    ASSERT_EQ(testing::blocks_of(file).at(0).value_type, ValueType::F32);
    expect_blocks_are_copies(file, values, kCols);
}

// A finished block's buffer serves the next block of the same writer (write_dense frees a tile's buffer on another
// thread than the one that analyses the next tile, and new memory would fault in page by page).
TEST(NarrowedValues, BufferOfAFinishedBlockServesTheNextBlock) {
    constexpr std::size_t kLargestKept = SpareBuffers::kLargestSpare;
    SpareBuffers spares;
    const std::byte* first = nullptr;
    {
        const NarrowedValues block(kLargestKept, &spares);
        first = block.payload().data();
    }
    const NarrowedValues next(kLargestKept, &spares);
    EXPECT_EQ(next.payload().data(), first);
    EXPECT_EQ(next.type(), ValueType::U8);
    EXPECT_EQ(next.payload().size(), kLargestKept);
}

// The spares are bounded: at most kSpares buffers, none larger than kLargestSpare, and a full set keeps the largest
// buffers given back. A buffer taken for fewer bytes than a spare holds is that spare, the smallest that fits.
TEST(SpareBuffers, KeepAFewBuffersOfBoundedSizeAndHandOutTheSmallestThatFits) {
    SpareBuffers spares;
    std::size_t capacity = 0;
    auto too_large = spares.take(SpareBuffers::kLargestSpare + 1, capacity);
    EXPECT_EQ(capacity, SpareBuffers::kLargestSpare + 1);  // a rest of one byte is not rounded to a huge page
    spares.give_back(std::move(too_large), capacity);      // not kept
    std::vector<const std::byte*> kept;
    for (std::size_t i = 0; i <= SpareBuffers::kSpares; ++i) {  // one more than is kept: the smallest goes
        const std::size_t bytes = (i + 1) * 1000;
        auto buffer = spares.take(bytes, capacity);
        EXPECT_EQ(capacity, bytes);  // nothing kept is large enough yet: new memory of the size asked
        kept.push_back(buffer.get());
        spares.give_back(std::move(buffer), capacity);
    }
    // The spares now hold the buffers of 2000 ... 5000 bytes (1000 was replaced): 1500 bytes get the 2000 one.
    auto fitting = spares.take(1500, capacity);
    EXPECT_EQ(capacity, 2000u);
    EXPECT_EQ(fitting.get(), kept[1]);
    auto largest = spares.take(4500, capacity);
    EXPECT_EQ(capacity, 5000u);
    EXPECT_EQ(largest.get(), kept[4]);
    auto none_fits = spares.take(SpareBuffers::kLargestSpare, capacity);
    EXPECT_EQ(capacity, SpareBuffers::kLargestSpare);
}

// The span asked to be backed by huge pages: every whole huge page of the buffer, and one more for a rest of half a
// page or more; a placed 4 MiB payload's extra 4 KiB does not take a third huge page.
TEST(SpareBuffers, HugePageSpansAreTheWholePagesAndARestOfHalfAPageOrMore) {
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    EXPECT_EQ(huge_page_span(2 * kMiB), 2 * kMiB);
    EXPECT_EQ(huge_page_span(2 * kMiB + 1), 2 * kMiB);
    EXPECT_EQ(huge_page_span(3 * kMiB - 1), 2 * kMiB);
    EXPECT_EQ(huge_page_span(3 * kMiB), 4 * kMiB);
    EXPECT_EQ(huge_page_span(4 * kMiB), 4 * kMiB);
    EXPECT_EQ(huge_page_span(4 * kMiB + 4096), 4 * kMiB);
    EXPECT_EQ(huge_page_span(5 * kMiB + 1), 6 * kMiB);
}

// New buffers below 2 MiB are exactly the size asked; from 2 MiB on they are aligned to huge pages and at least
// their huge-page span long.
TEST(SpareBuffers, LargeBuffersAreAlignedToHugePages) {
    std::size_t capacity = 0;
    const SpareBuffer small = allocate_spare_buffer(kHugePageBytes - 1, capacity);
    EXPECT_EQ(capacity, kHugePageBytes - 1);
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    for (const std::size_t bytes : {2 * kMiB, 2 * kMiB + 1, 3 * kMiB, 4 * kMiB, 4 * kMiB + 4096}) {
        const SpareBuffer buffer = allocate_spare_buffer(bytes, capacity);
        EXPECT_EQ(capacity, std::max(bytes, huge_page_span(bytes))) << bytes;
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.get()) % kHugePageBytes, 0u) << bytes;
        std::memset(buffer.get(), 0x5a, capacity);  // all of it is usable
    }
}

// The span is marked for transparent huge pages (where the kernel has them), which /proc/self/smaps shows as the
// flag "hg" of its mapping; the rest of a placed payload's buffer, past its two huge pages, is not.
TEST(SpareBuffers, OnlyTheHugePageSpanIsAskedToBeBackedByHugePages) {
#if defined(__linux__)
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
        GTEST_SKIP() << "this kernel has no transparent huge pages";
    }
    std::size_t capacity = 0;
    const std::size_t span = std::size_t{4} << 20;
    const SpareBuffer buffer = allocate_spare_buffer(span + 4096, capacity);
    EXPECT_TRUE(dbdf::testing::huge_page_advice_at(buffer.get()));
    EXPECT_TRUE(dbdf::testing::huge_page_advice_at(buffer.get() + span - 1));
    EXPECT_FALSE(dbdf::testing::huge_page_advice_at(buffer.get() + span));
#else
    GTEST_SKIP() << "huge pages are asked for on Linux only";
#endif
}

}  // namespace
}  // namespace dbdf::detail
