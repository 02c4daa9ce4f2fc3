#include "arrow_batches.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "arrow_csr_arrays.hpp"

namespace dbdf::detail {

namespace {

std::int64_t as_length(std::uint64_t count) { return static_cast<std::int64_t>(count); }

// The values of `block` from its row `first_row` on, as they are stored, when they already have Arrow's layout for
// `type` and the batch may point at them: a dense block of the spec's layout in `type`, lent memory, little-endian
// host, and aligned to the value's size (consumers may read values in place; Arrow recommends the alignment).
// nullptr otherwise.
const void* lent_values(const BatchSource& source, const BlockView& block, ValueType type, std::uint64_t first_row) {
    if (!source.options.zero_copy || std::endian::native != std::endian::little) return nullptr;
    if (block.block_type != BlockType::Dense || block.layout != PayloadLayout::Spec || block.value_type != type) {
        return nullptr;
    }
    if (!source.reader.lends_memory()) return nullptr;
    source.reader.seek_block(block.index);
    const std::byte* values = source.reader.payload().data() + first_row * block.cols * value_size(type);
    if (reinterpret_cast<std::uintptr_t>(values) % value_size(type) != 0) return nullptr;
    return values;
}

// For each object column, the one-column block that holds all its rows of the band, or nullptr.
std::vector<const BlockView*> column_blocks(const BatchSource& source, const RowBand& band) {
    std::vector<const BlockView*> blocks(source.reader.header().cols, nullptr);
    for (const std::size_t position : band.blocks) {
        const BlockView& block = source.index[position];
        if (block.cols == 1 && block.row <= band.row_begin && block.row_end() >= band.row_end)
            blocks[block.col] = &block;
    }
    return blocks;
}

void* decode_window(const BatchSource& source, ValueType type, const Window& window, BatchStorage& storage) {
    const std::uint64_t count = window.rows * window.cols;
    std::byte* values = storage.allocate(count * value_size(type));
    source.reader.read_dense_window(type, window, values, count, window.cols);
    return values;
}

// The values of a column that one block holds over the whole band: lent where lent_values() allows, else the block
// decoded on its own when the band is all of it (one pass over its payload, straight into a buffer of the batch),
// or the band's rows of it.
const void* one_block_column(const BatchSource& source, const BlockView& block, const RowBand& band, ValueType type,
                             BatchStorage& storage) {
    if (const void* lent = lent_values(source, block, type, band.row_begin - block.row)) return lent;
    if (block.rows != band.rows()) {
        return decode_window(source, type, Window{band.row_begin, block.col, band.rows(), 1}, storage);
    }
    std::byte* values = storage.allocate(block.rows * value_size(type));
    source.reader.seek_block(block.index);
    source.reader.decode_dense(type, values, block.rows, 1);
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
            values = one_block_column(source, *blocks[column], band, type, storage);
        } else {
            values = decode_window(source, type, Window{band.row_begin, column, band.rows(), 1}, storage);
        }
        columns.push_back(ColumnArray{values, as_length(band.rows())});
    }
    return columns;
}

// Columns of a dense matrix: a column that is one block of its own is lent or decoded alone, the others are cut
// out of the band decoded row-major once.
std::vector<ColumnArray> matrix_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const std::vector<const BlockView*> blocks = column_blocks(source, band);
    std::vector<ColumnArray> columns(header.cols, ColumnArray{nullptr, as_length(band.rows())});
    bool all_done = true;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        if (blocks[column] != nullptr) {
            columns[column].values = one_block_column(source, *blocks[column], band, header.value_type, storage);
        }
        all_done = all_done && columns[column].values != nullptr;
    }
    if (all_done) return columns;
    BatchStorage scratch(storage.pool);  // the band row-major, dropped once its columns are cut out
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
        const BlockView& block = source.index[band.blocks.front()];
        values = lent_values(source, block, header.value_type, band.row_begin - block.row);
    }
    if (values == nullptr) {
        values = decode_window(source, header.value_type, Window{band.row_begin, 0, band.rows(), header.cols}, storage);
    }
    return {ColumnArray{values, as_length(band.rows()), as_length(header.cols)}};
}

