// A block as stored: where it is, its shape and types, and where its payload lies. Knowing these never
// requires decoding the payload.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dbdf/types.hpp"

namespace dbdf {

// How a block's payload bytes are arranged. Spec blocks follow the spec's layout for their block type; the
// daphne dialect (dialect.hpp) has two layouts of its own, which the decoders dispatch on, so callers decode
// every block the same way.
enum class PayloadLayout : std::uint8_t {
    Spec = 0,
    // Daphne CSR: rowOffsets (uint64 x (#r + 1)), colIdxs (uint64 x #nzb), values (#nzb); #nzb precedes it.
    DaphneCsr = 1,
    // One column of a daphne frame: #r values of the block's value type, value_stride bytes apart (the values
    // of a frame row are interleaved across its columns).
    StridedColumn = 2,
};

struct BlockView {
    std::uint64_t index = 0;  // ordinal in the file
    std::uint64_t row = 0;    // rx
    std::uint64_t col = 0;    // cx
    std::uint32_t rows = 0;   // #r
    std::uint32_t cols = 0;   // #c
    BlockType block_type = BlockType::Empty;
    ValueType value_type = ValueType::None;  // stored type; for empty blocks None
    std::uint64_t stored_values = 0;         // rows*cols for dense, #nzb for CSR / COO, 0 for empty
    std::uint64_t offset = 0;                // byte offset of the block record (its rx field)
    std::uint64_t encoded_bytes = 0;         // position pair + block header + payload
    std::uint64_t payload_offset = 0;        // byte offset of the payload (dense values, CSR rows, COO entries)
    std::uint64_t payload_bytes = 0;
    PayloadLayout layout = PayloadLayout::Spec;
    std::uint64_t value_stride = 0;  // StridedColumn only: bytes from one value to the next

    std::uint64_t row_end() const { return row + rows; }
    std::uint64_t col_end() const { return col + cols; }
    std::uint64_t area() const { return std::uint64_t{rows} * cols; }
};

// Exact encoded sizes of the block representations (block header included, position pair excluded).
// Saturate at UINT64_MAX instead of overflowing.
std::uint64_t dense_block_bytes(std::uint32_t rows, std::uint32_t cols, ValueType type);
std::uint64_t csr_block_bytes(std::uint32_t rows, std::uint64_t entries, ValueType type);
std::uint64_t coo_block_bytes(std::uint32_t cols, std::uint64_t entries, ValueType type);
inline constexpr std::uint64_t kEmptyBlockBytes = 9;

}  // namespace dbdf
