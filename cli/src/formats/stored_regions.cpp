#include "stored_regions.hpp"

#include <algorithm>

namespace dbdf_cli {

StoredRegions::StoredRegions(const Reader& reader, const std::string& input) {
    std::uint64_t count = 0;
    check(dbdf_reader_build_index(reader.get(), &count), input);
    for (std::uint64_t i = 0; i < count; ++i) {
        dbdf_block_info_t block{};
        check(dbdf_reader_index_entry(reader.get(), i, &block), input);
        if (block.block_type == DBDF_BLOCK_EMPTY || block.rows == 0 || block.cols == 0) continue;
        by_first_row_.push_back(Region{block.row, block.col, block.row + block.rows, block.col + block.cols});
    }
    std::sort(by_first_row_.begin(), by_first_row_.end(),
              [](const Region& a, const Region& b) { return a.row < b.row; });
}

void StoredRegions::move_to_band(std::uint64_t row, std::uint64_t row_end) {
    if (band_valid_ && row == band_row_ && row_end == band_row_end_) return;
    if (!band_valid_ || row < band_row_end_) {  // not the next band in tile order: start again from the first block
        next_ = 0;
        band_.clear();
    }
    band_valid_ = true;
    band_row_ = row;
    band_row_end_ = row_end;
    std::erase_if(band_, [&](const Region& region) { return region.row_end <= row; });
    for (; next_ < by_first_row_.size() && by_first_row_[next_].row < row_end; ++next_) {
        if (by_first_row_[next_].row_end > row) band_.push_back(by_first_row_[next_]);
    }
    std::vector<Columns> columns;
    columns.reserve(band_.size());
    for (const Region& region : band_) columns.push_back(Columns{region.col, region.col_end});
    std::sort(columns.begin(), columns.end(), [](const Columns& a, const Columns& b) { return a.begin < b.begin; });
    band_columns_.clear();
    for (const Columns& run : columns) {
        if (!band_columns_.empty() && run.begin <= band_columns_.back().end) {
            band_columns_.back().end = std::max(band_columns_.back().end, run.end);
        } else {
            band_columns_.push_back(run);
        }
    }
}

bool StoredRegions::intersects(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols) {
    if (rows == 0 || cols == 0 || by_first_row_.empty()) return false;
    move_to_band(row, row + rows);
    const auto run = std::upper_bound(band_columns_.begin(), band_columns_.end(), col,
                                      [](std::uint64_t c, const Columns& columns) { return c < columns.end; });
    return run != band_columns_.end() && run->begin < col + cols;
}

}  // namespace dbdf_cli
