// The writer's dialect-neutral front: the call order (phases), the checks of the caller's arguments, blocks that
// stand for no cells, and the division of whole matrices and columns into blocks; the body writer of the dialect
// (body_writer.hpp) places, encodes and commits them.
#include "dbdf/writer.hpp"

#include <string>
#include <vector>

#include "block_input.hpp"
#include "body_writer.hpp"
#include "caller_arrays.hpp"
#include "caller_input_checks.hpp"
#include "dbdf/error.hpp"
#include "wide_count.hpp"
#include "write_context.hpp"

namespace dbdf {

using detail::BlockInput;
using detail::invalid_argument;
using detail::SparseLayout;
using detail::WriterPhase;

std::string_view name(Encoding encoding) {
    switch (encoding) {
        case Encoding::Auto: return "auto";
        case Encoding::AsGiven: return "as-given";
        case Encoding::Dense: return "dense";
        case Encoding::Csr: return "csr";
        case Encoding::Coo: return "coo";
    }
    return "unknown";
}

struct Writer::State {
    State(std::unique_ptr<ByteSink> sink, const WriterDialect& chosen)
        : context(std::move(sink)), dialect(chosen.dialect), body(detail::make_body_writer(context, chosen)) {}

    detail::WriteContext context;
    Dialect dialect;
    std::unique_ptr<detail::BodyWriter> body;
    unsigned encode_threads = 0;  // 0: automatic

    void require_phase_for_blocks() const {
        switch (context.phase) {
            case WriterPhase::Idle:
                throw Error(ErrorCode::CallOrder, "no object begun: call begin_matrix or begin_frame first");
            case WriterPhase::Finished:
                throw Error(ErrorCode::CallOrder, "the object is finished; no more blocks can be added");
            case WriterPhase::Failed:
                throw Error(ErrorCode::CallOrder, "the writer failed earlier; only freeing it remains");
            case WriterPhase::Begun: return;
        }
    }

    void require_idle() const {
        if (context.phase != WriterPhase::Idle) {
            throw Error(ErrorCode::CallOrder, "an object has already been begun on this writer");
        }
    }

    void begin(ObjectHeader header) {
        body->check_header(header);
        context.header = std::move(header);
        body->write_header();
        context.phase = WriterPhase::Begun;
    }

    // A block without cells in an object without cells, such as the 0 x 3 block a daphne file of a 0 x 3 matrix
    // holds: it describes the whole object, and rule 4 gives such an object no blocks, so nothing is written for
    // it (a daphne body is written whole by finish()). In an object with cells a block without any is refused
    // (rule 4) by the body writer's placement check.
    bool stands_for_no_cells(const BlockPlacement& place) const {
        const ObjectHeader& header = context.header;
        if ((place.rows != 0 && place.cols != 0) || (header.rows != 0 && header.cols != 0)) return false;
        if (!context.lies_within(place)) context.refuse_outside(place);
        return true;
    }

    // The one path of every add_* call: call order and codes, then where the block goes, then its values
    // (check_values), and only then a byte of it.
    template <class CheckValues>
    void add(const BlockPlacement& place, const BlockInput& input, Encoding encoding, CheckValues&& check_values) {
        require_phase_for_blocks();
        detail::require_valid_input_type(input.type);
        detail::require_valid_encoding(encoding);
        if (stands_for_no_cells(place)) {
            check_values();
            return;
        }
        body->check_block(place, encoding, input.given);
        check_values();
        body->add_block(place, input, encoding);
    }

