#include "dense_window_reads.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "caller_arrays.hpp"
#include "dense_piece_reader.hpp"
#include "parallel_for.hpp"

namespace dbdf::detail {

namespace {

// Buffers for the threads of a whole-object read, each taken for one piece at a time and given back after, so that
// no more exist than threads run at once.
class PieceBuffers {
public:
    std::unique_ptr<ByteBuffer> take() {
        const std::lock_guard lock(mutex_);
        if (free_.empty()) return std::make_unique<ByteBuffer>();
        auto buffer = std::move(free_.back());
        free_.pop_back();
        return buffer;
    }
    void give_back(std::unique_ptr<ByteBuffer> buffer) {
        const std::lock_guard lock(mutex_);
        free_.push_back(std::move(buffer));
    }

private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<ByteBuffer>> free_;
};

// A window's part of one block: no two pieces write the same cell, since the index checked that the blocks
// partition the object and the reads do not share memory.
struct Piece {
    const DenseWindowRead* read;
    const BlockView* block;
    std::uint64_t row_begin, row_end, col_begin, col_end;  // object coordinates
};

}  // namespace

void decode_dense_windows(const ByteSource& source, const ObjectHeader& header, const std::vector<BlockView>& index,
                          const WindowLookup& lookup, std::span<const DenseWindowRead> reads,
                          unsigned threads_setting) {
    std::vector<Piece> pieces;
    std::uint64_t output_bytes = 0;
    for (const DenseWindowRead& read : reads) {
        const Window& window = read.window;
        const std::size_t element_bytes = value_size(read.type);
        lookup.for_each_block(
            window.row, window.row + window.rows, window.col, window.col + window.cols, [&](std::size_t position) {
                const BlockView& block = index[position];
                const std::uint64_t row_begin = std::max(block.row, window.row);
                const std::uint64_t row_end = std::min(block.row_end(), window.row + window.rows);
                const std::uint64_t col_begin = std::max(block.col, window.col);
                const std::uint64_t col_end = std::min(block.col_end(), window.col + window.cols);
                if (row_begin >= row_end || col_begin >= col_end) return;
                const std::uint64_t row_bytes = (col_end - col_begin) * element_bytes;
                output_bytes += (row_end - row_begin) * row_bytes;
                const bool divisible = block.block_type == BlockType::Dense || block.block_type == BlockType::Empty;
                const std::uint64_t run =
                    divisible ? std::max<std::uint64_t>(1, kPieceBytes / row_bytes) : row_end - row_begin;
                for (std::uint64_t first = row_begin; first < row_end; first += run) {
                    pieces.push_back(Piece{&read, &block, first, std::min(first + run, row_end), col_begin, col_end});
                }
            });
    }
    // In file order, as the blocks come: the first failing block is the one reported, whatever the lookup's order.
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const Piece& a, const Piece& b) { return a.block->index < b.block->index; });
    const unsigned threads =
        source.concurrent_reads() ? decode_threads(threads_setting, pieces.size(), output_bytes) : 1;
    PieceBuffers buffers;
    parallel_for(pieces.size(), threads, [&](std::size_t i) {
        const Piece& piece = pieces[i];
        const DenseWindowRead& read = *piece.read;
        const BlockView& block = *piece.block;
        const std::uint64_t stride = read.row_stride == 0 ? read.window.cols : read.row_stride;
        auto* first_cell = static_cast<std::byte*>(read.out) +
                           ((piece.row_begin - read.window.row) * stride + (piece.col_begin - read.window.col)) *
                               value_size(read.type);
        DenseTarget target{read.type,
                           first_cell,
                           stride,
                           static_cast<std::uint32_t>(piece.row_begin - block.row),
                           static_cast<std::uint32_t>(piece.row_end - block.row),
                           static_cast<std::uint32_t>(piece.col_begin - block.col),
                           static_cast<std::uint32_t>(piece.col_end - block.col)};
        // An output that is not aligned for the type gets the piece (bounded, see above) through an aligned copy.
        const std::uint64_t piece_rows = piece.row_end - piece.row_begin;
        const std::size_t row_bytes = (piece.col_end - piece.col_begin) * value_size(read.type);
        OutputArray output(first_cell, value_alignment(read.type));
        target.data = output.at(piece_rows * row_bytes);
        if (target.data != first_cell) target.row_stride = piece.col_end - piece.col_begin;
        auto buffer = buffers.take();
        read_block_dense(source, block, header, target, *buffer);
        buffers.give_back(std::move(buffer));
        if (target.data != first_cell) {
            copy_rows(first_cell, stride * value_size(read.type), target.data, row_bytes, piece_rows, row_bytes);
        }
    });
}

}  // namespace dbdf::detail
