// Tracks the rectangles of the blocks of one object to enforce rule 1 (no overlap, full cover).
//
// Blocks are kept in one ordered set by first row, then first column. A new block can only overlap blocks whose
// first row lies in (row - tallest, row_end) and whose first column lies in (col - widest, col_end); each first row
// in that range is entered at its first candidate column by one search, so for tile grids checking n blocks costs
// O(n log n). One set node per block (about 80 bytes) keeps the memory a file of many small blocks can claim to a
// few times its own size: an empty block's record alone is 25 bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <set>

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
