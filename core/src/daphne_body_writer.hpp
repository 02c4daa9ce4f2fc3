// The body writer of the daphne dialect (DIALECT.md): one block covering a matrix, in the object's own layout and
// value type, which a dense matrix may also take as full-width row bands in row order; a scalar's single value;
// a frame's columns, kept until finish() interleaves them row by row; and DaphneDSL's .meta sidecar, committed
// together with the data.
#pragma once

#include <memory>
#include <string>

#include "body_writer.hpp"
#include "daphne_encoder.hpp"

namespace dbdf::detail {

class DaphneBodyWriter final : public BodyWriter {
public:
    // Opens the .meta sidecar's file sink when `dialect` names one, so that a sidecar that cannot be written fails
    // before any data is (Error(Io)).
    DaphneBodyWriter(WriteContext& context, const WriterDialect& dialect);

    void check_header(const ObjectHeader& header) const override;
    void write_header() override;
    void check_block(const BlockPlacement& place, Encoding encoding, BlockType given) const override;
    void add_block(const BlockPlacement& place, const BlockInput& input, Encoding encoding) override;
    void add_empty(const BlockPlacement& place) override;
    std::vector<BlockPlacement> matrix_blocks(ValueType type, const WriteOptions& options) const override;
    void write_column(std::uint64_t column, ValueType type, const void* values, const WriteOptions& options) override;
    void finish() override;

private:
    void check_matrix_block(const BlockPlacement& place, Encoding encoding) const;
    void require_next_row_band(const BlockPlacement& place) const;
    void require_encoding(Encoding encoding) const;
    const char* object_noun() const;
    std::string rows_written_text() const;
    template <class T, class Source>
    void add_matrix_body(const BlockPlacement& place, const Source& source);
    void record_rows(const BlockPlacement& place);
    void set_column(std::uint64_t column, ValueType type, const void* values, std::uint64_t stride);
    void finish_body();
    bool wants_meta() const;
    void commit_outputs();

    WriteContext& context_;
    // The .meta file's sink, opened with the writer and committed together with the data (commit_outputs).
    std::unique_ptr<ByteSink> meta_sink_;
    // Rows of the matrix body written so far (a dense matrix's may come in bands; a CSR matrix or a scalar has all
    // or none), and its #nzb for the .meta file.
    std::uint64_t rows_written_ = 0;
    std::uint64_t non_zeros_ = 0;
    std::unique_ptr<DaphneFrameColumns> frame_columns_;
};

}  // namespace dbdf::detail
