// The part of a writer that depends on the dialect: the bytes of the header and of the body, where blocks may go,
// and how the object is completed. The front (writer.cpp) checks the call order and the caller's arguments, then
// hands each block to the body writer of its dialect, much as the reader sees either dialect's file as blocks:
// spec_body_writer.hpp writes the spec's block records, daphne_body_writer.hpp the runtime's single block, frame
// rows and .meta sidecar. Called once per block or call, never per value.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "block_input.hpp"
#include "dbdf/header.hpp"
#include "dbdf/writer.hpp"
#include "write_context.hpp"

namespace dbdf::detail {

class BodyWriter {
public:
    virtual ~BodyWriter() = default;

    // Refuses a header the dialect cannot express, with Error(InvalidArgument), before anything is written.
    virtual void check_header(const ObjectHeader& header) const = 0;
    // Writes the header of the object begun (the context's).
    virtual void write_header() = 0;

    // Where a block given as `given` (dense, CSR, COO or empty) may go, checked before any byte of it is written
    // so that a refusal leaves the writer usable.
    virtual void check_block(const BlockPlacement& place, Encoding encoding, BlockType given) const = 0;
    // Writes a block that check_block accepted and whose values the front checked (arrays, counts).
    virtual void add_block(const BlockPlacement& place, const BlockInput& input, Encoding encoding) = 0;
    virtual void add_empty(const BlockPlacement& place) = 0;

    // The blocks write_dense and write_csr divide the whole matrix into: none when it has no cells.
    virtual std::vector<BlockPlacement> matrix_blocks(ValueType type, const WriteOptions& options) const = 0;
    // Writes the whole dense matrix at `values` (rows `stride` values apart) as `blocks`, from matrix_blocks.
    // `encode_threads` is the writer's setting (0 automatic). By default each block is checked and added alone.
    virtual void write_dense_blocks(const std::vector<BlockPlacement>& blocks, ValueType type, const void* values,
                                    std::uint64_t stride, Encoding encoding, unsigned encode_threads);
    // Writes column `column` of rows values at `values` (the front checked the column and the count).
    virtual void write_column(std::uint64_t column, ValueType type, const void* values, const WriteOptions& options) = 0;

    // Completes the body and commits the output: Error(Format) when blocks are missing (rule 1), and the writer
    // stays open to add them.
    virtual void finish() = 0;
};

// The body writer of `dialect` over the front's context (a daphne writer with a .meta sidecar opens its file here).
std::unique_ptr<BodyWriter> make_body_writer(WriteContext& context, const WriterDialect& dialect);

}  // namespace dbdf::detail
