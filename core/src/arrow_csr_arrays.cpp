#include "arrow_csr_arrays.hpp"

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

// The entries of a band's blocks in the band's rows, in block order (blocks by column, each row by row): rows
// relative to the band's first row, object-wide columns, values in the object's value type.
struct BandEntries {
    std::vector<std::uint64_t> rows;
    std::vector<std::uint64_t> cols;
    std::vector<std::byte> values;
};

BandEntries band_entries(const BatchSource& source, const RowBand& band) {
    const ValueType type = source.reader.header().value_type;
    const std::size_t value_bytes = value_size(type);
    BandEntries entries;
    std::vector<std::uint32_t> block_rows;
    std::vector<std::uint32_t> block_cols;
    std::vector<std::byte> block_values;
    for (const std::size_t position : band.blocks) {
        const BlockView& block = source.index[position];
        source.reader.seek_block(block.index);
        const std::uint64_t count = source.reader.count_entries();
        if (count == 0) continue;
        block_rows.resize(count);
        block_cols.resize(count);
        block_values.resize(count * value_bytes);
        source.reader.decode_coo(type, block_rows.data(), block_cols.data(), block_values.data(), count);
        // A slice of a band may cover only some of a block's rows.
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t row = block.row + block_rows[k];
            if (row < band.row_begin || row >= band.row_end) continue;
            entries.rows.push_back(row - band.row_begin);
            entries.cols.push_back(block.col + block_cols[k]);
            entries.values.insert(entries.values.end(), block_values.begin() + k * value_bytes,
                                  block_values.begin() + (k + 1) * value_bytes);
        }
    }
    return entries;
}

}  // namespace

std::vector<ColumnArray> csr_arrays(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const std::size_t value_bytes = value_size(source.reader.header().value_type);
    const BandEntries entries = band_entries(source, band);
    const std::uint64_t rows = band.rows();  // at most kMaxCsrArraysRows: the slicing saw to it
    const std::uint64_t count = entries.rows.size();
    auto* row_offsets = reinterpret_cast<std::uint64_t*>(storage.allocate((rows + 1) * sizeof(std::uint64_t)));
    auto* cols_out = reinterpret_cast<std::uint64_t*>(storage.allocate(count * sizeof(std::uint64_t)));
    std::byte* values_out = storage.allocate(count * value_bytes);
    // A counting sort on the row: stable, so each row keeps the block order, in which its columns increase. The
    // offsets serve as the cursors: row_offsets[row + 1] is where row's next entry goes, and once every entry is
    // placed it is row's end, which is the next row's start.
    std::memset(row_offsets, 0, (rows + 1) * sizeof(std::uint64_t));
    for (const std::uint64_t row : entries.rows) {
        if (row + 2 <= rows) ++row_offsets[row + 2];
    }
    for (std::uint64_t row = 2; row <= rows; ++row) row_offsets[row] += row_offsets[row - 1];
    for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t place = row_offsets[entries.rows[k] + 1]++;
        cols_out[place] = entries.cols[k];
        std::memcpy(values_out + place * value_bytes, entries.values.data() + k * value_bytes, value_bytes);
    }
    auto* row_begin = reinterpret_cast<std::uint64_t*>(storage.allocate(sizeof(std::uint64_t)));
    *row_begin = band.row_begin;
    return {ColumnArray{row_begin, 1}, one_row_list(row_offsets, rows + 1, storage),
            one_row_list(cols_out, count, storage), one_row_list(values_out, count, storage)};
}

}  // namespace dbdf::detail
