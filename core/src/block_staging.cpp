// Aligned copies of a block's caller arrays (block_input.hpp): the block's own values and entries only, so the
// copy is bounded by the block even when the arrays describe the whole object (write_csr's window).
#include <algorithm>
#include <cstring>

#include "block_input.hpp"

namespace dbdf::detail {

namespace {

// First k in [begin, end) with cols64[k] >= column: the caller's columns increase within a row.
std::uint64_t first_column_at_least(const std::uint64_t* cols64, std::uint64_t begin, std::uint64_t end,
                                    std::uint64_t column) {
    while (begin < end) {
        const std::uint64_t middle = begin + (end - begin) / 2;
        if (load_element<std::uint64_t>(cols64, middle) < column) {
            begin = middle + 1;
        } else {
            end = middle;
        }
    }
    return begin;
}

// A column window of object-wide CSR arrays as block-local CSR: offsets first, then the entries of each row.
BlockInput staged_csr_window(const BlockInput& input, BlockStaging& staging) {
    const std::size_t value_bytes = value_size(input.type);
    auto* offsets = static_cast<std::uint64_t*>(staging.row_offsets.bytes((std::size_t{input.rows} + 1) * 8));
    offsets[0] = 0;
    for (std::uint32_t r = 0; r < input.rows; ++r) {
        const std::uint64_t begin = load_element<std::uint64_t>(input.row_offsets, input.row_base + r);
        const std::uint64_t end = load_element<std::uint64_t>(input.row_offsets, input.row_base + r + 1);
        const std::uint64_t first = first_column_at_least(input.cols64, begin, end, input.col_base);
        const std::uint64_t last = first_column_at_least(input.cols64, first, end, input.col_limit);
        offsets[r + 1] = offsets[r] + (last - first);
    }
    const std::uint64_t entries = offsets[input.rows];
    auto* cols = static_cast<std::uint32_t*>(staging.cols32.bytes(entries * sizeof(std::uint32_t)));
    auto* values = static_cast<std::byte*>(staging.values.bytes(entries * value_bytes));
    const auto* caller_values = static_cast<const std::byte*>(input.values);
    std::uint64_t k = 0;
    for (std::uint32_t r = 0; r < input.rows; ++r) {
        const std::uint64_t begin = load_element<std::uint64_t>(input.row_offsets, input.row_base + r);
        const std::uint64_t end = load_element<std::uint64_t>(input.row_offsets, input.row_base + r + 1);
        const std::uint64_t first = first_column_at_least(input.cols64, begin, end, input.col_base);
        const std::uint64_t count = offsets[r + 1] - offsets[r];
        for (std::uint64_t i = 0; i < count; ++i) {
            cols[k + i] =
                static_cast<std::uint32_t>(load_element<std::uint64_t>(input.cols64, first + i) - input.col_base);
        }
        if (count > 0) std::memcpy(values + k * value_bytes, caller_values + first * value_bytes, count * value_bytes);
        k += count;
    }
    BlockInput staged = input;
    staged.layout = SparseLayout::LocalCsr;
    staged.values = values;
    staged.cols32 = cols;
    staged.cols64 = nullptr;
    staged.row_offsets = offsets;
    staged.row_base = 0;
    staged.col_base = 0;
    staged.col_limit = 0;
    return staged;
}

const void* staged_copy(AlignedScratch& scratch, const void* array, std::size_t bytes) {
    if (array == nullptr || bytes == 0) return array;
    void* copy = scratch.bytes(bytes);
    std::memcpy(copy, array, bytes);
    return copy;
}

}  // namespace

bool BlockInput::arrays_aligned() const {
    return is_aligned_for(values, value_alignment(type)) && is_aligned_for<std::uint32_t>(cols32) &&
           is_aligned_for<std::uint64_t>(cols64) && is_aligned_for<std::uint64_t>(row_offsets) &&
           is_aligned_for<std::uint32_t>(row_indices);
}

BlockInput BlockInput::staged(BlockStaging& staging) const {
    const std::size_t value_bytes = value_size(type);
    BlockInput staged = *this;
    if (dense()) {
        // Only the block's cells, rows `cols` apart: the caller's stride may leave wide gaps between rows.
        const std::size_t row_bytes = std::size_t{cols} * value_bytes;
        void* copy = staging.values.bytes(std::size_t{rows} * row_bytes);
        copy_rows(copy, row_bytes, values, stride * value_bytes, rows, row_bytes);
        staged.values = copy;
        staged.stride = cols;
        return staged;
    }
    switch (layout) {
        case SparseLayout::LocalCsr: {
            const std::uint64_t entries_passed = load_element<std::uint64_t>(row_offsets, rows);
            staged.row_offsets = static_cast<const std::uint64_t*>(
                staged_copy(staging.row_offsets, row_offsets, (std::size_t{rows} + 1) * sizeof(std::uint64_t)));
            staged.cols32 = static_cast<const std::uint32_t*>(
                staged_copy(staging.cols32, cols32, entries_passed * sizeof(std::uint32_t)));
            staged.values = staged_copy(staging.values, values, entries_passed * value_bytes);
            return staged;
        }
        case SparseLayout::LocalCoo:
            staged.row_indices = static_cast<const std::uint32_t*>(
                staged_copy(staging.row_indices, row_indices, entries * sizeof(std::uint32_t)));
            staged.cols32 =
                static_cast<const std::uint32_t*>(staged_copy(staging.cols32, cols32, entries * sizeof(std::uint32_t)));
            staged.values = staged_copy(staging.values, values, entries * value_bytes);
            return staged;
        case SparseLayout::CsrWindow: return staged_csr_window(*this, staging);
    }
    return staged;
}

std::vector<BlockPlacement> row_bands(const std::vector<BlockPlacement>& blocks, ValueType type) {
    std::vector<BlockPlacement> bands;
    for (const BlockPlacement& block : blocks) {
        const std::uint64_t row_bytes = std::max<std::uint64_t>(1, std::uint64_t{block.cols} * value_size(type));
        const auto band_rows = static_cast<std::uint32_t>(
            std::clamp<std::uint64_t>(kStagedPieceBytes / row_bytes, 1, std::max<std::uint32_t>(1, block.rows)));
        for (std::uint64_t first = 0; first < block.rows; first += band_rows) {
            const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(band_rows, block.rows - first));
            bands.push_back(BlockPlacement{block.row + first, block.col, rows, block.cols});
        }
    }
    return bands;
}

}  // namespace dbdf::detail
