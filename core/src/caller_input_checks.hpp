// Checks of what a caller hands the writer, made before any byte is written and whatever the dialect: value type
// and encoding codes, and arrays that agree with their counts and with the block they describe. Each failure is
// Error(InvalidArgument) naming the argument and the first entry at fault.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::detail {

void require_valid_input_type(ValueType type);
void require_valid_encoding(Encoding encoding);

// Arrays of `entries` elements may be NULL only when there are no entries.
void require_entry_array(const void* array, const char* name, std::uint64_t entries);

// Dense values of a block, rows `stride` values apart: the stride is at least the block's width, the `count`
// values passed reach every cell, and they are there.
void check_dense_values(const BlockPlacement& place, const void* values, std::size_t count, std::uint64_t stride);

// CSR arrays of rows x cols: row_offsets[0..rows] from 0 to `entries`, non-decreasing; columns below `cols` and
// strictly increasing within each row. Column indices are uint32 (block-local) or uint64 (object-wide).
void check_csr_arrays(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets,
                      const std::uint32_t* col_indices, const void* values, std::uint64_t entries);
void check_csr_arrays(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets,
                      const std::uint64_t* col_indices, const void* values, std::uint64_t entries);

// COO triplets of a block: inside it, in strictly increasing (row, column) order.
void check_coo_arrays(const BlockPlacement& place, const std::uint32_t* row_indices, const std::uint32_t* col_indices,
                      const void* values, std::uint64_t entries);

}  // namespace dbdf::detail
