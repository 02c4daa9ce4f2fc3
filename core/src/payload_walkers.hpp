// Walks over the entries of CSR and COO payloads, checking their structure (rules 12 and 13) as it goes.
// Shared by every decoder so the structure is checked in one place.
#pragma once

#include <cstdint>
#include <span>

#include "byte_source.hpp"
#include "dbdf/block.hpp"
#include "dbdf/endian.hpp"
#include "payload_errors.hpp"

namespace dbdf::detail {

inline bool is_bit_zero(const std::byte* value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
        if (value[i] != std::byte{0}) return false;
    }
    return true;
}

// CSR rows [0, row_end): on_row(row, count), then on_entry(row, col, value, value_offset) for each entry.
// parse_block_record guaranteed that 4 * #r + #nzb * (4 + S) payload bytes exist; checking that the running sum of
// row counts never exceeds #nzb keeps every read inside them.
// The daphne dialect's CSR layout is walked by walk_daphne_csr, defined in daphne_csr_walker.hpp.
template <class S, class OnRow, class OnEntry>
void walk_daphne_csr(const ByteWindow& input, const BlockView& block, std::uint32_t row_end, OnRow&& on_row,
                     OnEntry&& on_entry);

template <class S, class OnRow, class OnEntry>
void walk_csr(const ByteWindow& input, const BlockView& block, std::uint32_t row_end, OnRow&& on_row,
              OnEntry&& on_entry) {
    if (block.layout == PayloadLayout::DaphneCsr) {
        walk_daphne_csr<S>(input, block, row_end, on_row, on_entry);
        return;
    }
    constexpr std::uint64_t kEntryBytes = 4 + sizeof(S);
    std::uint64_t offset = block.payload_offset;
    std::uint64_t entries_seen = 0;
    for (std::uint32_t row = 0; row < row_end; ++row) {
        const std::uint32_t count = load_le<std::uint32_t>(input.at(offset));
        if (count > block.stored_values - entries_seen) fail_csr_row_count(block, offset, row, count);
        on_row(row, count);
        offset += 4;
        // Columns rise strictly: each must be at least one past the previous (col < #c <= 2^32 - 1, so col + 1
        // never wraps). Both checks share one unlikely branch to keep the loop tight.
        std::uint32_t least_col = 0;
        for (std::uint32_t k = 0; k < count; ++k, offset += kEntryBytes) {
            const std::uint32_t col = load_le<std::uint32_t>(input.at(offset));
            if (col >= block.cols || col < least_col) [[unlikely]] {
                if (col >= block.cols) fail_csr_column_range(block, offset, row, col);
                fail_csr_column_order(block, offset, row, col, std::int64_t{least_col} - 1);
            }
            least_col = col + 1;
            on_entry(row, col, load_le<S>(input.at(offset + 4)), offset + 4);
        }
        entries_seen += count;
    }
    if (row_end == block.rows && entries_seen != block.stored_values) fail_csr_entry_total(block, entries_seen);
}

// COO entries in file order: on_entry(row, col, value, value_offset). The single-column variant (#c == 1) has
// no column field (rule 13).
template <class S, bool kSingleColumn, class OnEntry>
void walk_coo_variant(const ByteWindow& input, const BlockView& block, OnEntry&& on_entry) {
    constexpr std::uint64_t kIndexBytes = kSingleColumn ? 4 : 8;
    constexpr std::uint64_t kEntryBytes = kIndexBytes + sizeof(S);
    std::uint64_t offset = block.payload_offset;
    // Entries rise strictly in (row, column) order. With both in one key, row above column, each entry must be at
    // least one past the previous key; row < #r <= 2^32 - 1 keeps key + 1 from wrapping.
    std::uint64_t least_key = 0;
    for (std::uint64_t k = 0; k < block.stored_values; ++k, offset += kEntryBytes) {
        const std::uint32_t row = load_le<std::uint32_t>(input.at(offset));
        const std::uint32_t col = kSingleColumn ? 0 : load_le<std::uint32_t>(input.at(offset + 4));
        const std::uint64_t key = (std::uint64_t{row} << 32) | col;
        if (row >= block.rows || col >= block.cols || key < least_key) [[unlikely]] {
            if (row >= block.rows || col >= block.cols) fail_coo_outside(block, offset, k, row, col);
            const std::uint64_t previous_key = least_key - 1;
            fail_coo_order(block, offset, k, row, col, static_cast<std::uint32_t>(previous_key >> 32),
                           static_cast<std::uint32_t>(previous_key));
        }
        least_key = key + 1;
        on_entry(row, col, load_le<S>(input.at(offset + kIndexBytes)), offset + kIndexBytes);
    }
}

template <class S, class OnEntry>
void walk_coo(const ByteWindow& input, const BlockView& block, OnEntry&& on_entry) {
    if (block.cols == 1) {
        walk_coo_variant<S, true>(input, block, on_entry);
    } else {
        walk_coo_variant<S, false>(input, block, on_entry);
    }
}

}  // namespace dbdf::detail

// The daphne dialect's CSR walker, which walk_csr dispatches to; it includes this header too.
#include "daphne_csr_walker.hpp"
