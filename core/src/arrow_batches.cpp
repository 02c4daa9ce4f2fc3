#include "arrow_batches.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

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

// The columns of a batch that are decoded rather than lent, read together so that the reader's decode threads
// share them (each column alone is often too small to split).
class ColumnReads {
public:
    // A buffer of the batch for `window` (of one column, or of the band's rows row-major), decoded by run().
    void* add(ValueType type, const Window& window, BatchStorage& storage) {
        const std::uint64_t count = window.rows * window.cols;
        std::byte* values = storage.allocate(count * value_size(type));
        reads_.push_back(DenseWindowRead{type, window, values, count, window.cols});
        return values;
    }
    void run(Reader& reader) { reader.read_dense_windows(reads_); }

private:
    std::vector<DenseWindowRead> reads_;
};

// The values of a column over the band: lent where lent_values() allows (a block holding all the band's rows of
// it), else a buffer of the batch that `reads` fills.
const void* column_values(const BatchSource& source, const BlockView* block, const RowBand& band, const Window& window,
                          ValueType type, ColumnReads& reads, BatchStorage& storage) {
    if (block != nullptr) {
        if (const void* lent = lent_values(source, *block, type, band.row_begin - block->row)) return lent;
    }
    return reads.add(type, window, storage);
}

std::vector<ColumnArray> frame_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const std::vector<const BlockView*> blocks = column_blocks(source, band);
    std::vector<ColumnArray> columns;
    ColumnReads reads;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        const Window window{band.row_begin, column, band.rows(), 1};
        const void* values =
            column_values(source, blocks[column], band, window, header.column_types[column], reads, storage);
        columns.push_back(ColumnArray{values, as_length(band.rows())});
    }
    reads.run(source.reader);
    return columns;
}

// Columns of a dense matrix: a column that is one block of its own is lent or decoded alone, the others are cut
// out of the band decoded row-major once.
std::vector<ColumnArray> matrix_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage) {
    const ObjectHeader& header = source.reader.header();
    const std::vector<const BlockView*> blocks = column_blocks(source, band);
    std::vector<ColumnArray> columns(header.cols, ColumnArray{nullptr, as_length(band.rows())});
    ColumnReads reads;
    bool all_done = true;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        if (blocks[column] != nullptr) {
            const Window window{band.row_begin, column, band.rows(), 1};
            columns[column].values =
                column_values(source, blocks[column], band, window, header.value_type, reads, storage);
        }
        all_done = all_done && columns[column].values != nullptr;
    }
    BatchStorage scratch(storage.pool);  // the band row-major, dropped once its columns are cut out
    const void* band_values = nullptr;
    if (!all_done) {
        band_values = reads.add(header.value_type, Window{band.row_begin, 0, band.rows(), header.cols}, scratch);
    }
    reads.run(source.reader);
    if (all_done) return columns;
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
    if (source.reader.header().data_type == DataType::Frame) return frame_columns(source, band, storage);
    return source.options.dense_layout == ArrowMatrixLayout::FixedSizeList ? matrix_list(source, band, storage)
                                                                           : matrix_columns(source, band, storage);
}

}  // namespace dbdf::detail
