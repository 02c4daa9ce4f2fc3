#include "payload_errors.hpp"

#include "dbdf/error.hpp"

namespace dbdf::detail {
namespace {

std::string text(std::uint64_t number) { return std::to_string(number); }

}  // namespace

std::string block_label(const BlockView& block) {
    return "block " + text(block.index) + " at (" + text(block.row) + ", " + text(block.col) + ")";
}

void fail_csr_row_count(const BlockView& block, std::uint64_t offset, std::uint32_t row, std::uint32_t count) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": row " + text(row) + " count " + text(count) +
                     " makes the row counts exceed #nzb " + text(block.stored_values));
}

void fail_csr_column_range(const BlockView& block, std::uint64_t offset, std::uint32_t row, std::uint64_t col) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": row " + text(row) + " has column index " + text(col) +
                     ", not less than the block's " + text(block.cols) + " columns");
}

void fail_csr_column_order(const BlockView& block, std::uint64_t offset, std::uint32_t row, std::uint64_t col,
                           std::int64_t previous_col) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": row " + text(row) + " column index " + text(col) +
                     " does not increase strictly (previous " + std::to_string(previous_col) + ")");
}

void fail_csr_entry_total(const BlockView& block, std::uint64_t row_count_sum) {
    throw_format(ErrorCode::Format, 12, block.payload_offset - 8,
                 block_label(block) + ": #nzb is " + text(block.stored_values) + " but the row counts add up to " +
                     text(row_count_sum));
}

void fail_coo_outside(const BlockView& block, std::uint64_t offset, std::uint64_t entry, std::uint32_t row,
                      std::uint32_t col) {
    throw_format(ErrorCode::Format, 13, offset,
                 block_label(block) + ": entry " + text(entry) + " at (" + text(row) + ", " + text(col) +
                     ") lies outside the block's " + text(block.rows) + " x " + text(block.cols) + " cells");
}

void fail_coo_order(const BlockView& block, std::uint64_t offset, std::uint64_t entry, std::uint32_t row,
                    std::uint32_t col, std::uint32_t previous_row, std::uint32_t previous_col) {
    throw_format(ErrorCode::Format, 13, offset,
                 block_label(block) + ": entry " + text(entry) + " at (" + text(row) + ", " + text(col) +
                     ") does not follow (" + text(previous_row) + ", " + text(previous_col) +
                     ") in strictly increasing (row, column) order");
}

void fail_daphne_first_offset(const BlockView& block, std::uint64_t offset, std::uint64_t first) {
    throw_format(ErrorCode::Format, 12, offset, block_label(block) + ": rowOffsets[0] is " + text(first) + ", not 0");
}

void fail_daphne_row_offset(const BlockView& block, std::uint64_t offset, std::uint64_t position, std::uint64_t value,
                            std::uint64_t previous) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": rowOffsets[" + text(position) + "] is " + text(value) +
                     "; offsets must not decrease (previous " + text(previous) + ") nor exceed #nzb " +
                     text(block.stored_values));
}

void fail_daphne_duplicate_column(const BlockView& block, std::uint64_t offset, std::uint32_t row, std::uint64_t col,
                                  std::uint64_t first_offset) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": row " + text(row) + " stores column " + text(col) + " twice (also at byte " +
                     text(first_offset) + "); a cell has one value");
}

void fail_daphne_offset_total(const BlockView& block, std::uint64_t offset, std::uint64_t last) {
    throw_format(ErrorCode::Format, 12, offset,
                 block_label(block) + ": rowOffsets[" + text(block.rows) + "] is " + text(last) + " but #nzb is " +
                     text(block.stored_values));
}

void fail_not_representable(const BlockView& block, std::uint64_t offset, std::uint32_t row, std::uint32_t col,
                            const std::string& value, ValueType type, TypeRole role) {
    throw_format(ErrorCode::Range, 8, offset,
                 block_label(block) + ": value " + value + " at block cell (" + text(row) + ", " + text(col) +
                     ") is not exactly representable in the " +
                     (role == TypeRole::Declared ? "declared" : "requested") + " type " + std::string(name(type)));
}

}  // namespace dbdf::detail
