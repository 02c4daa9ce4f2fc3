#include "daphne_csr_walker.hpp"

#include <algorithm>
#include <numeric>

namespace dbdf::detail {

void order_row_by_column(const ByteWindow& input, const BlockView& block, std::uint32_t row, std::uint64_t row_begin,
                         std::uint64_t row_stop, std::vector<std::uint64_t>& by_column) {
    const std::uint64_t columns_at = block.payload_offset + 8 * (std::uint64_t{block.rows} + 1);
    auto column_of = [&](std::uint64_t k) { return load_le<std::uint64_t>(input.at(columns_at + 8 * k)); };
    by_column.resize(row_stop - row_begin);
    std::iota(by_column.begin(), by_column.end(), row_begin);
    // Ties keep file order, so the duplicate reported is the later one.
    std::sort(by_column.begin(), by_column.end(), [&](std::uint64_t a, std::uint64_t b) {
        const std::uint64_t col_a = column_of(a);
        const std::uint64_t col_b = column_of(b);
        return col_a < col_b || (col_a == col_b && a < b);
    });
    for (std::size_t i = 1; i < by_column.size(); ++i) {
        if (column_of(by_column[i]) != column_of(by_column[i - 1])) continue;
        fail_daphne_duplicate_column(block, columns_at + 8 * by_column[i], row, column_of(by_column[i]),
                                     columns_at + 8 * by_column[i - 1]);
    }
}

}  // namespace dbdf::detail
