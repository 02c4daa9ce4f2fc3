// Block-local COO output of a sparse or dense block (decode_block_coo); a file of its own for the reason
// sparse_csr_decoder.cpp gives.
#include "block_decoder.hpp"
#include "decoding_support.hpp"

namespace dbdf::detail {

void decode_block_coo(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                      std::uint32_t* row_indices, std::uint32_t* col_indices, void* values) {
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        auto* out = static_cast<D*>(values);
        const DeclaredTypeCheck<S> declared(header, block);
        std::uint64_t next = 0;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            out[next] = convert_or_throw<D>(value, block, row, col, offset);
            row_indices[next] = row;
            col_indices[next] = col;
            ++next;
        });
    });
}

}  // namespace dbdf::detail
