#include "window_lookup.hpp"

#include <algorithm>
#include <numeric>

namespace dbdf::detail {

IntervalLookup::IntervalLookup(const std::vector<Interval>& intervals) {
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        if (intervals[i].begin < intervals[i].end) by_begin_.push_back(i);
    }
    std::stable_sort(by_begin_.begin(), by_begin_.end(),
                     [&](std::size_t a, std::size_t b) { return intervals[a].begin < intervals[b].begin; });
    begins_.reserve(by_begin_.size());
    ends_.reserve(by_begin_.size());
    for (const std::size_t i : by_begin_) {
        begins_.push_back(intervals[i].begin);
        ends_.push_back(intervals[i].end);
    }
    std::sort(ends_.begin(), ends_.end());
    while (leaf_base_ < by_begin_.size()) leaf_base_ *= 2;
    max_end_.assign(2 * leaf_base_, 0);  // 0: no interval (every real end is at least 1)
    for (std::size_t k = 0; k < by_begin_.size(); ++k) max_end_[leaf_base_ + k] = intervals[by_begin_[k]].end;
    for (std::size_t node = leaf_base_ - 1; node >= 1; --node) {
        max_end_[node] = std::max(max_end_[2 * node], max_end_[2 * node + 1]);
    }
}

std::size_t IntervalLookup::count_meeting(std::uint64_t begin, std::uint64_t end) const {
    // Those starting before `end`, less those ending at or before `begin` (which all start before `end` too).
    const auto starting = std::lower_bound(begins_.begin(), begins_.end(), end) - begins_.begin();
    const auto ended = std::upper_bound(ends_.begin(), ends_.end(), begin) - ends_.begin();
    return static_cast<std::size_t>(starting - ended);
}

std::uint64_t IntervalLookup::for_each_meeting(std::uint64_t begin, std::uint64_t end,
                                               const std::function<void(std::size_t)>& visit) const {
    if (begin >= end || by_begin_.empty()) return 0;
    // Leaves [0, prefix) start before `end`; below a node whose largest end is at most `begin` nothing meets.
    const std::size_t prefix =
        static_cast<std::size_t>(std::lower_bound(begins_.begin(), begins_.end(), end) - begins_.begin());
    std::uint64_t nodes = 0;
    struct Pending {
        std::size_t node, first_leaf, leaves;
    };
    std::vector<Pending> stack{{1, 0, leaf_base_}};
    while (!stack.empty()) {
        const Pending at = stack.back();
        stack.pop_back();
        ++nodes;
        if (at.first_leaf >= prefix || max_end_[at.node] <= begin) continue;
        if (at.leaves == 1) {
            visit(by_begin_[at.first_leaf]);
            continue;
        }
        const std::size_t half = at.leaves / 2;
        stack.push_back({2 * at.node + 1, at.first_leaf + half, half});  // the left half is visited first
        stack.push_back({2 * at.node, at.first_leaf, half});
    }
    return nodes;
}

namespace {

std::vector<IntervalLookup::Interval> intervals_of(const std::vector<BlockView>& blocks, bool rows) {
    std::vector<IntervalLookup::Interval> intervals;
    intervals.reserve(blocks.size());
    for (const BlockView& block : blocks) {
        // Zero-area blocks cover no cell: empty in both dimensions, so that no window finds them.
        const bool has_cells = block.area() != 0;
        intervals.push_back(rows ? IntervalLookup::Interval{block.row, has_cells ? block.row_end() : block.row}
                                 : IntervalLookup::Interval{block.col, has_cells ? block.col_end() : block.col});
    }
    return intervals;
}

}  // namespace

WindowLookup::WindowLookup(const std::vector<BlockView>& blocks)
    : blocks_(&blocks), rows_(intervals_of(blocks, true)), cols_(intervals_of(blocks, false)) {}

std::uint64_t WindowLookup::for_each_block(std::uint64_t row, std::uint64_t row_end, std::uint64_t col,
                                           std::uint64_t col_end, const std::function<void(std::size_t)>& visit) const {
    const bool by_rows = rows_.count_meeting(row, row_end) <= cols_.count_meeting(col, col_end);
    std::uint64_t examined = 0;
    const std::uint64_t nodes =
        (by_rows ? rows_ : cols_)
            .for_each_meeting(by_rows ? row : col, by_rows ? row_end : col_end, [&](std::size_t i) {
                ++examined;
                const BlockView& block = (*blocks_)[i];
                const bool meets = by_rows ? block.col < col_end && col < block.col_end()
                                           : block.row < row_end && row < block.row_end();
                if (meets) visit(i);
            });
    return nodes + examined;
}

}  // namespace dbdf::detail
