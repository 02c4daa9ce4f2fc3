// Parsing block records and decoding block payloads. Every function checks what it reads against the format (spec
// layout and docs/format-rules.md) and throws dbdf::Error naming the rule and byte offset. Payload bytes come in a
// ByteWindow that holds at least the bytes the call reads (the block's payload, or for dense decoding the rows and
// columns of the target), addressed by their offsets in the input.
#pragma once

#include <cstdint>
#include <span>

#include "byte_source.hpp"
#include "dbdf/block.hpp"
#include "dbdf/header.hpp"
#include "dbdf/types.hpp"

namespace dbdf::detail {

// The bytes of a record the parser reads: the position pair, the block header and the largest type-specific part
// (a CSR block's value type and #nzb).
inline constexpr std::size_t kRecordPeekBytes = kBlockPositionBytes + kCsrFixedBytes;

// Parses the block record (position pair, block header, type-specific fields) at `offset` of an input of
// `input_size` bytes from a copy of its first bytes: `record` holds min(kRecordPeekBytes, input_size - offset)
// bytes. Checks that codes are valid and that the input holds the whole payload (rules 5-7); does not check bounds
// or read payload values. The caller then runs check_zero_area_csr on the payload when needs_zero_area_check() says
// so. Reading a record this way costs one small read, never the payload.
BlockView parse_block_record_at(const std::byte* record, std::uint64_t input_size, std::uint64_t offset,
                                std::uint64_t index);

// Whether the block is a CSR block without cells, whose row counts check_zero_area_csr must check.
inline bool needs_zero_area_check(const BlockView& block) {
    return block.block_type == BlockType::Csr && block.area() == 0;
}

// Rules 4 and 12 for a CSR block without cells (#r or #c is 0): it holds no entry, so every row count (spec
// layout) or row offset (daphne layout) must be 0. Its parser calls this, because no other check would: the block
// covers no cell, so dense reads never decode it and validation has no value to check. `input` holds the payload,
// which the parser has checked lies within the input.
void check_zero_area_csr(const ByteWindow& input, const BlockView& block);

// Rule 2: the block lies inside the object.
void check_block_bounds(const BlockView& block, const ObjectHeader& header);

// A block-local window [row_begin, row_end) x [col_begin, col_end) decoded densely into `data`, which points at
// the window's first cell; cell (i, j) of the window lands at data[i * row_stride + j] (elements of `type`).
struct DenseTarget {
    ValueType type = ValueType::F64;
    void* data = nullptr;
    std::uint64_t row_stride = 0;
    std::uint32_t row_begin = 0;
    std::uint32_t row_end = 0;
    std::uint32_t col_begin = 0;
    std::uint32_t col_end = 0;
};

void decode_block_dense(const ByteWindow& input, const BlockView& block, const ObjectHeader& header,
                        const DenseTarget& target);

// Entries the block yields as CSR / COO (rule 14): bit-non-zero values of dense blocks, stored entries otherwise.
std::uint64_t count_block_entries(const ByteWindow& input, const BlockView& block);

// Block-local CSR / COO output; the caller guarantees room for count_block_entries() entries and, for CSR,
// block.rows + 1 row offsets.
void decode_block_csr(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                      std::uint64_t* row_offsets, std::uint32_t* col_indices, void* values);
void decode_block_coo(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                      std::uint32_t* row_indices, std::uint32_t* col_indices, void* values);

// Whole-object CSR assembly. add_block_row_counts adds the entries of each block row to
// row_counts[block.row + i]. scatter_block_csr appends each entry of block row i at position
// row_cursor[block.row + i] (then increments it) with object-wide column indices; blocks must be scattered in
// increasing column order so that rows come out sorted.
void add_block_row_counts(const ByteWindow& input, const BlockView& block, std::uint64_t* row_counts);
void scatter_block_csr(const ByteWindow& input, const BlockView& block, const ObjectHeader& header, ValueType type,
                       std::uint64_t* row_cursor, std::uint64_t* col_indices, void* values);

// Whether a dense block's values need a per-value rule 8 check against the types the object declares for its
// cells: false when every value of the stored type fits them, so its bytes may be copied as they are.
bool needs_declared_check(const BlockView& block, const ObjectHeader& header);

// Full payload check: CSR / COO structure (rules 12, 13) and every value representable in its declared type
// (rule 8).
void check_block_payload(const ByteWindow& input, const BlockView& block, const ObjectHeader& header);

}  // namespace dbdf::detail
