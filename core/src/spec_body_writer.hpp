// The body writer of the spec dialect: blocks anywhere in the object as long as they partition it (rules 1, 2 and
// 4), each encoded as the caller asks or, automatically, as the smallest block in the narrowest value type that
// holds every value bit for bit (rule 9). Whole matrices are tiled in blocks of a few MiB.
#pragma once

#include "body_writer.hpp"
#include "spare_buffers.hpp"

namespace dbdf::detail {

class SpecBodyWriter final : public BodyWriter {
public:
    explicit SpecBodyWriter(WriteContext& context) : context_(context) {}

    void check_header(const ObjectHeader& header) const override;
    void write_header() override;
    void check_block(const BlockPlacement& place, Encoding encoding, BlockType given) const override;
    void add_block(const BlockPlacement& place, const BlockInput& input, Encoding encoding) override;
    void add_empty(const BlockPlacement& place) override;
    std::vector<BlockPlacement> matrix_blocks(ValueType type, const WriteOptions& options) const override;
    void write_dense_blocks(const std::vector<BlockPlacement>& blocks, ValueType type, const void* values,
                            std::uint64_t stride, Encoding encoding, unsigned encode_threads) override;
    void write_column(std::uint64_t column, ValueType type, const void* values, const WriteOptions& options) override;
    void finish() override;

private:
    WriteContext& context_;
    // The buffers of the stored narrowed values of blocks written already, for the next blocks; freed with the
    // writer.
    SpareBuffers spare_buffers_;
};

}  // namespace dbdf::detail
