// The row bands of an object's blocks: the narrowest runs of rows that no block crosses. Each Arrow batch is one,
// or a slice of one when the band holds more values than a batch may (band_slice).
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

// The part of `band` that starts at row `row_begin` (within the band) and holds at most `max_rows` rows, at least
// one, with those of the band's blocks that overlap it (still ordered by column).
RowBand band_slice(const RowBand& band, const std::vector<BlockView>& index, std::uint64_t row_begin,
                   std::uint64_t max_rows);

}  // namespace dbdf::detail
