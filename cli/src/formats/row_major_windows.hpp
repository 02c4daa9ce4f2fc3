// The windows through which the text and .npy writers read a .dbdf object in row-major order, each at most a given
// number of values: bands of whole rows while a row fits, otherwise pieces of one row. So memory stays bounded by
// the window, whatever the object's shape: a row of 2^32 - 1 values is read (and written) piece by piece.
#pragma once

#include <cstdint>
#include <functional>

namespace dbdf_cli {

struct RowMajorWindow {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    bool ends_rows = false;  // its last column is the object's last: each of its rows ends there
};

// Calls `visit` for each window of a rows x cols object in row-major order, every window at most max_values values
// (at least one). An object without cells has no windows: nothing is visited, however long its other side.
void for_each_row_major_window(std::uint64_t rows, std::uint64_t cols, std::uint64_t max_values,
                               const std::function<void(const RowMajorWindow&)>& visit);

}  // namespace dbdf_cli
