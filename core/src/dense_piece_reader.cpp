#include "dense_piece_reader.hpp"

#include <algorithm>

#include "daphne_dialect.hpp"
#include "dbdf/endian.hpp"
#include "payload_walkers.hpp"

namespace dbdf::detail {
namespace {

// Whether the target's values can be read from the file into the output as they are: same value type, no rule 8
// check, a host that stores values as the file does, and one run of bytes on both sides.
bool reads_straight_into_output(const BlockView& block, const ObjectHeader& header, const DenseTarget& target) {
    if (!kHostIsLittleEndian || block.layout != PayloadLayout::Spec || block.value_type != target.type) return false;
    const std::uint64_t width = target.col_end - target.col_begin;
    const std::uint64_t rows = target.row_end - target.row_begin;
    const bool one_run = rows == 1 || (width == block.cols && target.row_stride == width);
    return one_run && !needs_declared_check(block, header);
}

// Decodes rows [row_begin, row_end) x columns [col_begin, col_end) of a dense block from one read of the bytes that
// span them.
void read_and_decode(const ByteSource& source, const BlockView& block, const ObjectHeader& header,
                     const DenseTarget& target, std::uint32_t row_begin, std::uint32_t row_end, std::uint32_t col_begin,
                     std::uint32_t col_end, ByteBuffer& buffer) {
    const std::size_t value_bytes = value_size(block.value_type);
    const std::uint64_t first = dense_value_offset(block, row_begin, col_begin, value_bytes);
    const std::uint64_t last_end = dense_value_offset(block, row_end - 1, col_end - 1, value_bytes) + value_bytes;
    const ByteWindow window = fetch(source, first, last_end - first, buffer);
    DenseTarget part = target;
    part.data = static_cast<std::byte*>(target.data) +
                ((std::uint64_t{row_begin} - target.row_begin) * target.row_stride + (col_begin - target.col_begin)) *
                    value_size(target.type);
    part.row_begin = row_begin;
    part.row_end = row_end;
    part.col_begin = col_begin;
    part.col_end = col_end;
    decode_block_dense(window, block, header, part);
}

}  // namespace

void read_block_dense(const ByteSource& source, const BlockView& block, const ObjectHeader& header,
                      const DenseTarget& target, ByteBuffer& buffer) {
    if (target.row_begin >= target.row_end || target.col_begin >= target.col_end) return;
    if (const std::byte* memory = source.lent_memory()) {
        decode_block_dense(ByteWindow{memory, 0, source.size()}, block, header, target);
        return;
    }
    if (block.block_type == BlockType::Empty) {
        decode_block_dense(ByteWindow{}, block, header, target);
        return;
    }
    if (block.block_type != BlockType::Dense) {
        decode_block_dense(fetch(source, block.payload_offset, block.payload_bytes, buffer), block, header, target);
        return;
    }
    const std::size_t value_bytes = value_size(block.value_type);
    const std::uint64_t width = target.col_end - target.col_begin;
    if (reads_straight_into_output(block, header, target)) {
        const std::uint64_t rows = target.row_end - target.row_begin;
        read_exactly(source, dense_value_offset(block, target.row_begin, target.col_begin, value_bytes),
                     {static_cast<std::byte*>(target.data), static_cast<std::size_t>(rows * width * value_bytes)});
        return;
    }
    // Bytes from one row's first value to the next row's.
    const std::uint64_t row_pitch =
        block.layout == PayloadLayout::StridedColumn ? block.value_stride : std::uint64_t{block.cols} * value_bytes;
    const std::uint64_t row_bytes = width * value_bytes;
    if (row_bytes > kDenseReadBytes) {
        // Rows wider than a read: each row in runs of columns.
        const std::uint64_t run = kDenseReadBytes / value_bytes;
        for (std::uint32_t row = target.row_begin; row < target.row_end; ++row) {
            for (std::uint64_t col = target.col_begin; col < target.col_end; col += run) {
                const auto col_end = static_cast<std::uint32_t>(std::min<std::uint64_t>(col + run, target.col_end));
                read_and_decode(source, block, header, target, row, row + 1, static_cast<std::uint32_t>(col), col_end,
                                buffer);
            }
        }
        return;
    }
    // As many rows as fit one read: (n - 1) * row_pitch + row_bytes <= kDenseReadBytes.
    const std::uint64_t rows_per_read = 1 + (kDenseReadBytes - row_bytes) / row_pitch;
    for (std::uint64_t row = target.row_begin; row < target.row_end; row += rows_per_read) {
        const auto row_end = static_cast<std::uint32_t>(std::min<std::uint64_t>(row + rows_per_read, target.row_end));
        read_and_decode(source, block, header, target, static_cast<std::uint32_t>(row), row_end, target.col_begin,
                        target.col_end, buffer);
    }
}

std::uint64_t count_entries_of(const ByteSource& source, const BlockView& block, ByteBuffer& buffer) {
    if (block.block_type != BlockType::Dense) return block.stored_values;  // what count_block_entries says
    if (const std::byte* memory = source.lent_memory()) {
        return count_block_entries(ByteWindow{memory, 0, source.size()}, block);
    }
    if (block.area() == 0) return 0;
    const std::size_t value_bytes = value_size(block.value_type);
    std::uint64_t entries = 0;
    if (block.layout == PayloadLayout::StridedColumn) {
        const std::uint64_t rows_per_read = 1 + (kDenseReadBytes - value_bytes) / block.value_stride;
        for (std::uint64_t row = 0; row < block.rows; row += rows_per_read) {
            const std::uint64_t row_end = std::min<std::uint64_t>(row + rows_per_read, block.rows);
            const std::uint64_t first = dense_value_offset(block, row, 0, value_bytes);
            const ByteWindow window = fetch(
                source, first, dense_value_offset(block, row_end - 1, 0, value_bytes) + value_bytes - first, buffer);
            for (std::uint64_t r = row; r < row_end; ++r) {
                if (!is_bit_zero(window.at(dense_value_offset(block, r, 0, value_bytes)), value_bytes)) ++entries;
            }
        }
        return entries;
    }
    const std::uint64_t step = kDenseReadBytes / value_bytes * value_bytes;
    for (std::uint64_t done = 0; done < block.payload_bytes; done += step) {
        const std::uint64_t bytes = std::min(step, block.payload_bytes - done);
        const ByteWindow window = fetch(source, block.payload_offset + done, bytes, buffer);
        for (std::uint64_t k = 0; k < bytes; k += value_bytes) {
            if (!is_bit_zero(window.data + k, value_bytes)) ++entries;
        }
    }
    return entries;
}

}  // namespace dbdf::detail
