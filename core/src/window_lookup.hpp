// Which blocks of an object a window touches, without walking the whole index for every window.
//
// For each dimension, the blocks' intervals ([row, row_end) and [col, col_end)) are sorted by their first
// coordinate, with a tree over that order holding the largest end below each node. The blocks whose interval meets
// [begin, end) start before `end` (a prefix of that order) and end after `begin`: the tree leads to exactly those,
// so a query costs O(log n) per block found and O(log n) when none is. How many blocks meet each dimension's range
// is known beforehand from the sorted first coordinates and ends, so a window is looked up in the dimension that
// yields fewer candidates (a column of a frame of column blocks: its own block alone), and the candidates are
// checked against the other dimension. Built once, on the first window read, in O(n log n).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "dbdf/block.hpp"

namespace dbdf::detail {

// The intervals of one dimension of the blocks of an object, n at most 2^64 - 1 elements long.
class IntervalLookup {
public:
    struct Interval {
        std::uint64_t begin;
        std::uint64_t end;  // past the last element; begin < end
    };
    // `intervals[i]` belongs to block i; empty intervals meet nothing.
    explicit IntervalLookup(const std::vector<Interval>& intervals);
    IntervalLookup() = default;

    // How many intervals meet [begin, end), in O(log n).
    std::size_t count_meeting(std::uint64_t begin, std::uint64_t end) const;
    // Calls visit(i) for each interval i that meets [begin, end), in order of first coordinate. Returns the tree
    // nodes looked at, the work done (O((k + 1) log n) for k intervals found).
    std::uint64_t for_each_meeting(std::uint64_t begin, std::uint64_t end,
                                   const std::function<void(std::size_t)>& visit) const;

private:
    std::vector<std::size_t> by_begin_;   // block positions sorted by first coordinate
    std::vector<std::uint64_t> begins_;   // the first coordinates in that order
    std::vector<std::uint64_t> ends_;     // every end, sorted
    std::vector<std::uint64_t> max_end_;  // tree over by_begin_ (node 1 the root, leaves from leaf_base_)
    std::size_t leaf_base_ = 1;
};

class WindowLookup {
public:
    explicit WindowLookup(const std::vector<BlockView>& blocks);

    // Calls visit(i) for every block i that shares a cell with the window of rows [row, row_end) and columns
    // [col, col_end). Returns the work done: tree nodes looked at plus blocks examined.
    std::uint64_t for_each_block(std::uint64_t row, std::uint64_t row_end, std::uint64_t col, std::uint64_t col_end,
                                 const std::function<void(std::size_t)>& visit) const;

private:
    const std::vector<BlockView>* blocks_;
    IntervalLookup rows_;
    IntervalLookup cols_;
};

}  // namespace dbdf::detail