    // write_dense and write_csr: a whole matrix, right after begin.
    void require_whole_matrix_call(const char* helper) const {
        if (context.header.data_type == DataType::Frame) {
            invalid_argument(std::string(helper) + " writes matrices; use write_column for frames");
        }
        if (context.blocks_added != 0) {
            throw Error(ErrorCode::CallOrder,
                        std::string(helper) + " writes the whole matrix and must come right after begin");
        }
    }
};

Writer::Writer(std::unique_ptr<ByteSink> sink, WriterDialect dialect) {
    if (!sink) throw Error(ErrorCode::InvalidArgument, "a writer needs a sink");
    state_ = std::make_unique<State>(std::move(sink), dialect);
}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;
Writer::~Writer() = default;

void Writer::begin_matrix(DataType data_type, ValueType value_type, std::uint64_t rows, std::uint64_t cols) {
    state_->require_idle();
    if (data_type != DataType::Scalar && !is_matrix(data_type)) {
        invalid_argument(
            "begin_matrix needs data type dense or csr (or scalar in the daphne dialect); use "
            "begin_frame for frames");
    }
    ObjectHeader header;
    header.data_type = data_type;
    header.value_type = value_type;
    header.rows = rows;
    header.cols = cols;
    state_->begin(std::move(header));
}

void Writer::begin_frame(std::uint64_t rows, std::vector<ValueType> column_types, std::vector<std::string> labels) {
    state_->require_idle();
    ObjectHeader header;
    header.data_type = DataType::Frame;
    header.rows = rows;
    header.cols = column_types.size();
    header.column_types = std::move(column_types);
    header.labels = std::move(labels);
    state_->begin(std::move(header));
}

const ObjectHeader& Writer::header() const { return state_->context.header; }
Dialect Writer::dialect() const { return state_->dialect; }

void Writer::add_dense(const BlockPlacement& place, ValueType type, const void* values, std::size_t count,
                       std::uint64_t row_stride, const WriteOptions& options) {
    const std::uint64_t stride = row_stride == 0 ? place.cols : row_stride;
    const BlockInput input = BlockInput::dense_values(type, place.rows, place.cols, values, stride);
    state_->add(place, input, options.encoding, [&] { detail::check_dense_values(place, values, count, stride); });
}

void Writer::add_csr(const BlockPlacement& place, ValueType type, const std::uint64_t* row_offsets,
                     const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                     const WriteOptions& options) {
    BlockInput input;
    input.type = type;
    input.given = BlockType::Csr;
    input.layout = SparseLayout::LocalCsr;
    input.rows = place.rows;
    input.cols = place.cols;
    input.values = values;
    input.cols32 = col_indices;
    input.row_offsets = row_offsets;
    state_->add(place, input, options.encoding,
                [&] { detail::check_csr_arrays(place.rows, place.cols, row_offsets, col_indices, values, entries); });
}

void Writer::add_coo(const BlockPlacement& place, ValueType type, const std::uint32_t* row_indices,
                     const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                     const WriteOptions& options) {
    BlockInput input;
    input.type = type;
    input.given = BlockType::Coo;
    input.layout = SparseLayout::LocalCoo;
    input.rows = place.rows;
    input.cols = place.cols;
    input.values = values;
    input.cols32 = col_indices;
    input.row_indices = row_indices;
    input.entries = entries;
    state_->add(place, input, options.encoding,
                [&] { detail::check_coo_arrays(place, row_indices, col_indices, values, entries); });
}

void Writer::add_empty(const BlockPlacement& place) {
    state_->require_phase_for_blocks();
    if (state_->stands_for_no_cells(place)) return;
    state_->body->check_block(place, Encoding::Auto, BlockType::Empty);
    state_->body->add_empty(place);
}

void Writer::write_dense(ValueType type, const void* values, std::size_t count, std::uint64_t row_stride,
                         const WriteOptions& options) {
    state_->require_phase_for_blocks();
    detail::require_valid_input_type(type);
    state_->require_whole_matrix_call("write_dense");
    const ObjectHeader& header = state_->context.header;
    const std::uint64_t stride = row_stride == 0 ? header.cols : row_stride;
    if (stride < header.cols) invalid_argument("row stride is smaller than the matrix's column count");
    const detail::WideCount needed = header.rows == 0 || header.cols == 0
                                         ? 0
                                         : static_cast<detail::WideCount>(header.rows - 1) * stride + header.cols;
    if (needed > count) invalid_argument("the matrix needs more values than the " + std::to_string(count) + " passed");
    detail::require_valid_encoding(options.encoding);
    if (values == nullptr && needed > 0) invalid_argument("values are NULL");
    const std::vector<BlockPlacement> blocks = state_->body->matrix_blocks(type, options);
    if (!detail::is_aligned_for(values, detail::value_alignment(type))) {
        // A body writer's own whole-matrix path may read the values in place as their type; misaligned values go
        // block by block through add_block instead, which stages one block at a time (block_input.hpp). The
        // daphne dialect's one block of a dense matrix may come as full-width row bands, which bound the copy.
        const bool banded = state_->dialect == Dialect::Daphne && header.data_type == DataType::DenseMatrix;
        const std::vector<BlockPlacement> pieces = banded ? detail::row_bands(blocks, type) : blocks;
        state_->body->BodyWriter::write_dense_blocks(pieces, type, values, stride, options.encoding, 1);
        return;
    }
    state_->body->write_dense_blocks(blocks, type, values, stride, options.encoding, state_->encode_threads);
}

void Writer::set_encode_threads(unsigned threads) { state_->encode_threads = threads; }
unsigned Writer::encode_threads() const { return state_->encode_threads; }

void Writer::write_csr(ValueType type, const std::uint64_t* row_offsets, const std::uint64_t* col_indices,
                       const void* values, std::uint64_t entries, const WriteOptions& options) {
    state_->require_phase_for_blocks();
    detail::require_valid_input_type(type);
    detail::require_valid_encoding(options.encoding);
    state_->require_whole_matrix_call("write_csr");
    const ObjectHeader& header = state_->context.header;
    detail::check_csr_arrays(header.rows, header.cols, row_offsets, col_indices, values, entries);
    // Each block takes the window of the object-wide arrays that lies in it.
    for (const BlockPlacement& place : state_->body->matrix_blocks(type, options)) {
        state_->body->check_block(place, options.encoding, BlockType::Csr);
        BlockInput input;
        input.type = type;
        input.given = BlockType::Csr;
        input.layout = SparseLayout::CsrWindow;
        input.rows = place.rows;
        input.cols = place.cols;
        input.values = values;
        input.cols64 = col_indices;
        input.row_offsets = row_offsets;
        input.row_base = place.row;
        input.col_base = place.col;
        input.col_limit = place.col + place.cols;
        state_->body->add_block(place, input, options.encoding);
    }
}

void Writer::write_column(std::uint64_t column, ValueType type, const void* values, std::size_t count,
                          const WriteOptions& options) {
    state_->require_phase_for_blocks();
    detail::require_valid_input_type(type);
    const ObjectHeader& header = state_->context.header;
    if (column >= header.cols) {
        invalid_argument("column " + std::to_string(column) + " does not exist; the object has " +
                         std::to_string(header.cols));
    }
    if (count < header.rows) {
        invalid_argument("column " + std::to_string(column) + " needs " + std::to_string(header.rows) + " values but " +
                         std::to_string(count) + " were passed");
    }
    detail::require_valid_encoding(options.encoding);
    if (values == nullptr && header.rows > 0) invalid_argument("values are NULL");
    state_->body->write_column(column, type, values, options);
}

void Writer::finish() {
    State& s = *state_;
    if (s.context.phase != WriterPhase::Begun) {
        s.require_phase_for_blocks();  // throws the right call-order error
    }
    s.body->finish();
    s.context.phase = WriterPhase::Finished;
}

bool Writer::begun() const { return state_->context.phase != WriterPhase::Idle; }
bool Writer::finished() const { return state_->context.phase == WriterPhase::Finished; }
bool Writer::failed() const { return state_->context.phase == WriterPhase::Failed; }
std::uint64_t Writer::bytes_written() const { return state_->context.out.total(); }
ByteSink& Writer::sink() { return *state_->context.sink; }

}  // namespace dbdf
