// Reading the daphne dialect's layout: its object header and the blocks its body stands for. The body of a
// daphne file is one block covering the object (matrices, scalars) or interleaved frame rows; it is described as
// BlockViews with their own payload layouts, so decoding, whole-object reads, the index and validation work as
// for spec files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "byte_source.hpp"
#include "dbdf/block.hpp"
#include "dbdf/header.hpp"

namespace dbdf::detail {

// Parses the header of a daphne dialect file (DIALECT.md sections 2-7). For frames the header includes the
// labels (skipped: they are memory bytes, replaced by col_0, col_1, ...) and the rx/cx pair; for scalars it
// is the 19 bytes up to the value. Throws Error (Truncated, Format, Unsupported) naming field and offset.
ObjectHeader parse_daphne_header(std::span<const std::byte> input, std::size_t& header_bytes);

// The blocks the body stands for: one block covering a matrix or a scalar; for a frame one strided column
// block per column (and per 2^32-1 rows). Checks the block header against the object header and that the input
// holds exactly the body; reads only the block header (and the row offsets of a CSR block without cells). Throws
// Error naming field and offset.
std::vector<BlockView> daphne_body_blocks(const ByteSource& source, std::size_t header_bytes,
                                          const ObjectHeader& header);

// Byte offset of block cell (row, col) in a dense or strided-column block's payload.
inline std::uint64_t dense_value_offset(const BlockView& block, std::uint64_t row, std::uint64_t col,
                                        std::size_t value_bytes) {
    if (block.layout == PayloadLayout::StridedColumn) return block.payload_offset + row * block.value_stride;
    return block.payload_offset + (row * block.cols + col) * value_bytes;
}

// The .meta sidecar DaphneDSL's read kernel needs, as DAPHNE's own MetaDataParser writes it (nlohmann::json
// dump: keys sorted, no spaces). Matrices: numCols, numRows, valueType, plus numNonZeros for CSR; frames:
// numCols, numRows and a schema of {label, valueType} per column.
std::string daphne_meta_json(const ObjectHeader& header, std::uint64_t non_zeros);

}  // namespace dbdf::detail
