// The lookup of the blocks a window touches: the same blocks as a walk over the whole index, for windows of every
// shape, and for a column of a wide frame a work bounded by the blocks it hits (plus a logarithm), not by the
// frame's width.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "window_lookup.hpp"

namespace dbdf::detail {
namespace {

BlockView block_at(std::uint64_t row, std::uint64_t col, std::uint32_t rows, std::uint32_t cols, std::uint64_t index) {
    BlockView block;
    block.index = index;
    block.row = row;
    block.col = col;
    block.rows = rows;
    block.cols = cols;
    return block;
}

std::vector<std::size_t> looked_up(const WindowLookup& lookup, std::uint64_t row, std::uint64_t row_end,
                                   std::uint64_t col, std::uint64_t col_end) {
    std::vector<std::size_t> found;
    lookup.for_each_block(row, row_end, col, col_end, [&](std::size_t i) { found.push_back(i); });
    std::sort(found.begin(), found.end());
    return found;
}

std::vector<std::size_t> walked(const std::vector<BlockView>& blocks, std::uint64_t row, std::uint64_t row_end,
                                std::uint64_t col, std::uint64_t col_end) {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const BlockView& b = blocks[i];
        if (b.area() != 0 && b.row < row_end && row < b.row_end() && b.col < col_end && col < b.col_end()) {
            found.push_back(i);
        }
    }
    return found;
}

TEST(WindowLookup, FindsTheBlocksAWalkOverTheIndexFinds) {
    // Ragged tiles of a 40 x 30 object, in shuffled order, with a zero-area block among them.
    std::vector<BlockView> blocks;
    std::mt19937_64 random(11);
    for (std::uint64_t row = 0; row < 40;) {
        const std::uint32_t rows = std::min<std::uint32_t>(1 + random() % 7, 40 - row);
        for (std::uint64_t col = 0; col < 30;) {
            const std::uint32_t cols = std::min<std::uint32_t>(1 + random() % 9, 30 - col);
            blocks.push_back(block_at(row, col, rows, cols, 0));
            col += cols;
        }
        row += rows;
    }
    blocks.push_back(block_at(5, 5, 0, 3, 0));
    std::shuffle(blocks.begin(), blocks.end(), random);
    for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i].index = i;
    const WindowLookup lookup(blocks);
    std::uniform_int_distribution<std::uint64_t> row_at(0, 39), col_at(0, 29);
    for (int trial = 0; trial < 2000; ++trial) {
        std::uint64_t r0 = row_at(random), r1 = row_at(random), c0 = col_at(random), c1 = col_at(random);
        if (r0 > r1) std::swap(r0, r1);
        if (c0 > c1) std::swap(c0, c1);
        ++r1;
        ++c1;
        ASSERT_EQ(looked_up(lookup, r0, r1, c0, c1), walked(blocks, r0, r1, c0, c1))
            << "window rows [" << r0 << ", " << r1 << ") cols [" << c0 << ", " << c1 << ")";
    }
    EXPECT_EQ(looked_up(lookup, 0, 40, 0, 30).size(), blocks.size() - 1);  // all but the zero-area block
}

TEST(WindowLookup, AColumnOfAWideFrameCostsItsOwnBlockAndALogarithm) {
    // A 1 x 160,000-column frame: one block per column, as the writer stores frames.
    constexpr std::uint64_t kColumns = 160000;
    std::vector<BlockView> blocks;
    for (std::uint64_t c = 0; c < kColumns; ++c) blocks.push_back(block_at(0, c, 1, 1, c));
    const WindowLookup lookup(blocks);
    const double bound = 4 * (std::log2(static_cast<double>(kColumns)) + 2);
    std::uint64_t most_work = 0;
    for (std::uint64_t c = 0; c < kColumns; c += 997) {
        std::vector<std::size_t> found;
        const std::uint64_t work = lookup.for_each_block(0, 1, c, c + 1, [&](std::size_t i) { found.push_back(i); });
        ASSERT_EQ(found, std::vector<std::size_t>{c});
        most_work = std::max(most_work, work);
    }
    EXPECT_LE(static_cast<double>(most_work), bound);
    // A band of 10 columns finds its 10 blocks.
    std::uint64_t found = 0;
    const std::uint64_t work = lookup.for_each_block(0, 1, 5000, 5010, [&](std::size_t) { ++found; });
    EXPECT_EQ(found, 10u);
    EXPECT_LE(static_cast<double>(work), 10 * bound);
}

}  // namespace
}  // namespace dbdf::detail
