#include "row_major_windows.hpp"

#include <algorithm>

namespace dbdf_cli {

void for_each_row_major_window(std::uint64_t rows, std::uint64_t cols, std::uint64_t max_values,
                               const std::function<void(const RowMajorWindow&)>& visit) {
    if (rows == 0 || cols == 0) return;
    max_values = std::max<std::uint64_t>(max_values, 1);
    if (cols <= max_values) {
        const std::uint64_t band = max_values / cols;
        for (std::uint64_t row = 0; row < rows; row += std::min(band, rows - row)) {
            visit(RowMajorWindow{row, 0, std::min(band, rows - row), cols, true});
        }
        return;
    }
    for (std::uint64_t row = 0; row < rows; ++row) {
        for (std::uint64_t col = 0; col < cols; col += std::min(max_values, cols - col)) {
            const std::uint64_t width = std::min(max_values, cols - col);
            visit(RowMajorWindow{row, col, 1, width, col + width == cols});
        }
    }
}

}  // namespace dbdf_cli
