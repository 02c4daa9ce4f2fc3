// Pieces shared by the dense and sparse block decoders: the per-value rule 8 check against the declared types,
// the exact conversion to the requested type, the dispatch on both value types, and the walk over the entries a
// block yields as CSR / COO.
#pragma once

#include <cstdint>
#include <span>

#include "block_decoder.hpp"
#include "daphne_dialect.hpp"
#include "dbdf/endian.hpp"
#include "payload_errors.hpp"
#include "payload_walkers.hpp"
#include "value_conversion.hpp"

namespace dbdf::detail {

// Decides whether values of type S need a per-value rule 8 check against the declared types of the cells of
// the block, and performs it.
template <class S>
class DeclaredTypeCheck {
public:
    DeclaredTypeCheck(const ObjectHeader& header, const BlockView& block) : header_(header), block_(block) {
        if (header.data_type != DataType::Frame) {
            needed_ = !always_fits_type<S>(header.value_type);
            return;
        }
        for (std::uint64_t column = block.col; column < block.col_end(); ++column) {
            if (!always_fits_type<S>(header.column_types[column])) {
                needed_ = true;
                return;
            }
        }
    }

    bool needed() const { return needed_; }

    // Inline and cheap when no check is needed, which is the common case, so that decoding loops stay tight.
    void check(S value, std::uint32_t row, std::uint32_t col, std::uint64_t offset) const {
        if (needed_) [[unlikely]]
            check_declared(value, row, col, offset);
    }

private:
    [[gnu::noinline]] void check_declared(S value, std::uint32_t row, std::uint32_t col, std::uint64_t offset) const {
        const ValueType declared = header_.type_of_column(block_.col + col);
        if (!fits_type(declared, value)) fail_value(block_, offset, value, row, col, declared, TypeRole::Declared);
    }

    const ObjectHeader& header_;
    const BlockView& block_;
    bool needed_ = false;
};

template <class D, class S>
D convert_or_throw(S value, const BlockView& block, std::uint32_t row, std::uint32_t col, std::uint64_t offset) {
    D out{};
    if (!convert_exact<D>(value, out)) fail_value(block, offset, value, row, col, value_type_v<D>, TypeRole::Requested);
    return out;
}

// Calls fn(type_tag<S>, type_tag<D>) for the block's stored type S and the requested type D.
template <class Fn>
void visit_pair(ValueType stored, ValueType requested, Fn&& fn) {
    visit_value_type(stored, [&](auto stored_tag) {
        visit_value_type(requested, [&](auto requested_tag) { fn(stored_tag, requested_tag); });
    });
}

// The stored value type to dispatch on; empty blocks have none, any type serves.
inline ValueType stored_or_default(const BlockView& block) {
    return block.block_type == BlockType::Empty ? ValueType::U8 : block.value_type;
}

// Calls on_entry(row, col, value S, value_offset) for each entry the block yields as CSR / COO: the
// bit-non-zero values of dense blocks (rule 14) and every stored entry of sparse blocks, in row-major order.
template <class S, class OnEntry>
void for_each_entry(const ByteWindow& input, const BlockView& block, OnEntry&& on_entry) {
    switch (block.block_type) {
        case BlockType::Empty: return;
        case BlockType::Dense: {
            if (block.cols == 0) return;  // zero-area blocks (rule 4) hold nothing; do not walk their rows
            for (std::uint32_t row = 0; row < block.rows; ++row) {
                for (std::uint32_t col = 0; col < block.cols; ++col) {
                    const std::uint64_t value_offset = dense_value_offset(block, row, col, sizeof(S));
                    if (is_bit_zero(input.at(value_offset), sizeof(S))) continue;
                    on_entry(row, col, load_le<S>(input.at(value_offset)), value_offset);
                }
            }
            return;
        }
        case BlockType::Csr:
            walk_csr<S>(
                input, block, block.rows, [](std::uint32_t, std::uint32_t) {}, on_entry);
            return;
        case BlockType::Coo: walk_coo<S>(input, block, on_entry); return;
    }
}

}  // namespace dbdf::detail
