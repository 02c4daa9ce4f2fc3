// Tracks the rectangles of the blocks of one object as they are added, to enforce rule 1 (no overlap, full cover)
// one block at a time: the writer refuses an overlapping block before writing a byte of it.
//
// Blocks added in row order (first rows never decreasing, as writers emit them: rule 3) are checked by a sweep:
// the blocks that reach the current first row all share that row, so their column intervals are disjoint and kept
// in an ordered set, where a new block meets at most its neighbours. Blocks leave the set once the first rows pass
// their end. Each block is inserted, found and removed once: n blocks cost O(n log n) on any layout.
//
// Once a block comes out of row order, every block is checked against all recorded ones in one set ordered by
// first row, then first column. A new block can only overlap blocks whose first row lies in (row - tallest,
// row_end) and whose first column lies in (col - widest, col_end); each first row in that range is entered at its
// first candidate column by one search, so for tile grids checking n blocks costs O(n log n), but extents that
// vary widely (a staircase) make it quadratic. Doing better for any order needs a two-dimensional structure of
// several nodes per block; the reader, which must accept any order, checks all blocks at once instead
// (partition_sweep.hpp). One set node per block (about 80 bytes), plus one for each block the sweep holds.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <set>
#include <utility>
#include <vector>

#include "wide_count.hpp"

namespace dbdf::detail {

struct Rectangle {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint32_t rows = 0;  // a block's extents are uint32 in the format
    std::uint32_t cols = 0;
    std::uint64_t tag = 0;     // caller's identifier (a block's index)
    std::uint64_t offset = 0;  // where the caller's block starts (a record's byte offset), for messages
};

class PartitionTracker {
public:
    PartitionTracker() = default;
    PartitionTracker(const PartitionTracker&) = delete;  // the sweep's set counts into steps_
    PartitionTracker& operator=(const PartitionTracker&) = delete;

    // The stored rectangle that `candidate` overlaps, if any. Zero-area rectangles overlap nothing.
    std::optional<Rectangle> find_overlap(const Rectangle& candidate) const;
    // Records a rectangle (zero-area ones are ignored). The caller has checked find_overlap first.
    void add(const Rectangle& rectangle);
    // Sum of the recorded areas; with no overlaps and every block in bounds, equal to rows * cols exactly when
    // the blocks cover the object.
    WideCount covered_cells() const { return covered_cells_; }
    bool covers(std::uint64_t rows, std::uint64_t cols) const {
        return covered_cells_ == static_cast<WideCount>(rows) * cols;
    }
    void clear();

    // Elementary steps so far: comparisons in the sweep's set and stored rectangles examined, plus the searches
    // out of row order. Tests bound it; it is not needed otherwise.
    std::uint64_t steps() const { return steps_; }

private:
    std::optional<Rectangle> find_overlap_in_sweep(const Rectangle& candidate) const;
    void retire_before(std::uint64_t row) const;

    // Orders the sweep's rectangles by first column, counting comparisons.
    struct ByFirstColumn {
        std::uint64_t* comparisons;
        bool operator()(const Rectangle& a, const Rectangle& b) const {
            ++*comparisons;
            return a.col < b.col;
        }
    };
    // The sweep, while blocks come in row order. Mutable: moving the sweep forward changes no answer.
    bool in_row_order_ = true;
    mutable std::uint64_t sweep_row_ = 0;
    mutable std::uint64_t steps_ = 0;
    mutable std::set<Rectangle, ByFirstColumn> reaching_row_{ByFirstColumn{&steps_}};
    using EndAndColumn = std::pair<WideCount, std::uint64_t>;  // a row end and first column, of reaching_row_
    mutable std::priority_queue<EndAndColumn, std::vector<EndAndColumn>, std::greater<>> by_row_end_;

    struct ByFirstRowThenColumn {
        bool operator()(const Rectangle& a, const Rectangle& b) const {
            return a.row != b.row ? a.row < b.row : a.col < b.col;
        }
    };
    std::set<Rectangle, ByFirstRowThenColumn> rectangles_;
    std::uint64_t tallest_ = 0;
    std::uint64_t widest_ = 0;
    WideCount covered_cells_ = 0;
};

}  // namespace dbdf::detail
