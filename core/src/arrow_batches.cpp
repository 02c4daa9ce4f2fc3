#include "arrow_batches.hpp"

#include <bit>
#include <cstring>

namespace dbdf::detail {

namespace {

std::int64_t as_length(std::uint64_t count) { return static_cast<std::int64_t>(count); }

// The values of `block` as they are stored, when they already have Arrow's layout for `type` and the batch may
// point at them: a dense block of the spec's layout in `type`, lent memory, little-endian host, and aligned to the
// value's size (consumers may read values in place; Arrow recommends the alignment). nullptr otherwise.
const void* lent_values(const BatchSource& source, const BlockView& block, ValueType type) {
    if (!source.options.zero_copy || std::endian::native != std::endian::little) return nullptr;
    if (block.block_type != BlockType::Dense || block.layout != PayloadLayout::Spec || block.value_type != type) {
        return nullptr;
    }
    if (!source.reader.lends_memory()) return nullptr;
    source.reader.seek_block(block.index);
    const std::byte* values = source.reader.payload().data();
    if (reinterpret_cast<std::uintptr_t>(values) % value_size(type) != 0) return nullptr;
    return values;
}

// For each object column, the one-column block that holds all its rows of the band, or nullptr.
std::vector<const BlockView*> column_blocks(const BatchSource& source, const RowBand& band) {
    std::vector<const BlockView*> blocks(source.reader.header().cols, nullptr);
    for (const std::size_t position : band.blocks) {
        const BlockView& block = source.index[position];
        if (block.cols == 1 && block.rows == band.rows()) blocks[block.col] = &block;
    }
    return blocks;
}

// The values of a column held by one block: lent where lent_values() allows, else the block decoded on its own
// (one pass over its payload, straight into a buffer of the batch).
const void* one_block_column(const BatchSource& source, const BlockView& block, ValueType type, BatchStorage& storage) {
    if (const void* lent = lent_values(source, block, type)) return lent;
    std::byte* values = storage.allocate(block.rows * value_size(type));
    source.reader.seek_block(block.index);
    source.reader.decode_dense(type, values, block.rows, 1);
    return values;
}

void* decode_window(const BatchSource& source, ValueType type, const Window& window, BatchStorage& storage) {
    const std::uint64_t count = window.rows * window.cols;
    std::byte* values = storage.allocate(count * value_size(type));
    source.reader.read_dense_window(type, window, values, count, window.cols);
    return values;
}

std::vector<ColumnArray> frame_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const std::vector<const BlockView*> blocks = column_blocks(source, band);
    std::vector<ColumnArray> columns;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        const ValueType type = header.column_types[column];
        const void* values = nullptr;
        if (blocks[column] != nullptr) {
            values = one_block_column(source, *blocks[column], type, storage);
        } else {
            values = decode_window(source, type, Window{band.row_begin, column, band.rows(), 1}, storage);
        }
        columns.push_back(ColumnArray{values, as_length(band.rows()), 0});
    }
    return columns;
}

// Columns of a dense matrix: a column that is one block of its own is lent or decoded alone, the others are cut
// out of the band decoded row-major once.
std::vector<ColumnArray> matrix_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const std::vector<const BlockView*> blocks = column_blocks(source, band);
    std::vector<ColumnArray> columns(header.cols, ColumnArray{nullptr, as_length(band.rows()), 0});
    bool all_done = true;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        if (blocks[column] != nullptr) {
            columns[column].values = one_block_column(source, *blocks[column], header.value_type, storage);
        }
        all_done = all_done && columns[column].values != nullptr;
    }
    if (all_done) return columns;
    BatchStorage scratch;  // the band row-major, dropped once its columns are cut out
    const void* band_values =
        decode_window(source, header.value_type, Window{band.row_begin, 0, band.rows(), header.cols}, scratch);
    visit_value_type(header.value_type, [&]<class T>(type_tag<T>) {
        const T* rows = static_cast<const T*>(band_values);
        for (std::uint64_t column = 0; column < header.cols; ++column) {
            if (columns[column].values != nullptr) continue;
            T* values = reinterpret_cast<T*>(storage.allocate(band.rows() * sizeof(T)));
            for (std::uint64_t row = 0; row < band.rows(); ++row) values[row] = rows[row * header.cols + column];
            columns[column].values = values;
        }
    });
    return columns;
}

