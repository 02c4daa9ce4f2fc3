// Block-local CSR output of a sparse or dense block (decode_block_csr). Each of the sparse decoders instantiates its
// loop for every pair of stored and requested value type, so each has a file of its own: the three compile side by
// side instead of one after the other.
#include <algorithm>

#include "block_decoder.hpp"
#include "decoding_support.hpp"

namespace dbdf::detail {

void decode_block_csr(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                      std::uint64_t* row_offsets, std::uint32_t* col_indices, void* values) {
    std::fill_n(row_offsets, std::uint64_t{block.rows} + 1, std::uint64_t{0});
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        auto* out = static_cast<D*>(values);
        const DeclaredTypeCheck<S> declared(header, block);
        std::uint64_t next = 0;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            out[next] = convert_or_throw<D>(value, block, row, col, offset);
            col_indices[next] = col;
            ++row_offsets[std::uint64_t{row} + 1];
            ++next;
        });
    });
    for (std::uint64_t row = 0; row < block.rows; ++row) row_offsets[row + 1] += row_offsets[row];
}

}  // namespace dbdf::detail
