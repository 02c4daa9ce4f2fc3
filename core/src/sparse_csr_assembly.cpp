// Whole-object CSR assembly from the blocks: counting each block's entries per row (add_block_row_counts), then
// scattering them into the object's rows (scatter_block_csr); a file of its own for the reason
// sparse_csr_decoder.cpp gives. The outputs are the caller's whole-object arrays, which need not be aligned for
// their type: they are written through byte-safe loads and stores (caller_arrays.hpp).
#include "block_decoder.hpp"
#include "caller_arrays.hpp"
#include "decoding_support.hpp"

namespace dbdf::detail {

void add_block_row_counts(const ByteWindow& input, const BlockView& block, std::uint64_t* row_counts) {
    visit_value_type(stored_or_default(block), [&](auto stored_tag) {
        using S = typename decltype(stored_tag)::type;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t, S, std::uint64_t) {
            const std::uint64_t at = block.row + row;
            store_element(row_counts, at, load_element<std::uint64_t>(row_counts, at) + 1);
        });
    });
}

void scatter_block_csr(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                       std::uint64_t* row_cursor, std::uint64_t* col_indices, void* values) {
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        const DeclaredTypeCheck<S> declared(header, block);
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            const std::uint64_t position = load_element<std::uint64_t>(row_cursor, block.row + row);
            store_element(row_cursor, block.row + row, position + 1);
            store_element(values, position, convert_or_throw<D>(value, block, row, col, offset));
            store_element<std::uint64_t>(col_indices, position, block.col + col);
        });
    });
}

}  // namespace dbdf::detail