// A CSR matrix's band as (row, col, value) in row-major order: each block's entries decoded as COO, then a stable
// sort on the row. Blocks come ordered by column and each block's entries row by row, so each row's columns stay
// increasing. Everything here is sized by the stored entries, never by the band's rows, which an empty block can
// make as many as 2^32 at no cost in the file.
std::vector<ColumnArray> sparse_triplets(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ValueType type = source.reader.header().value_type;
    const std::size_t value_bytes = value_size(type);
    std::uint64_t total = 0;
    for (const std::size_t position : band.blocks) {
        source.reader.seek_block(source.index[position].index);
        total += source.reader.count_entries();
    }
    auto* rows_out = reinterpret_cast<std::uint64_t*>(storage.allocate(total * sizeof(std::uint64_t)));
    auto* cols_out = reinterpret_cast<std::uint64_t*>(storage.allocate(total * sizeof(std::uint64_t)));
    std::byte* values_out = storage.allocate(total * value_bytes);
    // The entries in block order first, then put in row order.
    std::vector<std::uint64_t> rows(total);
    std::vector<std::uint64_t> cols(total);
    std::vector<std::byte> values(total * value_bytes);
    std::vector<std::uint32_t> block_rows;
    std::vector<std::uint32_t> block_cols;
    std::uint64_t filled = 0;
    for (const std::size_t position : band.blocks) {
        const BlockView& block = source.index[position];
        source.reader.seek_block(block.index);
        const std::uint64_t count = source.reader.count_entries();
        block_rows.resize(count);
        block_cols.resize(count);
        source.reader.decode_coo(type, block_rows.data(), block_cols.data(), values.data() + filled * value_bytes,
                                 count);
        for (std::uint64_t k = 0; k < count; ++k) {
            rows[filled + k] = block.row + block_rows[k];
            cols[filled + k] = block.col + block_cols[k];
        }
        filled += count;
    }
    std::vector<std::uint64_t> order(total);
    for (std::uint64_t k = 0; k < total; ++k) order[k] = k;
    if (!std::is_sorted(rows.begin(), rows.end())) {
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint64_t a, std::uint64_t b) { return rows[a] < rows[b]; });
    }
    for (std::uint64_t place = 0; place < total; ++place) {
        const std::uint64_t k = order[place];
        rows_out[place] = rows[k];
        cols_out[place] = cols[k];
        std::memcpy(values_out + place * value_bytes, values.data() + k * value_bytes, value_bytes);
    }
    return {ColumnArray{rows_out, as_length(total)}, ColumnArray{cols_out, as_length(total)},
            ColumnArray{values_out, as_length(total)}};
}

}  // namespace

std::uint64_t max_batch_rows(const ObjectHeader& header, const ArrowExportOptions& options) {
    if (header.data_type == DataType::CsrMatrix && options.sparse_layout == ArrowSparseLayout::Arrays) {
        return kMaxCsrArraysRows;
    }
    std::uint64_t row_bytes = 0;
    if (header.data_type == DataType::Frame) {
        for (const ValueType type : header.column_types) row_bytes += value_size(type);
    } else if (header.data_type != DataType::CsrMatrix) {
        row_bytes = header.cols * value_size(header.value_type);  // cols <= kMaxArrowColumns: no overflow
    }
    // No bytes per row (no columns): any number of rows, as many as a batch's int64 length holds.
    if (row_bytes == 0) return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return std::max<std::uint64_t>(kMaxBatchBytes / row_bytes, 1);
}

std::vector<ColumnArray> band_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    switch (source.reader.header().data_type) {
        case DataType::Frame: return frame_columns(source, band, storage);
        case DataType::CsrMatrix:
            return source.options.sparse_layout == ArrowSparseLayout::Arrays ? csr_arrays(source, band, storage)
                                                                             : sparse_triplets(source, band, storage);
        case DataType::DenseMatrix:
        case DataType::Scalar: break;
    }
    return source.options.dense_layout == ArrowMatrixLayout::FixedSizeList ? matrix_list(source, band, storage)
                                                                           : matrix_columns(source, band, storage);
}

}  // namespace dbdf::detail
