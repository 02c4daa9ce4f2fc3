#include "daphne_body_writer.hpp"

#include <span>

#include "daphne_dialect.hpp"

namespace dbdf::detail {

DaphneBodyWriter::DaphneBodyWriter(WriteContext& context, const WriterDialect& dialect) : context_(context) {
    if (!dialect.meta_sidecar.empty()) meta_sink_ = make_file_sink(dialect.meta_sidecar, dialect.meta_commit);
}

void DaphneBodyWriter::check_header(const ObjectHeader& header) const {
    if (header.data_type == DataType::Scalar) {
        if (!is_valid(header.value_type)) {
            invalid_argument("a scalar needs a value type from u8 to f64, got code " +
                             std::to_string(static_cast<unsigned>(header.value_type)));
        }
    } else {
        check_header_for_writing(header);
    }
    check_daphne_header_for_writing(header);
}

void DaphneBodyWriter::write_header() {
    const std::vector<std::byte> bytes = encode_daphne_header(context_.header);
    context_.emitting([&] { context_.out.put_bytes(bytes); });
    if (context_.header.data_type == DataType::Frame) {
        frame_columns_ = std::make_unique<DaphneFrameColumns>(context_.header);
    }
}

// "scalar" or "matrix", for messages about the dialect's single block.
const char* DaphneBodyWriter::object_noun() const {
    return context_.header.data_type == DataType::Scalar ? "scalar" : "matrix";
}

// A frame takes whole columns of dense values; where a column block may go is checked here, that it is a whole
// column once its values are known to be there (add_block).
void DaphneBodyWriter::check_block(const BlockPlacement& place, Encoding encoding, BlockType given) const {
    if (context_.header.data_type != DataType::Frame) {
        check_matrix_block(place, encoding);
        return;
    }
    if (given != BlockType::Dense) {
        invalid_argument("in the daphne dialect a frame takes whole columns of dense values (write_column or "
                         "add_dense of a whole column)");
    }
    context_.check_placement(place);
}

// The matrix body is one block covering the object, in the object's own layout. A dense matrix stores that block's
// values row-major with nothing before them, so it may also arrive as full-width row bands in row order, each
// written as it comes: the bytes are those of the one block. A CSR body cannot: its row offsets for every row
// precede the first column index. A scalar's value is a 1 x 1 dense block: the same bytes, without the block
// header.
void DaphneBodyWriter::check_matrix_block(const BlockPlacement& place, Encoding encoding) const {
    const ObjectHeader& header = context_.header;
    context_.check_extent(place);
    if (header.data_type == DataType::DenseMatrix) {
        require_next_row_band(place);
    } else {
        context_.check_no_overlap(place);
        if (rows_written_ != 0) {
            throw Error(ErrorCode::CallOrder, std::string("the daphne dialect stores one block covering the ") +
                                                  object_noun() + ", and it has been written");
        }
        if (place.row != 0 || place.col != 0 || place.rows != header.rows || place.cols != header.cols) {
            invalid_argument(placement_text(place) + " does not cover the " + std::to_string(header.rows) + " x " +
                             std::to_string(header.cols) + " " + object_noun() +
                             "; the daphne dialect stores one block covering it" +
                             (header.data_type == DataType::CsrMatrix
                                  ? " (a CSR matrix's row offsets of every row come before its first column index, "
                                    "so it cannot be written in pieces)"
                                  : ""));
        }
    }
    require_encoding(encoding);
}

// "rows 0 to 4", "row 0" or "no rows": the rows of a dense matrix written so far, for messages about bands.
std::string DaphneBodyWriter::rows_written_text() const {
    if (rows_written_ == 0) return "no rows";
    if (rows_written_ == 1) return "row 0";
    return "rows 0 to " + std::to_string(rows_written_ - 1);
}

// A dense matrix's block, or the next full-width band of it.
void DaphneBodyWriter::require_next_row_band(const BlockPlacement& place) const {
    const ObjectHeader& header = context_.header;
    // Built only for a refusal: a tall matrix may come one row at a time.
    const auto dialect_rule = [&] {
        return "; the daphne dialect stores a dense matrix's values row-major in one block, so it takes one "
               "block covering the matrix or full-width row bands (column 0, all " +
               std::to_string(header.cols) + " columns) in row order";
    };
    if (place.col != 0 || place.cols != header.cols) {
        invalid_argument(placement_text(place) + " does not cover all " + std::to_string(header.cols) +
                         " columns of the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                         " matrix" + dialect_rule());
    }
    if (place.row < rows_written_) {
        const std::string next = rows_written_ == header.rows
                                     ? "all " + std::to_string(header.rows) + " rows have been written"
                                     : "the next band starts at row " + std::to_string(rows_written_);
        invalid_argument(placement_text(place) + " overlaps the rows written so far (" + rows_written_text() +
                         "); each row is written once, and " + next + dialect_rule());
    }
    if (place.row > rows_written_) {
        throw Error(ErrorCode::CallOrder, placement_text(place) + " is out of order: the next band starts at row " +
                                              std::to_string(rows_written_) + " (written so far: " +
                                              rows_written_text() + ")" + dialect_rule());
    }
}

// The encoding may only name the object's own layout.
void DaphneBodyWriter::require_encoding(Encoding encoding) const {
    const ObjectHeader& header = context_.header;
    const bool dense = header.data_type != DataType::CsrMatrix;
    const bool fits = encoding == Encoding::Auto || encoding == Encoding::AsGiven ||
                      (dense && encoding == Encoding::Dense) || (!dense && encoding == Encoding::Csr);
    if (!fits) {
        const std::string object = header.data_type == DataType::Scalar
                                       ? std::string("scalar's value")
                                       : std::string(name(header.data_type)) + " matrix";
        invalid_argument("encoding " + std::string(name(encoding)) + " is not available in the daphne dialect, "
                         "which stores a " + object + " as one " + (dense ? "dense" : "CSR") + " block");
    }
}

void DaphneBodyWriter::add_block(const BlockPlacement& place, const BlockInput& input, Encoding) {
    const ObjectHeader& header = context_.header;
    if (header.data_type == DataType::Frame) {
        if (place.row != 0 || place.rows != header.rows || place.cols != 1) {
            invalid_argument(placement_text(place) + " is not a whole frame column; the daphne dialect takes frames "
                             "column by column");
        }
        set_column(place.col, input.type, input.values, input.stride);
        return;
    }
    // A dense body is every value in the object's type, row-major, however the bands come: its size is known
    // exactly at the first band (a CSR body's follows its non-zeros), and announced once then.
    if (header.data_type == DataType::DenseMatrix && place.row == 0) {
        context_.reserve_output(header.rows * header.cols * value_size(header.value_type));
    }
    input.visit([&](const auto& source) {
        using T = source_value_t<decltype(source)>;
        add_matrix_body<T>(place, source);
    });
}

// Writes the matrix body, or a band of it, from `source` (values of T) in the object's value type.
template <class T, class Source>
void DaphneBodyWriter::add_matrix_body(const BlockPlacement& place, const Source& source) {
    const ObjectHeader& header = context_.header;
    visit_value_type(header.value_type, [&](auto object_tag) {
        using D = typename decltype(object_tag)::type;
        // Rule 8 first, so a value that does not convert leaves the writer usable. Nothing to check when every
        // value of T converts. Errors name the object's cell: a band starts at place.row.
        if constexpr (!always_fits<T, D>()) {
            auto check = [&place](std::uint32_t row, std::uint32_t col, T value) {
                (void)daphne_stored_value<D>(value, place.row + row, col);
            };
            if constexpr (kIsDenseSource<Source>) {
                source.for_each_nonzero(check);
            } else {
                source.for_each_entry(check);
            }
        }
        context_.emitting([&] {
            if (header.data_type != DataType::CsrMatrix) {
                put_daphne_dense_body<D>(context_.out, source, place.row);
            } else {
                non_zeros_ = put_daphne_csr_body<D>(context_.out, source);
            }
        });
    });
    record_rows(place);
}

// Zeros for an empty block: a band of a dense matrix, or the whole body of a CSR matrix or scalar.
void DaphneBodyWriter::add_empty(const BlockPlacement& place) {
    const ObjectHeader& header = context_.header;
    context_.emitting([&] {
        if (header.data_type == DataType::DenseMatrix) {
            put_daphne_zero_values(context_.out, header.value_type, std::uint64_t{place.rows} * place.cols);
        } else {
            put_daphne_empty_body(context_.out, header);
        }
    });
    record_rows(place);
}

// Dense bands are checked against the rows written, not the partition tracker, which would otherwise grow with
// every band of a tall matrix written row by row.
void DaphneBodyWriter::record_rows(const BlockPlacement& place) {
    rows_written_ += place.rows;
    if (context_.header.data_type == DataType::DenseMatrix) {
        ++context_.blocks_added;
    } else {
        context_.record(place);
    }
}

// One block covering the matrix; none when it has no cells (finish() writes the empty body). Tile options do not
// apply.
std::vector<BlockPlacement> DaphneBodyWriter::matrix_blocks(ValueType, const WriteOptions&) const {
    const ObjectHeader& header = context_.header;
    if (header.rows == 0 || header.cols == 0) return {};
    return {BlockPlacement{0, 0, static_cast<std::uint32_t>(header.rows), static_cast<std::uint32_t>(header.cols)}};
}

// A frame column goes to memory whole, whatever the frame's height: it is not a block of the file.
void DaphneBodyWriter::write_column(std::uint64_t column, ValueType type, const void* values, const WriteOptions&) {
    if (context_.header.data_type != DataType::Frame) {
        invalid_argument("in the daphne dialect write_column writes frame columns; a matrix is one block "
                         "(write_dense)");
    }
    if (context_.header.rows == 0) return;
    set_column(column, type, values, 1);
}

// A whole frame column from values[i * stride], i < rows.
void DaphneBodyWriter::set_column(std::uint64_t column, ValueType type, const void* values, std::uint64_t stride) {
    if (frame_columns_->has(column)) {
        invalid_argument("frame column " + std::to_string(column) + " has already been written");
    }
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        frame_columns_->set(column, static_cast<const T*>(values), stride);
    });
    ++context_.blocks_added;
}

