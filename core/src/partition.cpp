#include "partition.hpp"

#include <iterator>

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

void PartitionTracker::retire_before(std::uint64_t row) const {
    while (!by_row_end_.empty() && by_row_end_.top().first <= row) {
        // find, then erase: one search, where erasing by key would search for both ends of an equal range.
        reaching_row_.erase(reaching_row_.find(Rectangle{0, by_row_end_.top().second}));
        by_row_end_.pop();
    }
    sweep_row_ = row;
}

std::optional<Rectangle> PartitionTracker::find_overlap_in_sweep(const Rectangle& candidate) const {
    // Every rectangle added reaches no further than the sweep's row unless it is still in the set, and each one in
    // the set holds that row: the candidate overlaps one exactly when their column intervals meet.
    retire_before(candidate.row);
    auto it = reaching_row_.upper_bound(Rectangle{0, candidate.col});
    if (it != reaching_row_.begin()) {
        const auto before = std::prev(it);
        ++steps_;
        if (static_cast<WideCount>(before->col) + before->cols > candidate.col) return *before;
    }
    if (it != reaching_row_.end() &&
        static_cast<WideCount>(it->col) < static_cast<WideCount>(candidate.col) + candidate.cols) {
        ++steps_;
        return *it;
    }
    return std::nullopt;
}

std::optional<Rectangle> PartitionTracker::find_overlap(const Rectangle& candidate) const {
    if (candidate.rows == 0 || candidate.cols == 0) return std::nullopt;
    if (in_row_order_ && candidate.row >= sweep_row_) return find_overlap_in_sweep(candidate);
    const std::uint64_t row_end = candidate.row + candidate.rows;
    const std::uint64_t col_end = candidate.col + candidate.cols;
    const std::uint64_t first_col = first_candidate(candidate.col, widest_);
    auto it = rectangles_.lower_bound(Rectangle{first_candidate(candidate.row, tallest_), first_col});
    while (it != rectangles_.end() && it->row < row_end) {
        const std::uint64_t row = it->row;
        // A search for a first row that holds no rectangle lands at the start of the next one: enter that row at its
        // first candidate column instead, or a row of many blocks would be walked from its first one.
        ++steps_;
        if (it->col < first_col) {
            it = rectangles_.lower_bound(Rectangle{row, first_col});
            continue;
        }
        // The stored rectangles of one first row, from its first candidate column on.
        for (; it != rectangles_.end() && it->row == row && it->col < col_end; ++it) {
            ++steps_;
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
    if (in_row_order_ && rectangle.row >= sweep_row_) {
        retire_before(rectangle.row);
        reaching_row_.insert(rectangle);
        by_row_end_.emplace(static_cast<WideCount>(rectangle.row) + rectangle.rows, rectangle.col);
    } else if (in_row_order_) {  // out of row order: from now on every block is checked against all of them
        in_row_order_ = false;
        reaching_row_.clear();
        by_row_end_ = {};
    }
    if (rectangle.rows > tallest_) tallest_ = rectangle.rows;
    if (rectangle.cols > widest_) widest_ = rectangle.cols;
    covered_cells_ += static_cast<WideCount>(rectangle.rows) * rectangle.cols;
}

void PartitionTracker::clear() {
    rectangles_.clear();
    in_row_order_ = true;
    sweep_row_ = 0;
    steps_ = 0;
    reaching_row_.clear();
    by_row_end_ = {};
    tallest_ = 0;
    widest_ = 0;
    covered_cells_ = 0;
}

}  // namespace dbdf::detail
