// The row bands of an object's blocks: the narrowest runs of rows that no block crosses. Each Arrow batch is one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dbdf/block.hpp"

namespace dbdf::detail {

struct RowBand {
    std::uint64_t row_begin = 0;
    std::uint64_t row_end = 0;
    std::vector<std::size_t> blocks;  // positions in the index of the band's blocks, ordered by column

    std::uint64_t rows() const { return row_end - row_begin; }
};

// The bands of the blocks of `index` (which partition the object: the reader checked it), top to bottom. Blocks
// without cells are left out; an object without cells has no band.
std::vector<RowBand> row_bands(const std::vector<BlockView>& index);

}  // namespace dbdf::detail
