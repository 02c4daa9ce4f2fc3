// The partition tracker behind rule 1 (no overlap, full cover) against a brute-force search: random rectangles of
// mixed shapes (tall, wide, tiny, tile grids with ragged edges), added in random order, each checked for an
// overlap with every rectangle recorded before it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "partition.hpp"

namespace dbdf::detail {
namespace {

bool intersects(const Rectangle& a, const Rectangle& b) {
    return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

std::optional<Rectangle> brute_force_overlap(const std::vector<Rectangle>& recorded, const Rectangle& candidate) {
    if (candidate.rows == 0 || candidate.cols == 0) return std::nullopt;
    for (const Rectangle& other : recorded) {
        if (intersects(candidate, other)) return other;
    }
    return std::nullopt;
}

TEST(PartitionTracker, FindsAnOverlapExactlyWhenABruteForceSearchDoes) {
    std::mt19937_64 random(20261124);
    for (int round = 0; round < 200; ++round) {
        // Shapes of every kind within a 64 x 64 area, so that overlaps are frequent.
        std::uniform_int_distribution<std::uint32_t> extent(0, round % 4 == 0 ? 64 : 12);
        std::uniform_int_distribution<std::uint64_t> corner(0, 63);
        PartitionTracker tracker;
        std::vector<Rectangle> recorded;
        for (std::uint64_t index = 0; index < 150; ++index) {
            const Rectangle candidate{corner(random), corner(random), extent(random), extent(random), index};
            const auto found = tracker.find_overlap(candidate);
            const auto expected = brute_force_overlap(recorded, candidate);
            ASSERT_EQ(found.has_value(), expected.has_value())
                << "round " << round << ", rectangle " << index << " at (" << candidate.row << ", " << candidate.col
                << ") of " << candidate.rows << " x " << candidate.cols;
            if (found) {
                EXPECT_TRUE(intersects(candidate, *found));
                continue;  // as the reader and writer do: an overlapping block is refused, not recorded
            }
            tracker.add(candidate);
            if (candidate.rows != 0 && candidate.cols != 0) recorded.push_back(candidate);
        }
    }
}

TEST(PartitionTracker, CountsTheCellsOfATileGridInAnyOrder) {
    // 10 x 7 tiles of 3 x 4 over a 29 x 25 object (ragged last row and column), added in shuffled order.
    std::vector<Rectangle> tiles;
    for (std::uint64_t row = 0; row < 29; row += 3) {
        for (std::uint64_t col = 0; col < 25; col += 4) {
            tiles.push_back({row, col, static_cast<std::uint32_t>(std::min<std::uint64_t>(3, 29 - row)),
                             static_cast<std::uint32_t>(std::min<std::uint64_t>(4, 25 - col)), tiles.size()});
        }
    }
    std::shuffle(tiles.begin(), tiles.end(), std::mt19937_64(7));
    PartitionTracker tracker;
    for (const Rectangle& tile : tiles) {
        ASSERT_FALSE(tracker.find_overlap(tile).has_value()) << tile.row << ", " << tile.col;
        tracker.add(tile);
    }
    EXPECT_TRUE(tracker.covers(29, 25));
    // Any cell again overlaps the tile that holds it.
    const auto again = tracker.find_overlap({28, 24, 1, 1, 0});
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->row, 27u);
    EXPECT_EQ(again->col, 24u);
    // Rectangles at the far end of the uint64 range are found as well.
    PartitionTracker far;
    far.add({UINT64_MAX - 4, UINT64_MAX - 4, 4, 4, 1});
    EXPECT_TRUE(far.find_overlap({UINT64_MAX - 1, UINT64_MAX - 2, 1, 1, 2}).has_value());
    EXPECT_FALSE(far.find_overlap({UINT64_MAX - 5, UINT64_MAX - 5, 1, 1, 3}).has_value());
}

// Blocks added in row order, as writers emit them, cost O(n log n) steps whatever their extents (each search of a
// red-black tree makes up to 2 log2(n) comparisons, hence the 6): a staircase (column
// j split at row j + 1), added row by row, and a layout of tall columns beside wide rows.
TEST(PartitionTracker, BlocksInRowOrderTakeNLogNStepsOnAnyLayout) {
    constexpr std::uint32_t kSide = 30000;
    std::vector<Rectangle> staircase;
    for (std::uint32_t j = 0; j < kSide; ++j) staircase.push_back({0, j, j + 1, 1, staircase.size()});
    for (std::uint32_t j = 0; j + 1 < kSide; ++j) staircase.push_back({j + 1, j, kSide - j - 1, 1, staircase.size()});
    std::vector<Rectangle> comb;
    for (std::uint32_t j = 0; j < kSide; ++j) comb.push_back({0, j, kSide, 1, comb.size()});
    for (std::uint32_t i = 0; i < kSide; ++i) comb.push_back({i, kSide, 1, kSide, comb.size()});
    std::stable_sort(comb.begin(), comb.end(), [](const Rectangle& a, const Rectangle& b) { return a.row < b.row; });
    for (const auto* layout : {&staircase, &comb}) {
        PartitionTracker tracker;
        for (const Rectangle& block : *layout) {
            ASSERT_FALSE(tracker.find_overlap(block).has_value()) << block.row << ", " << block.col;
            tracker.add(block);
        }
        const double n = static_cast<double>(layout->size());
        EXPECT_LE(static_cast<double>(tracker.steps()), 6 * n * std::log2(n)) << tracker.steps() << " steps";
    }
    // The sweep still finds an overlap, and one with a block it has passed once blocks come out of row order.
    PartitionTracker tracker;
    tracker.add({0, 0, 4, 2, 0});
    tracker.add({0, 2, 1, 2, 1});
    EXPECT_TRUE(tracker.find_overlap({3, 1, 1, 3, 2}).has_value());
    EXPECT_FALSE(tracker.find_overlap({3, 2, 1, 2, 2}).has_value());
    tracker.add({3, 2, 1, 2, 2});
    const auto earlier = tracker.find_overlap({0, 3, 1, 1, 3});  // row 0 again: the sweep has passed it
    ASSERT_TRUE(earlier.has_value());
    EXPECT_EQ(earlier->tag, 1u);
}

}  // namespace
}  // namespace dbdf::detail
