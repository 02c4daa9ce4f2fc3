#include <limits>

#include "wide_count.hpp"

#include "dbdf/block.hpp"

namespace dbdf {
using detail::WideCount;
namespace {

using Wide = WideCount;

std::uint64_t saturate(Wide value) {
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    return value > kMax ? kMax : static_cast<std::uint64_t>(value);
}

}  // namespace

std::uint64_t dense_block_bytes(std::uint32_t rows, std::uint32_t cols, ValueType type) {
    return saturate(Wide{kDenseFixedBytes} + Wide{rows} * cols * value_size(type));
}

std::uint64_t csr_block_bytes(std::uint32_t rows, std::uint64_t entries, ValueType type) {
    return saturate(Wide{kCsrFixedBytes} + Wide{4} * rows + Wide{entries} * (4 + value_size(type)));
}

std::uint64_t coo_block_bytes(std::uint32_t cols, std::uint64_t entries, ValueType type) {
    const std::uint64_t index_bytes = cols == 1 ? 4 : 8;  // rule 13: single-column variant iff #c == 1
    return saturate(Wide{kCooFixedBytes} + Wide{entries} * (index_bytes + value_size(type)));
}

}  // namespace dbdf
