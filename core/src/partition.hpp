// Tracks the rectangles of the blocks of one object to enforce rule 1 (no overlap, full cover).
//
// Blocks are keyed by first row, then first column. A new block can only overlap blocks whose first row lies in
// (row - tallest, row_end) and whose first column lies in (col - widest, col_end); for tile grids that is the
// block's own tile row, found in logarithmic time, so checking n blocks costs O(n log n).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "wide_count.hpp"

namespace dbdf::detail {

struct Rectangle {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t tag = 0;  // caller's identifier (block index or byte offset)
};

class PartitionTracker {
public:
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

private:
    std::map<std::uint64_t, std::map<std::uint64_t, Rectangle>> by_row_then_col_;
    std::uint64_t tallest_ = 0;
    std::uint64_t widest_ = 0;
    WideCount covered_cells_ = 0;
};

}  // namespace dbdf::detail