void DaphneBodyWriter::finish() {
    finish_body();
    commit_outputs();
}

void DaphneBodyWriter::finish_body() {
    const ObjectHeader& header = context_.header;
    if (header.data_type == DataType::Frame) {
        frame_columns_->require_complete();
        context_.emitting([&] { frame_columns_->put_rows(context_.out); });
        return;
    }
    if (header.rows == 0 || header.cols == 0) {
        context_.emitting([&] { put_daphne_empty_body(context_.out, header); });
        return;
    }
    if (rows_written_ == header.rows) return;
    if (rows_written_ == 0) {
        throw Error(ErrorCode::Format,
                    "no block covers the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) + " " +
                        object_noun() +
                        "; the daphne dialect needs one block covering it (write_dense, write_csr or one add_* call" +
                        (header.data_type == DataType::DenseMatrix ? ", or full-width row bands in row order" : "") +
                        ") before finishing",
                    1);
    }
    // Only a dense matrix takes bands, so only it can be part written. The finish fails before anything is
    // flushed or committed, and the writer stays open for the rest of the rows.
    const std::uint64_t last = header.rows - 1;
    throw Error(ErrorCode::Format,
                "the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) + " matrix is missing " +
                    (rows_written_ == last ? "row " + std::to_string(last)
                                           : "rows " + std::to_string(rows_written_) + " to " + std::to_string(last)) +
                    " (written so far: " + rows_written_text() +
                    "); the daphne dialect stores every row in its one block, so add full-width row bands for the "
                    "rest before finishing",
                1);
}

