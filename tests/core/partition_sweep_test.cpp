// The sweep that checks rule 1 for the reader's index, iteration and validation: its verdict against a brute-force
// search, and its work, counted in elementary steps, on layouts that defeat searches bounded by the largest block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "partition_sweep.hpp"

namespace dbdf::detail {
namespace {

bool intersects(const Rectangle& a, const Rectangle& b) {
    return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

bool has_cells(const Rectangle& r) { return r.rows != 0 && r.cols != 0; }

// The first rectangle (in recording order) that overlaps an earlier one, by trying every pair.
std::optional<std::uint64_t> brute_force_first_offender(const std::vector<Rectangle>& recorded) {
    for (std::size_t later = 0; later < recorded.size(); ++later) {
        for (std::size_t earlier = 0; earlier < later; ++earlier) {
            if (has_cells(recorded[later]) && has_cells(recorded[earlier]) &&
                intersects(recorded[later], recorded[earlier])) {
                return recorded[later].tag;
            }
        }
    }
    return std::nullopt;
}

TEST(PartitionSweep, FindsTheFirstOverlapExactlyWhenABruteForceSearchDoes) {
    std::mt19937_64 random(20261125);
    int rounds_with_overlaps = 0;
    for (int round = 0; round < 400; ++round) {
        // Mixed shapes within a 64 x 64 area; few rectangles in some rounds, so that disjoint sets occur too.
        std::uniform_int_distribution<std::uint32_t> extent(0, round % 4 == 0 ? 40 : 8);
        std::uniform_int_distribution<std::uint64_t> corner(0, 63);
        const std::size_t count = round % 3 == 0 ? 6 : 60;
        std::vector<Rectangle> recorded;
        PartitionSweep sweep;
        for (std::uint64_t index = 0; index < count; ++index) {
            recorded.push_back({corner(random), corner(random), extent(random), extent(random), index});
            sweep.add(recorded.back());
        }
        const auto overlaps = sweep.find_overlaps();
        const auto expected = brute_force_first_offender(recorded);
        ASSERT_EQ(overlaps.empty(), !expected.has_value()) << "round " << round;
        if (!expected) continue;
        ++rounds_with_overlaps;
        EXPECT_EQ(overlaps.front().offender.tag, *expected) << "round " << round;
        for (std::size_t i = 0; i < overlaps.size(); ++i) {
            const Overlap& overlap = overlaps[i];
            EXPECT_TRUE(intersects(overlap.offender, overlap.earlier)) << "round " << round;
            EXPECT_LT(overlap.earlier.tag, overlap.offender.tag) << "round " << round;
            if (i > 0) {
                EXPECT_LT(overlaps[i - 1].offender.tag, overlap.offender.tag) << "each offender once, in order";
            }
        }
    }
    EXPECT_GT(rounds_with_overlaps, 100);
    EXPECT_LT(rounds_with_overlaps, 400);
}

TEST(PartitionSweep, ReportsTheRecordedRectanglesThemselves) {
    PartitionSweep sweep;
    sweep.add({0, 0, 2, 2, 0, 19});
    sweep.add({5, 5, 0, 9, 1, 44});  // zero-area: covers nothing, overlaps nothing
    sweep.add({1, 1, 1, 1, 2, 69});
    sweep.add({1, 1, 1, 1, 3, 94});  // overlaps both earlier blocks with cells
    const auto overlaps = sweep.find_overlaps();
    ASSERT_EQ(overlaps.size(), 2u);
    EXPECT_EQ(overlaps[0].offender.tag, 2u);
    EXPECT_EQ(overlaps[0].offender.offset, 69u);
    EXPECT_EQ(overlaps[0].earlier.tag, 0u);
    EXPECT_EQ(overlaps[0].earlier.offset, 19u);
    EXPECT_EQ(overlaps[1].offender.tag, 3u);
    EXPECT_EQ(sweep.covered_cells(), 6u);
    // At the far end of the uint64 range, where a block's end is 2^64.
    PartitionSweep far;
    far.add({UINT64_MAX - 4, UINT64_MAX - 4, 4, 4, 0});
    far.add({UINT64_MAX - 1, UINT64_MAX - 2, 1, 1, 1});
    far.add({UINT64_MAX - 5, UINT64_MAX - 5, 1, 1, 2});
    const auto far_overlaps = far.find_overlaps();
    ASSERT_EQ(far_overlaps.size(), 1u);
    EXPECT_EQ(far_overlaps[0].offender.tag, 1u);
}

// n log2 n, the bound the sweep's steps must stay within (times a small constant).
double n_log_n(std::size_t n) { return static_cast<double>(n) * std::log2(static_cast<double>(n)); }

// Checks that `blocks` partition `rows` x `cols` and that the sweep needed at most 4 n log2 n steps.
void expect_partition_in_n_log_n_steps(const std::vector<Rectangle>& blocks, std::uint64_t rows, std::uint64_t cols,
                                       const std::string& layout) {
    PartitionSweep sweep;
    for (const Rectangle& block : blocks) sweep.add(block);
    EXPECT_TRUE(sweep.find_overlaps().empty()) << layout;
    EXPECT_TRUE(sweep.covers(rows, cols)) << layout;
    EXPECT_LE(static_cast<double>(sweep.steps()), 4 * n_log_n(blocks.size()))
        << layout << ": " << sweep.steps() << " steps for " << blocks.size() << " blocks";
    EXPECT_GE(sweep.steps(), blocks.size()) << layout;  // the counter counts
}

// Column j of an n x n object split into rows [0, j + 1) and [j + 1, n): extents of every size, so every block
// is as tall as the tallest one somewhere. Listed column by column, as a file would hold them.
std::vector<Rectangle> staircase(std::uint32_t n) {
    std::vector<Rectangle> blocks;
    for (std::uint32_t j = 0; j < n; ++j) {
        blocks.push_back({0, j, j + 1, 1, blocks.size()});
        if (j + 1 < n) blocks.push_back({j + 1, j, n - j - 1, 1, blocks.size()});
    }
    return blocks;
}

std::vector<Rectangle> transposed(std::vector<Rectangle> blocks) {
    for (Rectangle& block : blocks) {
        std::swap(block.row, block.col);
        std::swap(block.rows, block.cols);
    }
    return blocks;
}

TEST(PartitionSweep, StaircasesOf60000BlocksTakeNLogNSteps) {
    constexpr std::uint32_t kColumns = 30000;  // 59,999 blocks
    expect_partition_in_n_log_n_steps(staircase(kColumns), kColumns, kColumns, "staircase");
    expect_partition_in_n_log_n_steps(transposed(staircase(kColumns)), kColumns, kColumns, "transposed staircase");
    auto shuffled = staircase(kColumns);
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
    expect_partition_in_n_log_n_steps(shuffled, kColumns, kColumns, "staircase in random order");
}

TEST(PartitionSweep, MixedTallAndWideLayoutsTakeNLogNSteps) {
    // One full-height block per column on the left half, one full-width block per row on the right half: every
    // row of the right half meets all the tall blocks' rows.
    constexpr std::uint32_t kSide = 30000;
    std::vector<Rectangle> comb;
    for (std::uint32_t j = 0; j < kSide; ++j) comb.push_back({0, j, kSide, 1, comb.size()});
    for (std::uint32_t i = 0; i < kSide; ++i) comb.push_back({i, kSide, 1, kSide, comb.size()});
    expect_partition_in_n_log_n_steps(comb, kSide, 2 * kSide, "tall columns beside wide rows");
    // 1 x 1 tiles of a 250 x 250 grid in random order.
    std::vector<Rectangle> tiles;
    for (std::uint64_t row = 0; row < 250; ++row) {
        for (std::uint64_t col = 0; col < 250; ++col) tiles.push_back({row, col, 1, 1, tiles.size()});
    }
    std::shuffle(tiles.begin(), tiles.end(), std::mt19937_64(5));
    expect_partition_in_n_log_n_steps(tiles, 250, 250, "shuffled tiles");
}

TEST(PartitionSweep, ManyOverlapsTakeNLogNSteps) {
    // A wide block recorded last over 60,000 narrow ones: each narrow block is found once, not once per row.
    std::vector<Rectangle> blocks;
    for (std::uint32_t j = 0; j < 60000; ++j) blocks.push_back({0, j, 60000, 1, blocks.size()});
    for (std::uint32_t i = 0; i < 60000; ++i) blocks.push_back({i, 0, 1, 60000, blocks.size()});
    PartitionSweep sweep;
    for (const Rectangle& block : blocks) sweep.add(block);
    const auto overlaps = sweep.find_overlaps();
    ASSERT_EQ(overlaps.size(), 60000u);  // every wide block overlaps the tall ones
    EXPECT_EQ(overlaps.front().offender.tag, 60000u);
    EXPECT_LE(static_cast<double>(sweep.steps()), 4 * n_log_n(blocks.size())) << sweep.steps();
}

}  // namespace
}  // namespace dbdf::detail
