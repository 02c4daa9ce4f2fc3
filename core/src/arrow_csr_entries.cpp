#include "arrow_csr_entries.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "arrow_csr_arrays.hpp"

namespace dbdf::detail {

namespace {

std::int64_t as_length(std::uint64_t count) { return static_cast<std::int64_t>(count); }

// Puts `entries` in the order `order` gives (order[place] is the position of the entry that belongs at place),
// in place: each cycle of the permutation is walked once, carrying one entry, so the band is never held twice.
// `order` is used up: a place is marked done by order[place] == place.
template <class T>
void permute_in_place(BandEntries& entries, std::vector<std::uint64_t>& order) {
    std::byte* const values = entries.values.data();
    for (std::uint64_t start = 0; start < order.size(); ++start) {
        if (order[start] == start) continue;
        const std::uint64_t carried_row = entries.rows[start];
        const std::uint64_t carried_col = entries.cols[start];
        std::byte carried_value[sizeof(T)];
        std::memcpy(carried_value, values + start * sizeof(T), sizeof(T));
        std::uint64_t place = start;
        while (order[place] != start) {
            const std::uint64_t from = order[place];
            entries.rows[place] = entries.rows[from];
            entries.cols[place] = entries.cols[from];
            std::memcpy(values + place * sizeof(T), values + from * sizeof(T), sizeof(T));
            order[place] = place;
            place = from;
        }
        entries.rows[place] = carried_row;
        entries.cols[place] = carried_col;
        std::memcpy(values + place * sizeof(T), carried_value, sizeof(T));
        order[place] = place;
    }
}

// Entries [first, first + count) of `entries` as (row, col, value) columns.
std::vector<ColumnArray> triplets(const BandEntries& entries, std::uint64_t first, std::uint64_t count,
                                  std::size_t value_bytes, BatchStorage& storage) {
    auto* rows = storage.allocate(count * sizeof(std::uint64_t));
    auto* cols = storage.allocate(count * sizeof(std::uint64_t));
    std::byte* values = storage.allocate(count * value_bytes);
    if (count > 0) {
        std::memcpy(rows, entries.rows.data() + first, count * sizeof(std::uint64_t));
        std::memcpy(cols, entries.cols.data() + first, count * sizeof(std::uint64_t));
        std::memcpy(values, entries.values.data() + first * value_bytes, count * value_bytes);
    }
    return {ColumnArray{rows, as_length(count)}, ColumnArray{cols, as_length(count)},
            ColumnArray{values, as_length(count)}};
}

}  // namespace

BandEntries decode_band_entries(const BatchSource& source, const RowBand& band) {
    const ValueType type = source.reader.header().value_type;
    const std::size_t value_bytes = value_size(type);
    std::uint64_t total = 0;
    for (const std::size_t position : band.blocks) {
        source.reader.seek_block(source.index[position].index);
        total += source.reader.count_entries();
    }
    BandEntries entries;
    entries.rows.resize(total);
    entries.cols.resize(total);
    entries.values.resize(total * value_bytes);
    std::vector<std::uint32_t> block_rows;
    std::vector<std::uint32_t> block_cols;
    std::uint64_t filled = 0;
    for (const std::size_t position : band.blocks) {
        const BlockView& block = source.index[position];
        source.reader.seek_block(block.index);
        const std::uint64_t count = source.reader.count_entries();
        block_rows.resize(count);
        block_cols.resize(count);
        source.reader.decode_coo(type, block_rows.data(), block_cols.data(),
                                 entries.values.data() + filled * value_bytes, count);
        for (std::uint64_t k = 0; k < count; ++k) {
            entries.rows[filled + k] = block.row + block_rows[k];
            entries.cols[filled + k] = block.col + block_cols[k];
        }
        filled += count;
    }
    if (std::is_sorted(entries.rows.begin(), entries.rows.end())) return entries;
    std::vector<std::uint64_t> order(total);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return entries.rows[a] < entries.rows[b]; });
    visit_value_type(type, [&]<class T>(type_tag<T>) { permute_in_place<T>(entries, order); });
    return entries;
}

std::uint64_t max_triplet_entries(ValueType type) {
    return kMaxBatchBytes / (2 * sizeof(std::uint64_t) + value_size(type));
}

std::vector<ColumnArray> CsrBatches::next(const BatchSource& source, const RowBand& band, BatchStorage& storage,
                                          bool& band_done) {
    const ValueType type = source.reader.header().value_type;
    if (!entries_) {
        entries_ = decode_band_entries(source, band);
        next_entry_ = 0;
        next_row_ = band.row_begin;
    }
    std::vector<ColumnArray> columns;
    if (source.options.sparse_layout == ArrowSparseLayout::Arrays) {
        const RowBand slice = band_slice(band, source.index, next_row_, kMaxCsrArraysRows);
        columns = csr_arrays(*entries_, slice, value_size(type), storage);
        next_row_ = slice.row_end;
        band_done = next_row_ == band.row_end;
    } else {
        const std::uint64_t count = std::min(entries_->count() - next_entry_, max_triplet_entries(type));
        columns = triplets(*entries_, next_entry_, count, value_size(type), storage);
        next_entry_ += count;
        band_done = next_entry_ == entries_->count();
    }
    if (band_done) entries_.reset();
    return columns;
}

}  // namespace dbdf::detail
