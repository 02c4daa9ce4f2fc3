// Walks over the entries of CSR and COO payloads, checking their structure (rules 12 and 13) as it goes.
// Shared by every decoder so the structure is checked in one place.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "dbdf/block.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"

namespace dbdf::detail {

inline bool is_bit_zero(const std::byte* value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
        if (value[i] != std::byte{0}) return false;
    }
    return true;
}

inline std::string block_label(const BlockView& block) {
    return "block " + std::to_string(block.index) + " at (" + std::to_string(block.row) + ", " +
           std::to_string(block.col) + ")";
}

// CSR rows [0, row_end): on_row(row, count), then on_entry(row, col, value, value_offset) for each entry.
// parse_block_record guaranteed that 4 * #r + #nzb * (4 + S) payload bytes exist; checking that the running sum of
// row counts never exceeds #nzb keeps every read inside them.
// The daphne dialect's CSR layout is walked by walk_daphne_csr, defined in daphne_csr_walker.hpp.
template <class S, class OnRow, class OnEntry>
void walk_daphne_csr(std::span<const std::byte> input, const BlockView& block, std::uint32_t row_end,
                     OnRow&& on_row, OnEntry&& on_entry);

template <class S, class OnRow, class OnEntry>
void walk_csr(std::span<const std::byte> input, const BlockView& block, std::uint32_t row_end, OnRow&& on_row,
              OnEntry&& on_entry) {
    if (block.layout == PayloadLayout::DaphneCsr) {
        walk_daphne_csr<S>(input, block, row_end, on_row, on_entry);
        return;
    }
    constexpr std::uint64_t kEntryBytes = 4 + sizeof(S);
    const std::byte* base = input.data();
    std::uint64_t offset = block.payload_offset;
    std::uint64_t entries_seen = 0;
    for (std::uint32_t row = 0; row < row_end; ++row) {
        const std::uint32_t count = load_le<std::uint32_t>(base + offset);
        if (count > block.stored_values - entries_seen) {
            throw_format(ErrorCode::Format, 12, offset,
                         block_label(block) + ": row " + std::to_string(row) + " count " + std::to_string(count) +
                             " makes the row counts exceed #nzb " + std::to_string(block.stored_values));
        }
        on_row(row, count);
        offset += 4;
        std::int64_t previous_col = -1;
        for (std::uint32_t k = 0; k < count; ++k, offset += kEntryBytes) {
            const std::uint32_t col = load_le<std::uint32_t>(base + offset);
            if (col >= block.cols) {
                throw_format(ErrorCode::Format, 12, offset,
                             block_label(block) + ": row " + std::to_string(row) + " has column index " +
                                 std::to_string(col) + ", not less than the block's " + std::to_string(block.cols) +
                                 " columns");
            }
            if (static_cast<std::int64_t>(col) <= previous_col) {
                throw_format(ErrorCode::Format, 12, offset,
                             block_label(block) + ": row " + std::to_string(row) + " column index " +
                                 std::to_string(col) + " does not increase strictly (previous " +
                                 std::to_string(previous_col) + ")");
            }
            previous_col = col;
            on_entry(row, col, load_le<S>(base + offset + 4), offset + 4);
        }
        entries_seen += count;
    }
    if (row_end == block.rows && entries_seen != block.stored_values) {
        throw_format(ErrorCode::Format, 12, block.payload_offset - 8,
                     block_label(block) + ": #nzb is " + std::to_string(block.stored_values) +
                         " but the row counts add up to " + std::to_string(entries_seen));
    }
}

// COO entries in file order: on_entry(row, col, value, value_offset). The single-column variant (#c == 1) has
// no column field (rule 13).
template <class S, class OnEntry>
void walk_coo(std::span<const std::byte> input, const BlockView& block, OnEntry&& on_entry) {
    const bool single_column = block.cols == 1;
    const std::uint64_t index_bytes = single_column ? 4 : 8;
    const std::uint64_t entry_bytes = index_bytes + sizeof(S);
    const std::byte* base = input.data();
    std::uint64_t offset = block.payload_offset;
    bool have_previous = false;
    std::uint32_t previous_row = 0;
    std::uint32_t previous_col = 0;
    for (std::uint64_t k = 0; k < block.stored_values; ++k, offset += entry_bytes) {
        const std::uint32_t row = load_le<std::uint32_t>(base + offset);
        const std::uint32_t col = single_column ? 0 : load_le<std::uint32_t>(base + offset + 4);
        if (row >= block.rows || col >= block.cols) {
            throw_format(ErrorCode::Format, 13, offset,
                         block_label(block) + ": entry " + std::to_string(k) + " at (" + std::to_string(row) + ", " +
                             std::to_string(col) + ") lies outside the block's " + std::to_string(block.rows) +
                             " x " + std::to_string(block.cols) + " cells");
        }
        if (have_previous && (row < previous_row || (row == previous_row && col <= previous_col))) {
            throw_format(ErrorCode::Format, 13, offset,
                         block_label(block) + ": entry " + std::to_string(k) + " at (" + std::to_string(row) + ", " +
                             std::to_string(col) + ") does not follow (" + std::to_string(previous_row) + ", " +
                             std::to_string(previous_col) + ") in strictly increasing (row, column) order");
        }
        have_previous = true;
        previous_row = row;
        previous_col = col;
        on_entry(row, col, load_le<S>(base + offset + index_bytes), offset + index_bytes);
    }
}

}  // namespace dbdf::detail

// After the helpers it uses (block_label); it includes this header too, for files that include it first.
#include "daphne_csr_walker.hpp"
