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
    for (auto row_it = by_row_then_col_.lower_bound(first_candidate(candidate.row, tallest_));
         row_it != by_row_then_col_.end() && row_it->first < row_end; ++row_it) {
        const auto& by_col = row_it->second;
        for (auto col_it = by_col.lower_bound(first_candidate(candidate.col, widest_));
             col_it != by_col.end() && col_it->first < col_end; ++col_it) {
            if (intersects(candidate, col_it->second)) return col_it->second;
        }
    }
    return std::nullopt;
}

void PartitionTracker::add(const Rectangle& rectangle) {
    if (rectangle.rows == 0 || rectangle.cols == 0) return;
    by_row_then_col_[rectangle.row][rectangle.col] = rectangle;
    if (rectangle.rows > tallest_) tallest_ = rectangle.rows;
    if (rectangle.cols > widest_) widest_ = rectangle.cols;
    covered_cells_ += static_cast<WideCount>(rectangle.rows) * rectangle.cols;
}

void PartitionTracker::clear() {
    by_row_then_col_.clear();
    tallest_ = 0;
    widest_ = 0;
    covered_cells_ = 0;
}

}  // namespace dbdf::detail
