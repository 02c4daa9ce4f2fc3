#include "block_facts.hpp"

#include "block_encoder.hpp"

namespace dbdf::detail {

FactsWanted facts_wanted(Encoding encoding) {
    switch (encoding) {
        case Encoding::Auto: return FactsWanted::All;
        case Encoding::Dense: return FactsWanted::None;
        default: return FactsWanted::Entries;
    }
}

std::uint64_t entries_that_rule_out_sparse(std::uint32_t rows, std::uint32_t cols, ValueType type) {
    const BlockPosition shape{0, 0, rows, cols};
    const std::uint64_t dense = encoded_record_bytes(shape, EncodingPlan{BlockType::Dense, type, 0});
    const auto sparse_not_smaller = [&](std::uint64_t entries) {
        const bool csr = encoded_record_bytes(shape, EncodingPlan{BlockType::Csr, type, entries}) >= dense;
        const bool coo = entries > kMaxBlockExtent ||
                         encoded_record_bytes(shape, EncodingPlan{BlockType::Coo, type, entries}) >= dense;
        return csr && coo;
    };
    std::uint64_t low = 1;
    std::uint64_t high = std::uint64_t{rows} * cols;
    if (high == 0 || !sparse_not_smaller(high)) return UINT64_MAX;
    while (low < high) {  // the first count from which sparse_not_smaller holds
        const std::uint64_t middle = low + (high - low) / 2;
        if (sparse_not_smaller(middle)) high = middle; else low = middle + 1;
    }
    return low;
}

}  // namespace dbdf::detail