// DaphneDSL's read kernel needs <file>.meta next to the data. Scalars get none: the runtime only serializes them
// into buffers and has no file writer for them, so it never writes a sidecar for one (the corpus has none) and
// there is no form to follow.
bool DaphneBodyWriter::wants_meta() const {
    return meta_sink_ != nullptr && context_.header.data_type != DataType::Scalar;
}

// Commits the body and its .meta as a pair. Both are written out, synced when durable, and given their temporary
// names first, so that a failure of either (a full disk, a sidecar that cannot be written) leaves both targets as
// they were; only then are they moved into place, the data first and the sidecar last, so that a sidecar marks a
// complete pair. What remains is the moment between the two renames, which do no I/O of their own: a crash (or a
// rename failing) there leaves the new data beside the old sidecar, or none.
void DaphneBodyWriter::commit_outputs() {
    context_.emitting([&] {
        context_.out.flush();
        ByteSink* meta = wants_meta() ? meta_sink_.get() : nullptr;
        if (meta != nullptr) {
            const std::string json = daphne_meta_json(context_.header, non_zeros_);
            meta->write(std::as_bytes(std::span<const char>(json.data(), json.size())));
            meta->prepare_commit();
        }
        context_.sink->prepare_commit();
        context_.sink->publish();
        if (meta != nullptr) meta->publish();
    });
    meta_sink_.reset();  // a scalar's unused sidecar: its temporary file goes
}

}  // namespace dbdf::detail
