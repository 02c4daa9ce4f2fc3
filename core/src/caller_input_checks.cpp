#include "caller_input_checks.hpp"

#include <string>

#include "caller_arrays.hpp"
#include "wide_count.hpp"
#include "write_context.hpp"

namespace dbdf::detail {

void require_valid_input_type(ValueType type) {
    if (!is_valid(type)) {
        invalid_argument("value type code " + std::to_string(static_cast<unsigned>(type)) + " is not one of " +
                         value_type_name_range());
    }
}

void require_valid_encoding(Encoding encoding) {
    if (static_cast<unsigned>(encoding) > static_cast<unsigned>(Encoding::Coo)) {
        invalid_argument("encoding code " + std::to_string(static_cast<unsigned>(encoding)) + " is unknown");
    }
}

void require_entry_array(const void* array, const char* name, std::uint64_t entries) {
    if (array == nullptr && entries > 0) {
        invalid_argument(std::string(name) + " is NULL but " + std::to_string(entries) + " entries were passed");
    }
}

void check_dense_values(const BlockPlacement& place, const void* values, std::size_t count, std::uint64_t stride) {
    if (stride < place.cols) {
        invalid_argument("row stride " + std::to_string(stride) + " is smaller than the block's " +
                         std::to_string(place.cols) + " columns");
    }
    // A block without cells (of an object without cells) needs no values.
    const WideCount needed =
        place.rows == 0 || place.cols == 0 ? 0 : static_cast<WideCount>(place.rows - 1) * stride + place.cols;
    if (needed > count) {
        invalid_argument(placement_text(place) + " needs " + std::to_string(static_cast<std::uint64_t>(needed)) +
                         " values at the given stride but only " + std::to_string(count) + " were passed");
    }
    if (values == nullptr && needed > 0) invalid_argument("values are NULL");
}

namespace {

template <class Index>
void check_csr(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets, const Index* col_indices,
               const void* values, std::uint64_t entries) {
    if (row_offsets == nullptr) invalid_argument("row_offsets is NULL");
    require_entry_array(col_indices, "col_indices", entries);
    require_entry_array(values, "values", entries);
    // The caller's arrays need not be aligned for their type: every element is loaded byte-safely.
    auto offset = [row_offsets](std::uint64_t row) { return load_element<std::uint64_t>(row_offsets, row); };
    auto column = [col_indices](std::uint64_t k) { return load_element<Index>(col_indices, k); };
    if (offset(0) != 0) invalid_argument("row_offsets[0] must be 0, got " + std::to_string(offset(0)));
    // All offsets are checked before any column index is read: an offset beyond `entries` would otherwise index
    // past the end of the caller's col_indices.
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::uint64_t row_end = offset(row + 1);
        if (row_end < offset(row) || row_end > entries) {
            invalid_argument("row_offsets[" + std::to_string(row + 1) + "] is " + std::to_string(row_end) +
                             "; offsets must not decrease (previous " + std::to_string(offset(row)) +
                             ") nor exceed the " + std::to_string(entries) + " entries passed");
        }
    }
    if (offset(rows) != entries) {
        invalid_argument("row_offsets[" + std::to_string(rows) + "] is " + std::to_string(offset(rows)) + " but " +
                         std::to_string(entries) + " entries were passed");
    }
    for (std::uint64_t row = 0; row < rows; ++row) {
        for (std::uint64_t k = offset(row); k < offset(row + 1); ++k) {
            if (column(k) >= cols || (k > offset(row) && column(k) <= column(k - 1))) {
                invalid_argument("column index " + std::to_string(column(k)) + " of entry " + std::to_string(k) +
                                 " (row " + std::to_string(row) + ") is out of range or not strictly increasing");
            }
        }
    }
}

}  // namespace

void check_csr_arrays(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets,
                      const std::uint32_t* col_indices, const void* values, std::uint64_t entries) {
    check_csr(rows, cols, row_offsets, col_indices, values, entries);
}

void check_csr_arrays(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets,
                      const std::uint64_t* col_indices, const void* values, std::uint64_t entries) {
    check_csr(rows, cols, row_offsets, col_indices, values, entries);
}

void check_coo_arrays(const BlockPlacement& place, const std::uint32_t* row_indices, const std::uint32_t* col_indices,
                      const void* values, std::uint64_t entries) {
    require_entry_array(row_indices, "row_indices", entries);
    require_entry_array(col_indices, "col_indices", entries);
    require_entry_array(values, "values", entries);
    auto row_of = [row_indices](std::uint64_t k) { return load_element<std::uint32_t>(row_indices, k); };
    auto col_of = [col_indices](std::uint64_t k) { return load_element<std::uint32_t>(col_indices, k); };
    for (std::uint64_t k = 0; k < entries; ++k) {
        if (row_of(k) >= place.rows || col_of(k) >= place.cols) {
            invalid_argument("entry " + std::to_string(k) + " at (" + std::to_string(row_of(k)) + ", " +
                             std::to_string(col_of(k)) + ") lies outside the " + placement_text(place));
        }
        if (k > 0 && (row_of(k) < row_of(k - 1) || (row_of(k) == row_of(k - 1) && col_of(k) <= col_of(k - 1)))) {
            invalid_argument("entry " + std::to_string(k) + " is not in strictly increasing (row, column) order");
        }
    }
}

}  // namespace dbdf::detail
