#include "block_encoder.hpp"

#include <limits>

namespace dbdf::detail {

std::uint64_t encoded_record_bytes(const BlockPosition& position, const EncodingPlan& plan) {
    std::uint64_t block_bytes = kEmptyBlockBytes;
    switch (plan.block_type) {
        case BlockType::Empty: break;
        case BlockType::Dense: block_bytes = dense_block_bytes(position.rows, position.cols, plan.value_type); break;
        case BlockType::Csr: block_bytes = csr_block_bytes(position.rows, plan.entries, plan.value_type); break;
        case BlockType::Coo: block_bytes = coo_block_bytes(position.cols, plan.entries, plan.value_type); break;
    }
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    return block_bytes > kMax - kBlockPositionBytes ? kMax : block_bytes + kBlockPositionBytes;
}

EncodingPlan smallest_plan(const BlockPosition& position, std::uint64_t entries, ValueType value_type) {
    if (entries == 0) return EncodingPlan{BlockType::Empty, ValueType::None, 0};
    EncodingPlan best{BlockType::Dense, value_type, entries};
    std::uint64_t best_bytes = encoded_record_bytes(position, best);
    const EncodingPlan csr{BlockType::Csr, value_type, entries};
    if (const std::uint64_t bytes = encoded_record_bytes(position, csr); bytes < best_bytes) {
        best = csr;
        best_bytes = bytes;
    }
    if (entries <= kMaxBlockExtent) {
        const EncodingPlan coo{BlockType::Coo, value_type, entries};
        if (encoded_record_bytes(position, coo) < best_bytes) best = coo;
    }
    return best;
}

void put_record_header(ByteOutput& out, const BlockPosition& position, const EncodingPlan& plan) {
    out.put<std::uint64_t>(position.row);
    out.put<std::uint64_t>(position.col);
    out.put<std::uint32_t>(position.rows);
    out.put<std::uint32_t>(position.cols);
    out.put<std::uint8_t>(static_cast<std::uint8_t>(plan.block_type));
    switch (plan.block_type) {
        case BlockType::Empty: return;
        case BlockType::Dense: out.put<std::uint8_t>(static_cast<std::uint8_t>(plan.value_type)); return;
        case BlockType::Csr:
            out.put<std::uint8_t>(static_cast<std::uint8_t>(plan.value_type));
            out.put<std::uint64_t>(plan.entries);
            return;
        case BlockType::Coo:
            out.put<std::uint8_t>(static_cast<std::uint8_t>(plan.value_type));
            out.put<std::uint32_t>(static_cast<std::uint32_t>(plan.entries));
            return;
    }
}

}  // namespace dbdf::detail
