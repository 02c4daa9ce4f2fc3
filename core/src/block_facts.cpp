#include "block_facts.hpp"

#include "block_encoder.hpp"

namespace dbdf::detail {

FactsWanted facts_wanted(Encoding encoding) {
    switch (encoding) {
        case Encoding::Auto: return FactsWanted::All;
        case Encoding::Dense: return FactsWanted::None;
        case Encoding::AsGiven:
        case Encoding::Csr:
        case Encoding::Coo: break;
    }
    return FactsWanted::Entries;
}

// Why the count may stop at this bound, and what the bound is. For a block of R x C cells stored as a type of s
// bytes, record sizes (the 16-byte position pair, common to all, left out) are, with e entries:
//   dense   10 + R*C*s
//   CSR     18 + 4*R + (4 + s)*e
//   COO     14 + (i + s)*e, i = 4 when C == 1 (single-column variant, rule 13) else 8; only for e < 2^32
// smallest_plan keeps dense unless CSR or COO is strictly smaller (ties go to dense), so dense is chosen exactly when
//   CSR >= dense  <=>  e >= (R*C*s - 4*R - 8) / (4 + s)
//   COO >= dense  <=>  e >= (R*C*s - 4) / (i + s)       or COO is impossible (e >= 2^32),
// each rounded up. Both sides grow with e, so the counts that choose dense form one interval [bound, R*C], with the
// bound the larger of the two (at least 1: no entries is an empty block); counting on past it cannot change the
// plan, and the entries reported (a lower bound then) go into a dense plan, which does not use them. A 32 x 16384
// tile of doubles: CSR needs e >= 4194168 / 12 = 349514, COO e >= 262144, so the count stops after 349514 non-zeros,
// two thirds of the block. The search below finds that first count with the encoder's own size functions, so the
// bound cannot drift from what smallest_plan compares; tests/core/dense_bound_test.cpp checks it against the
// formulas and checks the plans on both sides of it.
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
        if (sparse_not_smaller(middle))
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

}  // namespace dbdf::detail
