#include "arrow_bands.hpp"

#include <algorithm>

namespace dbdf::detail {

std::vector<RowBand> row_bands(const std::vector<BlockView>& index) {
    std::vector<std::size_t> order;
    order.reserve(index.size());
    for (std::size_t position = 0; position < index.size(); ++position) {
        if (index[position].area() > 0) order.push_back(position);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return index[a].row != index[b].row ? index[a].row < index[b].row : index[a].col < index[b].col;
    });
    // Blocks sorted by their first row: a band grows while the next block starts above its current end.
    std::vector<RowBand> bands;
    for (const std::size_t position : order) {
        const BlockView& block = index[position];
        if (bands.empty() || block.row >= bands.back().row_end) {
            bands.push_back(RowBand{block.row, block.row_end(), {}});
        }
        RowBand& band = bands.back();
        band.row_end = std::max(band.row_end, block.row_end());
        band.blocks.push_back(position);
    }
    for (RowBand& band : bands) {
        std::sort(band.blocks.begin(), band.blocks.end(), [&](std::size_t a, std::size_t b) {
            return index[a].col != index[b].col ? index[a].col < index[b].col : index[a].row < index[b].row;
        });
    }
    return bands;
}

RowBand band_slice(const RowBand& band, const std::vector<BlockView>& index, std::uint64_t row_begin,
                   std::uint64_t max_rows) {
    const std::uint64_t rows = std::min(band.row_end - row_begin, std::max<std::uint64_t>(max_rows, 1));
    RowBand slice{row_begin, row_begin + rows, {}};
    for (const std::size_t position : band.blocks) {
        const BlockView& block = index[position];
        if (block.row < slice.row_end && block.row_end() > slice.row_begin) slice.blocks.push_back(position);
    }
    return slice;
}

}  // namespace dbdf::detail
