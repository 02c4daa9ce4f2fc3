// Rule 1 (no overlap, full cover) for a whole set of blocks at once, by a sweep over rows.
//
// The blocks are recorded first and checked together: sorted by first row, they are passed in that order while an
// ordered set keeps the column intervals of the blocks that reach the current row. Those blocks all share that
// row, so as long as no overlap has been found their column intervals are disjoint, and a new block is checked
// against its neighbours in that set alone. Each block is inserted, found, and removed a bounded number of times,
// so n blocks cost O(n log n) on any layout, in any file order, with one record and at most one set node per
// block. (An online check, one block at a time against all earlier ones, would need a two-dimensional structure
// of more than one node per block to be as fast on every layout.)
#pragma once

#include <cstdint>
#include <vector>

#include "partition.hpp"
#include "wide_count.hpp"

namespace dbdf::detail {

// A recorded rectangle that overlaps one recorded before it.
struct Overlap {
    Rectangle offender;  // the later of the two in recording order
    Rectangle earlier;
};

class PartitionSweep {
public:
    // Records a rectangle; zero-area ones cover nothing and are left out. Recording order is what "earlier" means.
    void add(const Rectangle& rectangle);

    // Every recorded rectangle that overlaps one recorded before it, in recording order, each with one such
    // earlier rectangle; empty exactly when the recorded rectangles are pairwise disjoint. A rectangle found to
    // overlap is set aside and not checked further, so with many overlaps each offender is reported once, and the
    // first offender in recording order is always among them.
    std::vector<Overlap> find_overlaps();

    WideCount covered_cells() const { return covered_cells_; }
    bool covers(std::uint64_t rows, std::uint64_t cols) const {
        return covered_cells_ == static_cast<WideCount>(rows) * cols;
    }
    bool empty() const { return rectangles_.empty(); }
    void clear();

    // Elementary steps of the last find_overlaps: comparisons made in the ordered set of column intervals, plus
    // the neighbours examined. Tests bound it by c * n * log2(n); it is not needed otherwise.
    std::uint64_t steps() const { return steps_; }

private:
    std::vector<Rectangle> rectangles_;  // in recording order
    WideCount covered_cells_ = 0;
    std::uint64_t steps_ = 0;
};

}  // namespace dbdf::detail
