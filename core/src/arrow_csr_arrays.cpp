#include "arrow_csr_arrays.hpp"

#include <algorithm>
#include <cstring>

namespace dbdf::detail {

namespace {

// One large list of `count` values at `values`: offsets 0 and count.
ColumnArray one_row_list(const void* values, std::uint64_t count, BatchStorage& storage) {
    auto* offsets = reinterpret_cast<std::int64_t*>(storage.allocate(2 * sizeof(std::int64_t)));
    offsets[0] = 0;
    offsets[1] = static_cast<std::int64_t>(count);
    return ColumnArray{values, 1, ColumnArray::kNotAList, offsets, static_cast<std::int64_t>(count)};
}

}  // namespace

std::vector<ColumnArray> csr_arrays(const BandEntries& band_entries, const RowBand& slice, std::size_t value_bytes,
                                    BatchStorage& storage) {
    // The band's entries are in row order: the slice's are one run of them.
    const auto begin = std::lower_bound(band_entries.rows.begin(), band_entries.rows.end(), slice.row_begin);
    const auto end = std::lower_bound(begin, band_entries.rows.end(), slice.row_end);
    const auto first = static_cast<std::uint64_t>(begin - band_entries.rows.begin());
    const auto count = static_cast<std::uint64_t>(end - begin);
    const std::uint64_t rows = slice.rows();  // at most kMaxCsrArraysRows: the slicing saw to it
    auto* row_offsets = reinterpret_cast<std::uint64_t*>(storage.allocate((rows + 1) * sizeof(std::uint64_t)));
    auto* cols = reinterpret_cast<std::uint64_t*>(storage.allocate(count * sizeof(std::uint64_t)));
    std::byte* values = storage.allocate(count * value_bytes);
    // Counted per row in row_offsets[row + 1], then summed into offsets.
    std::memset(row_offsets, 0, (rows + 1) * sizeof(std::uint64_t));
    for (auto row = begin; row != end; ++row) ++row_offsets[*row - slice.row_begin + 1];
    for (std::uint64_t row = 1; row <= rows; ++row) row_offsets[row] += row_offsets[row - 1];
    if (count > 0) {
        std::memcpy(cols, band_entries.cols.data() + first, count * sizeof(std::uint64_t));
        std::memcpy(values, band_entries.values.data() + first * value_bytes, count * value_bytes);
    }
    auto* row_begin = reinterpret_cast<std::uint64_t*>(storage.allocate(sizeof(std::uint64_t)));
    *row_begin = slice.row_begin;
    return {ColumnArray{row_begin, 1}, one_row_list(row_offsets, rows + 1, storage), one_row_list(cols, count, storage),
            one_row_list(values, count, storage)};
}

}  // namespace dbdf::detail
