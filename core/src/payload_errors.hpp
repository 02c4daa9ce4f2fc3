// The errors found while walking or decoding block payloads. They are out of line and marked cold: the loops that
// can raise them run once per stored value, and keeping the message building out of those loops keeps them small
// and fast, and keeps the decoder's hundred combinations of stored and requested value type quick to compile.
#pragma once

#include <cstdint>
#include <string>

#include "dbdf/block.hpp"
#include "dbdf/types.hpp"
#include "value_conversion.hpp"

namespace dbdf::detail {

// "block <index> at (<row>, <col>)", the subject of every payload message.
std::string block_label(const BlockView& block);

// Spec CSR (rule 12).
[[noreturn, gnu::cold]] void fail_csr_row_count(const BlockView& block, std::uint64_t offset, std::uint32_t row,
                                                std::uint32_t count);
[[noreturn, gnu::cold]] void fail_csr_column_range(const BlockView& block, std::uint64_t offset, std::uint32_t row,
                                                   std::uint64_t col);
[[noreturn, gnu::cold]] void fail_csr_column_order(const BlockView& block, std::uint64_t offset, std::uint32_t row,
                                                   std::uint64_t col, std::int64_t previous_col);
[[noreturn, gnu::cold]] void fail_csr_entry_total(const BlockView& block, std::uint64_t row_count_sum);

// COO (rule 13).
[[noreturn, gnu::cold]] void fail_coo_outside(const BlockView& block, std::uint64_t offset, std::uint64_t entry,
                                              std::uint32_t row, std::uint32_t col);
[[noreturn, gnu::cold]] void fail_coo_order(const BlockView& block, std::uint64_t offset, std::uint64_t entry,
                                            std::uint32_t row, std::uint32_t col, std::uint32_t previous_row,
                                            std::uint32_t previous_col);

// The daphne dialect's CSR (DIALECT.md 5.1, checked as rule 12).
[[noreturn, gnu::cold]] void fail_daphne_first_offset(const BlockView& block, std::uint64_t offset,
                                                      std::uint64_t first);
[[noreturn, gnu::cold]] void fail_daphne_row_offset(const BlockView& block, std::uint64_t offset,
                                                    std::uint64_t position, std::uint64_t value,
                                                    std::uint64_t previous);
[[noreturn, gnu::cold]] void fail_daphne_duplicate_column(const BlockView& block, std::uint64_t offset,
                                                          std::uint32_t row, std::uint64_t col,
                                                          std::uint64_t first_offset);
[[noreturn, gnu::cold]] void fail_daphne_offset_total(const BlockView& block, std::uint64_t offset, std::uint64_t last);

// Rule 8: a stored value is not exactly representable in the type the object declares for its cell (`declared`)
// or in the type the caller asked for.
enum class TypeRole { Declared, Requested };
[[noreturn, gnu::cold]] void fail_not_representable(const BlockView& block, std::uint64_t offset, std::uint32_t row,
                                                    std::uint32_t col, const std::string& value, ValueType type,
                                                    TypeRole role);

template <class S>
[[noreturn, gnu::cold, gnu::noinline]] void fail_value(const BlockView& block, std::uint64_t offset, S value,
                                                       std::uint32_t row, std::uint32_t col, ValueType type,
                                                       TypeRole role) {
    fail_not_representable(block, offset, row, col, value_text(value), type, role);
}

}  // namespace dbdf::detail
