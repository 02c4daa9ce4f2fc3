// Where a .dbdf input stores values: the rectangles of its blocks that are not empty, from the block index (no
// payload is read). Re-tiling an input into a new block shape asks it which tiles can only hold zeros, so that those
// are written without being gathered: a 44-byte file may describe a (2^32 - 1) x (2^32 - 1) matrix of one empty
// block, and its tiles must cost the blocks written, not the cells they cover.
#pragma once

#include <cstdint>
#include <vector>

#include "../handles.hpp"

namespace dbdf_cli {

class StoredRegions {
public:
    // Reads the reader's block index (building it, which checks every block header, the bounds and the partition).
    StoredRegions(const Reader& reader, const std::string& input);

    // Whether a block that stores values intersects rows [row, row + rows) and columns [col, col + cols). Queries are
    // cheapest in row-major tile order: the blocks crossing the current row band are kept, and the next band only
    // adds the blocks that start in it and drops those that ended; the columns they cover in the band are merged
    // into sorted runs, so a tile is one binary search.
    bool intersects(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols);

private:
    struct Region {
        std::uint64_t row = 0, col = 0, row_end = 0, col_end = 0;
    };
    void move_to_band(std::uint64_t row, std::uint64_t row_end);

    std::vector<Region> by_first_row_;  // the blocks that store values, by their first row
    std::size_t next_ = 0;              // the first of them not yet taken into a band
    std::vector<Region> band_;          // those crossing the current band
    struct Columns {
        std::uint64_t begin = 0, end = 0;
    };
    std::vector<Columns> band_columns_;  // the columns band_ covers, as disjoint runs in order
    std::uint64_t band_row_ = 0, band_row_end_ = 0;
    bool band_valid_ = false;
};

}  // namespace dbdf_cli