// A dense matrix as one fixed-size list column: the band row-major, lent when one block spans it.
std::vector<ColumnArray> matrix_list(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const void* values = nullptr;
    if (band.blocks.size() == 1 && source.index[band.blocks.front()].cols == header.cols) {
        values = lent_values(source, source.index[band.blocks.front()], header.value_type);
    }
    if (values == nullptr) {
        values = decode_window(source, header.value_type, Window{band.row_begin, 0, band.rows(), header.cols}, storage);
    }
    return {ColumnArray{values, as_length(band.rows()), as_length(header.cols)}};
}

// A block's entries as block-local COO.
struct BlockEntries {
    const BlockView* block = nullptr;
    std::vector<std::uint32_t> rows;
    std::vector<std::uint32_t> cols;
    std::vector<std::byte> values;
};

// A CSR matrix's band as (row, col, value) in row-major order: each block's entries decoded as COO, then placed by
// a counting sort on the row. Blocks come ordered by column, so each row's columns stay increasing.
std::vector<ColumnArray> sparse_triplets(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ValueType type = source.reader.header().value_type;
    const std::size_t value_bytes = value_size(type);
    std::vector<BlockEntries> blocks;
    std::vector<std::uint64_t> row_starts(band.rows() + 1, 0);
    for (const std::size_t position : band.blocks) {
        BlockEntries& entries = blocks.emplace_back();
        entries.block = &source.index[position];
        source.reader.seek_block(entries.block->index);
        const std::uint64_t count = source.reader.count_entries();
        entries.rows.resize(count);
        entries.cols.resize(count);
        entries.values.resize(count * value_bytes);
        source.reader.decode_coo(type, entries.rows.data(), entries.cols.data(), entries.values.data(), count);
        const std::uint64_t first_row = entries.block->row - band.row_begin;
        for (const std::uint32_t row : entries.rows) ++row_starts[first_row + row + 1];
    }
    for (std::uint64_t row = 0; row < band.rows(); ++row) row_starts[row + 1] += row_starts[row];
    const std::uint64_t total = row_starts.back();
    auto* rows_out = reinterpret_cast<std::uint64_t*>(storage.allocate(total * sizeof(std::uint64_t)));
    auto* cols_out = reinterpret_cast<std::uint64_t*>(storage.allocate(total * sizeof(std::uint64_t)));
    std::byte* values_out = storage.allocate(total * value_bytes);
    std::vector<std::uint64_t>& next = row_starts;  // each row's next free place
    for (const BlockEntries& entries : blocks) {
        const std::uint64_t first_row = entries.block->row - band.row_begin;
        for (std::size_t k = 0; k < entries.rows.size(); ++k) {
            const std::uint64_t row = first_row + entries.rows[k];
            const std::uint64_t place = next[row]++;
            rows_out[place] = band.row_begin + row;
            cols_out[place] = entries.block->col + entries.cols[k];
            std::memcpy(values_out + place * value_bytes, entries.values.data() + k * value_bytes, value_bytes);
        }
    }
    return {ColumnArray{rows_out, as_length(total), 0}, ColumnArray{cols_out, as_length(total), 0},
            ColumnArray{values_out, as_length(total), 0}};
}

}  // namespace

std::vector<ColumnArray> band_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    switch (source.reader.header().data_type) {
        case DataType::Frame: return frame_columns(source, band, storage);
        case DataType::CsrMatrix: return sparse_triplets(source, band, storage);
        case DataType::DenseMatrix:
        case DataType::Scalar: break;
    }
    return source.options.dense_layout == ArrowMatrixLayout::FixedSizeList ? matrix_list(source, band, storage)
                                                                           : matrix_columns(source, band, storage);
}

}  // namespace dbdf::detail
