#include "partition.hpp"

namespace dbdf::detail {
namespace {

bool intersects(const Rectangle& a, const Rectangle& b) {
    return a.row < b.row + b.rows && b.row < a.row + a.rows && a.col < b.col + b.cols && b.col < a.col + a.cols;
}

// First key that may still reach `start`, given the largest extent seen.
std::uint64_t first_candidate(std::uint64_t start, std::uint64_t largest_extent) {
    return start >= largest_extent ? start - largest_extent + 1 : 0;
}

}  // namespace

std::optional<Rectangle> PartitionTracker::find_overlap(const Rectangle& candidate) const {
    if (candidate.rows == 0 || candidate.cols == 0) return std::nullopt;
    const std::uint64_t row_end = candidate.row + candidate.rows;
    const std::uint64_t col_end = candidate.col + candidate.cols;
    const std::uint64_t first_col = first_candidate(candidate.col, widest_);
    auto it = rectangles_.lower_bound(Rectangle{first_candidate(candidate.row, tallest_), first_col});
    while (it != rectangles_.end() && it->row < row_end) {
        const std::uint64_t row = it->row;
        // A search for a first row that holds no rectangle lands at the start of the next one: enter that row at its
        // first candidate column instead, or a row of many blocks would be walked from its first one.
        if (it->col < first_col) {
            it = rectangles_.lower_bound(Rectangle{row, first_col});
            continue;
        }
        // The stored rectangles of one first row, from its first candidate column on.
        for (; it != rectangles_.end() && it->row == row && it->col < col_end; ++it) {
            if (intersects(candidate, *it)) return *it;
        }
        // On to the next first row, entered at its first candidate column. A stored rectangle has rows, so a
        // first row that is the largest uint64_t has no successor to look for.
        if (row == UINT64_MAX) break;
        it = rectangles_.lower_bound(Rectangle{row + 1, first_col});
    }
    return std::nullopt;
}

void PartitionTracker::add(const Rectangle& rectangle) {
    if (rectangle.rows == 0 || rectangle.cols == 0) return;
    rectangles_.insert(rectangle);
    if (rectangle.rows > tallest_) tallest_ = rectangle.rows;
    if (rectangle.cols > widest_) widest_ = rectangle.cols;
    covered_cells_ += static_cast<WideCount>(rectangle.rows) * rectangle.cols;
}

void PartitionTracker::clear() {
    rectangles_.clear();
    tallest_ = 0;
    widest_ = 0;
    covered_cells_ = 0;
}

}  // namespace dbdf::detail
