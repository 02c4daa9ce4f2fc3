#include "partition_sweep.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <set>
#include <utility>

namespace dbdf::detail {
namespace {

// Ends computed wide: a rectangle may end at 2^64.
WideCount row_end(const Rectangle& r) { return static_cast<WideCount>(r.row) + r.rows; }
WideCount col_end(const Rectangle& r) { return static_cast<WideCount>(r.col) + r.cols; }

// A block that reaches the sweep's current row: its first column and its place in recording order.
struct ActiveInterval {
    std::uint64_t col;
    std::size_t position;
};

// Orders active intervals by first column, counting the comparisons for steps().
struct ByFirstColumn {
    std::uint64_t* comparisons;
    bool operator()(const ActiveInterval& a, const ActiveInterval& b) const {
        ++*comparisons;
        return a.col < b.col;
    }
};

}  // namespace

void PartitionSweep::add(const Rectangle& rectangle) {
    if (rectangle.rows == 0 || rectangle.cols == 0) return;
    rectangles_.push_back(rectangle);
    covered_cells_ += static_cast<WideCount>(rectangle.rows) * rectangle.cols;
}

void PartitionSweep::clear() {
    rectangles_.clear();
    rectangles_.shrink_to_fit();
    covered_cells_ = 0;
    steps_ = 0;
}

std::vector<Overlap> PartitionSweep::find_overlaps() {
    steps_ = 0;
    const std::size_t count = rectangles_.size();
    const auto& rects = rectangles_;
    // Positions in the order the sweep meets the rectangles (by first row), and in the order it leaves them.
    std::vector<std::size_t> by_first_row(count);
    std::iota(by_first_row.begin(), by_first_row.end(), std::size_t{0});
    std::sort(by_first_row.begin(), by_first_row.end(), [&](std::size_t a, std::size_t b) {
        if (rects[a].row != rects[b].row) return rects[a].row < rects[b].row;
        if (rects[a].col != rects[b].col) return rects[a].col < rects[b].col;
        return a < b;
    });
    std::vector<std::size_t> by_row_end(by_first_row);
    std::stable_sort(by_row_end.begin(), by_row_end.end(),
                     [&](std::size_t a, std::size_t b) { return row_end(rects[a]) < row_end(rects[b]); });

    std::set<ActiveInterval, ByFirstColumn> active(ByFirstColumn{&steps_});
    std::vector<bool> set_aside(count, false);               // found to overlap: reported, and out of the sweep
    std::vector<std::pair<std::size_t, std::size_t>> found;  // (offender, earlier) positions
    std::size_t next_to_leave = 0;
    for (const std::size_t position : by_first_row) {
        const Rectangle& candidate = rects[position];
        // Blocks that end at or above this row are behind the sweep. A block still in the set is the only one
        // there with its first column, since two such blocks would overlap.
        while (next_to_leave < count && row_end(rects[by_row_end[next_to_leave]]) <= candidate.row) {
            const std::size_t leaving = by_row_end[next_to_leave++];
            if (!set_aside[leaving]) active.erase(ActiveInterval{rects[leaving].col, leaving});
        }
        // Every active block holds the candidate's first row, so it overlaps the candidate exactly when their
        // column intervals meet: the interval starting at or before the candidate's first column, when it reaches
        // that column, then those starting inside the candidate's columns.
        auto it = active.upper_bound(ActiveInterval{candidate.col, position});
        if (it != active.begin()) {
            const auto before = std::prev(it);
            ++steps_;
            if (col_end(rects[before->position]) > candidate.col) it = before;
        }
        bool candidate_overlaps = false;
        while (it != active.end() && it->col < col_end(candidate)) {
            ++steps_;
            const std::size_t other = it->position;
            if (other < position) {  // the candidate overlaps an earlier block: it leaves the sweep
                found.emplace_back(position, other);
                set_aside[position] = true;
                candidate_overlaps = true;
                break;
            }
            // A later block already in the sweep overlaps the candidate: that block is the offender. Removing it
            // keeps the active intervals disjoint; each block is removed once, which bounds this loop overall.
            found.emplace_back(other, position);
            set_aside[other] = true;
            it = active.erase(it);
        }
        if (!candidate_overlaps) active.emplace_hint(it, ActiveInterval{candidate.col, position});
    }
    std::sort(found.begin(), found.end());
    std::vector<Overlap> overlaps;
    overlaps.reserve(found.size());
    for (const auto& [offender, earlier] : found) overlaps.push_back(Overlap{rects[offender], rects[earlier]});
    return overlaps;
}

}  // namespace dbdf::detail
