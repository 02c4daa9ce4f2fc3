// The partition tracker behind rule 1 (no overlap, full cover) against a brute-force search: random rectangles of
// mixed shapes (tall, wide, tiny, tile grids with ragged edges), added in random order, each checked for an
// overlap with every rectangle recorded before it.
#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace dbdf::detail
