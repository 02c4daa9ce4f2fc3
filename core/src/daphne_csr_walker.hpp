// Walks over the entries of the daphne dialect's CSR payload (DIALECT.md 5.1): rowOffsets uint64[#r + 1],
// colIdxs uint64[#nzb], values. walk_csr (payload_walkers.hpp) dispatches here for PayloadLayout::DaphneCsr.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "dbdf/block.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "payload_walkers.hpp"

namespace dbdf::detail {

// The offsets are checked as strictly as spec CSR: they start at 0, never decrease, stay within #nzb and end at
// #nzb; column indices are below #c. The order of the column indices within a row is not checked: the runtime
// writes them as they lie in memory without sorting them (DIALECT.md 5.3), and DAPHNE's CSRMatrix does not keep
// them sorted. Entries are handed on in increasing column order all the same, because every consumer (CSR and
// COO output, the spec's CSR semantics) expects rows sorted; a row already sorted costs no extra work. A column
// stored twice in one row is refused: the cell would have two values and nothing says which one counts.
// The daphne body parser guaranteed that all 8 * (#r + 1) + #nzb * (8 + S) payload bytes exist, and the offset
// checks keep every read inside them.
template <class S, class OnRow, class OnEntry>
void walk_daphne_csr(std::span<const std::byte> input, const BlockView& block, std::uint32_t row_end,
                     OnRow&& on_row, OnEntry&& on_entry) {
    const std::byte* base = input.data();
    const std::uint64_t offsets_at = block.payload_offset;
    const std::uint64_t columns_at = offsets_at + 8 * (std::uint64_t{block.rows} + 1);
    const std::uint64_t values_at = columns_at + 8 * block.stored_values;
    auto column_of = [&](std::uint64_t k) { return load_le<std::uint64_t>(base + columns_at + 8 * k); };
    auto emit = [&](std::uint32_t row, std::uint64_t k) {
        const std::uint64_t value_offset = values_at + sizeof(S) * k;
        on_entry(row, static_cast<std::uint32_t>(column_of(k)), load_le<S>(base + value_offset), value_offset);
    };
    std::vector<std::uint64_t> by_column;  // positions of an unsorted row's entries, in column order

    std::uint64_t row_begin = load_le<std::uint64_t>(base + offsets_at);
    if (row_begin != 0) {
        throw_format(ErrorCode::Format, 12, offsets_at,
                     block_label(block) + ": rowOffsets[0] is " + std::to_string(row_begin) + ", not 0");
    }
    for (std::uint32_t row = 0; row < row_end; ++row) {
        const std::uint64_t end_offset = offsets_at + 8 * (std::uint64_t{row} + 1);
        const std::uint64_t row_stop = load_le<std::uint64_t>(base + end_offset);
        if (row_stop < row_begin || row_stop > block.stored_values) {
            throw_format(ErrorCode::Format, 12, end_offset,
                         block_label(block) + ": rowOffsets[" + std::to_string(row + 1) + "] is " +
                             std::to_string(row_stop) + "; offsets must not decrease (previous " +
                             std::to_string(row_begin) + ") nor exceed #nzb " + std::to_string(block.stored_values));
        }
        on_row(row, static_cast<std::uint32_t>(row_stop - row_begin));
        bool sorted = true;
        for (std::uint64_t k = row_begin; k < row_stop; ++k) {
            const std::uint64_t col = column_of(k);
            if (col >= block.cols) {
                throw_format(ErrorCode::Format, 12, columns_at + 8 * k,
                             block_label(block) + ": row " + std::to_string(row) + " has column index " +
                                 std::to_string(col) + ", not less than the block's " + std::to_string(block.cols) +
                                 " columns");
            }
            sorted = sorted && (k == row_begin || column_of(k - 1) < col);
        }
        if (sorted) {
            for (std::uint64_t k = row_begin; k < row_stop; ++k) emit(row, k);
        } else {
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
                throw_format(ErrorCode::Format, 12, columns_at + 8 * by_column[i],
                             block_label(block) + ": row " + std::to_string(row) + " stores column " +
                                 std::to_string(column_of(by_column[i])) + " twice (also at byte " +
                                 std::to_string(columns_at + 8 * by_column[i - 1]) +
                                 "); a cell has one value");
            }
            for (const std::uint64_t k : by_column) emit(row, k);
        }
        row_begin = row_stop;
    }
    if (row_end == block.rows && row_begin != block.stored_values) {
        throw_format(ErrorCode::Format, 12, offsets_at + 8 * std::uint64_t{block.rows},
                     block_label(block) + ": rowOffsets[" + std::to_string(block.rows) + "] is " +
                         std::to_string(row_begin) + " but #nzb is " + std::to_string(block.stored_values));
    }
}

}  // namespace dbdf::detail
