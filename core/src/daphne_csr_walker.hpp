// Walks over the entries of the daphne dialect's CSR payload (DIALECT.md 5.1): rowOffsets uint64[#r + 1],
// colIdxs uint64[#nzb], values. walk_csr (payload_walkers.hpp) dispatches here for PayloadLayout::DaphneCsr.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "byte_source.hpp"
#include "dbdf/block.hpp"
#include "dbdf/endian.hpp"
#include "payload_errors.hpp"
#include "payload_walkers.hpp"

namespace dbdf::detail {

// The entry positions [row_begin, row_stop) of a row whose column indices are not sorted, in increasing column
// order. A column stored twice is refused (rule 12) at its later occurrence. Not a template, so that the sort is
// compiled once rather than for every combination of value type and callback.
void order_row_by_column(const ByteWindow& input, const BlockView& block, std::uint32_t row, std::uint64_t row_begin,
                         std::uint64_t row_stop, std::vector<std::uint64_t>& by_column);

// The offsets are checked as strictly as spec CSR: they start at 0, never decrease, stay within #nzb and end at
// #nzb; column indices are below #c. The order of the column indices within a row is not checked: the runtime
// writes them as they lie in memory without sorting them (DIALECT.md 5.3), and DAPHNE's CSRMatrix does not keep
// them sorted. Entries are handed on in increasing column order all the same, because every consumer (CSR and
// COO output, the spec's CSR semantics) expects rows sorted; a row already sorted costs no extra work. A column
// stored twice in one row is refused: the cell would have two values and nothing says which one counts.
// The daphne body parser guaranteed that all 8 * (#r + 1) + #nzb * (8 + S) payload bytes exist, and the offset
// checks keep every read inside them.
template <class S, class OnRow, class OnEntry>
void walk_daphne_csr(const ByteWindow& input, const BlockView& block, std::uint32_t row_end, OnRow&& on_row,
                     OnEntry&& on_entry) {
    const std::uint64_t offsets_at = block.payload_offset;
    const std::uint64_t columns_at = offsets_at + 8 * (std::uint64_t{block.rows} + 1);
    const std::uint64_t values_at = columns_at + 8 * block.stored_values;
    auto column_of = [&](std::uint64_t k) { return load_le<std::uint64_t>(input.at(columns_at + 8 * k)); };
    auto emit = [&](std::uint32_t row, std::uint64_t k) {
        const std::uint64_t value_offset = values_at + sizeof(S) * k;
        on_entry(row, static_cast<std::uint32_t>(column_of(k)), load_le<S>(input.at(value_offset)), value_offset);
    };
    std::vector<std::uint64_t> by_column;  // positions of an unsorted row's entries, in column order

    std::uint64_t row_begin = load_le<std::uint64_t>(input.at(offsets_at));
    if (row_begin != 0) fail_daphne_first_offset(block, offsets_at, row_begin);
    for (std::uint32_t row = 0; row < row_end; ++row) {
        const std::uint64_t end_offset = offsets_at + 8 * (std::uint64_t{row} + 1);
        const std::uint64_t row_stop = load_le<std::uint64_t>(input.at(end_offset));
        if (row_stop < row_begin || row_stop > block.stored_values) {
            fail_daphne_row_offset(block, end_offset, std::uint64_t{row} + 1, row_stop, row_begin);
        }
        on_row(row, static_cast<std::uint32_t>(row_stop - row_begin));
        bool sorted = true;
        for (std::uint64_t k = row_begin; k < row_stop; ++k) {
            const std::uint64_t col = column_of(k);
            if (col >= block.cols) fail_csr_column_range(block, columns_at + 8 * k, row, col);
            sorted = sorted && (k == row_begin || column_of(k - 1) < col);
        }
        if (sorted) {
            for (std::uint64_t k = row_begin; k < row_stop; ++k) emit(row, k);
        } else {
            order_row_by_column(input, block, row, row_begin, row_stop, by_column);
            for (const std::uint64_t k : by_column) emit(row, k);
        }
        row_begin = row_stop;
    }
    if (row_end == block.rows && row_begin != block.stored_values) {
        fail_daphne_offset_total(block, offsets_at + 8 * std::uint64_t{block.rows}, row_begin);
    }
}

}  // namespace dbdf::detail
