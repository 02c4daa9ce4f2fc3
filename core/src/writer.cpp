#include "dbdf/writer.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "block_encoder.hpp"
#include "block_sources.hpp"
#include "byte_output.hpp"
#include "daphne_dialect.hpp"
#include "daphne_encoder.hpp"
#include "dbdf/error.hpp"
#include "parallel_for.hpp"
#include "partition.hpp"
#include "wide_count.hpp"
#include "value_analysis.hpp"

namespace dbdf {

using detail::BlockPosition;
using detail::DenseSource;
using detail::EncodingPlan;
using detail::SparseLayout;
using detail::SparseSource;

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

BlockPlacement default_tile(std::uint64_t rows, std::uint64_t cols, ValueType type) {
    constexpr std::uint64_t kTargetBlockBytes = std::uint64_t{4} << 20;
    if (rows == 0 || cols == 0) return BlockPlacement{0, 0, 0, 0};
    const std::uint64_t value_bytes = std::max<std::size_t>(value_size(type), 1);
    std::uint64_t block_cols = std::min(cols, kMaxBlockExtent);
    if (block_cols * value_bytes > kTargetBlockBytes) block_cols = kTargetBlockBytes / value_bytes;
    std::uint64_t block_rows = std::max<std::uint64_t>(1, kTargetBlockBytes / (block_cols * value_bytes));
    block_rows = std::min({block_rows, rows, kMaxBlockExtent});
    return BlockPlacement{0, 0, static_cast<std::uint32_t>(block_rows), static_cast<std::uint32_t>(block_cols)};
}

namespace {

enum class Phase { Idle, Begun, Finished, Failed };

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); }

std::string position_text(const BlockPlacement& place) {
    return "block at (" + std::to_string(place.row) + ", " + std::to_string(place.col) + ") of shape " +
           std::to_string(place.rows) + " x " + std::to_string(place.cols);
}

void require_valid_input_type(ValueType type) {
    if (!is_valid(type)) {
        invalid("value type code " + std::to_string(static_cast<unsigned>(type)) + " is not one of u8..f64");
    }
}

void require_valid_encoding(Encoding encoding) {
    if (static_cast<unsigned>(encoding) > static_cast<unsigned>(Encoding::Coo)) {
        invalid("encoding code " + std::to_string(static_cast<unsigned>(encoding)) + " is unknown");
    }
}

// Rule 8 on write: every value must be exactly representable in the declared type of its cell.
template <class T>
class DeclaredTypes {
public:
    DeclaredTypes(const ObjectHeader& header, const BlockPlacement& place) : header_(header), place_(place) {
        if (header.data_type != DataType::Frame) {
            needed_ = !detail::always_fits_type<T>(header.value_type);
            return;
        }
        for (std::uint64_t column = place.col; column < place.col + place.cols && !needed_; ++column) {
            needed_ = !detail::always_fits_type<T>(header.column_types[column]);
        }
    }

    bool needed() const { return needed_; }

    // Inline and cheap when no check is needed, which is the common case: it runs once per value written.
    void check(T value, std::uint32_t row, std::uint32_t col) const {
        if (needed_) [[unlikely]] check_declared(value, row, col);
    }

private:
    [[gnu::noinline]] void check_declared(T value, std::uint32_t row, std::uint32_t col) const {
        const ValueType declared = header_.type_of_column(place_.col + col);
        if (!detail::fits_type(declared, value)) fail(value, row, col, declared);
    }

    [[noreturn, gnu::cold, gnu::noinline]] void fail(T value, std::uint32_t row, std::uint32_t col,
                                                     ValueType declared) const {
        throw Error(ErrorCode::Range, position_text(place_) + ": value " + detail::value_text(value) +
                                          " at block cell (" + std::to_string(row) + ", " + std::to_string(col) +
                                          ") is not exactly representable in the declared type " +
                                          std::string(name(declared)) + " (rule 8)",
                    8);
    }

    const ObjectHeader& header_;
    const BlockPlacement& place_;
    bool needed_ = false;
};

// Arrays of `entries` elements may be NULL only when there are no entries.
void require_entry_array(const void* array, const char* name, std::uint64_t entries) {
    if (array == nullptr && entries > 0) {
        invalid(std::string(name) + " is NULL but " + std::to_string(entries) + " entries were passed");
    }
}

// Caller CSR arrays: row_offsets[0..rows] from 0 to `entries`, non-decreasing; columns below `cols` and strictly
// increasing within each row. Index is uint32 (block-local) or uint64 (object-wide).
template <class Index>
void check_csr_arrays(std::uint64_t rows, std::uint64_t cols, const std::uint64_t* row_offsets,
                      const Index* col_indices, const void* values, std::uint64_t entries) {
    if (row_offsets == nullptr) invalid("row_offsets is NULL");
    require_entry_array(col_indices, "col_indices", entries);
    require_entry_array(values, "values", entries);
    if (row_offsets[0] != 0) invalid("row_offsets[0] must be 0, got " + std::to_string(row_offsets[0]));
    // All offsets are checked before any column index is read: an offset beyond `entries` would otherwise index
    // past the end of the caller's col_indices.
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::uint64_t row_end = row_offsets[row + 1];
        if (row_end < row_offsets[row] || row_end > entries) {
            invalid("row_offsets[" + std::to_string(row + 1) + "] is " + std::to_string(row_end) +
                    "; offsets must not decrease (previous " + std::to_string(row_offsets[row]) +
                    ") nor exceed the " + std::to_string(entries) + " entries passed");
        }
    }
    if (row_offsets[rows] != entries) {
        invalid("row_offsets[" + std::to_string(rows) + "] is " + std::to_string(row_offsets[rows]) + " but " +
                std::to_string(entries) + " entries were passed");
    }
    for (std::uint64_t row = 0; row < rows; ++row) {
        for (std::uint64_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k) {
            if (col_indices[k] >= cols || (k > row_offsets[row] && col_indices[k] <= col_indices[k - 1])) {
                invalid("column index " + std::to_string(col_indices[k]) + " of entry " + std::to_string(k) +
                        " (row " + std::to_string(row) + ") is out of range or not strictly increasing");
            }
        }
    }
}

struct BlockFacts {
    std::uint64_t entries = 0;  // non-zeros of a dense source, kept entries of a sparse one
    detail::TypeMask feasible = 0;
};

// What the choice of encoding needs to know about a block's values: automatic encoding everything; a given sparse
// encoding the entry count; a given dense encoding nothing (only rule 8 is checked).
enum class FactsWanted { All, Entries, None };

FactsWanted facts_wanted(Encoding encoding) {
    switch (encoding) {
        case Encoding::Auto: return FactsWanted::All;
        case Encoding::Dense: return FactsWanted::None;
        default: return FactsWanted::Entries;
    }
}

// The fewest entries with which neither a CSR nor a COO block of `type` is smaller than a dense one of the given
// shape, or UINT64_MAX when a full block still leaves a sparse one smaller. Sizes grow with the entries, so the
// automatic choice is dense as soon as that many are seen, whatever the rest of the values.
std::uint64_t entries_that_rule_out_sparse(std::uint32_t rows, std::uint32_t cols, ValueType type) {
    const BlockPosition shape{0, 0, rows, cols};
    const std::uint64_t dense = detail::encoded_record_bytes(shape, EncodingPlan{BlockType::Dense, type, 0});
    const auto sparse_not_smaller = [&](std::uint64_t entries) {
        const bool csr = detail::encoded_record_bytes(shape, EncodingPlan{BlockType::Csr, type, entries}) >= dense;
        const bool coo = entries > kMaxBlockExtent ||
                         detail::encoded_record_bytes(shape, EncodingPlan{BlockType::Coo, type, entries}) >= dense;
        return csr && coo;
    };
    std::uint64_t low = 1;
    std::uint64_t high = std::uint64_t{rows} * cols;
    if (high == 0 || !sparse_not_smaller(high)) return UINT64_MAX;
    while (low < high) {  // the first count from which sparse_not_smaller holds
        const std::uint64_t middle = low + (high - low) / 2;
        if (sparse_not_smaller(middle)) high = middle; else low = middle + 1;
    }
    return low;
}

// A dense source row by row. The narrowing analysis stops as soon as no type narrower than T can hold every
// value seen: counting the non-zeros of the rest is then all that is left, and it runs at memory speed. For the
// automatic encoding, that count stops too once it rules out a sparse block (the entries reported are then a lower
// bound, which only a sparse encoding would use); rule 8's check of every value against the object's type never
// stops early.
template <class T>
BlockFacts analyze(const detail::DenseSource<T>& source, const DeclaredTypes<T>& declared, FactsWanted wanted) {
    BlockFacts facts;
    detail::NarrowingAnalysis<T> narrowing;
    bool narrowing_open = wanted == FactsWanted::All;
    // With narrowing ruled out the block keeps T's width, on which the sizes depend: known once it closes.
    std::uint64_t enough_for_dense = UINT64_MAX;
    for (std::uint32_t row = 0; row < source.rows; ++row) {
        const T* values = source.row(row);
        if (declared.needed()) {
            for (std::uint32_t col = 0; col < source.cols; ++col) {
                if (!detail::is_bit_zero_value(values[col])) declared.check(values[col], row, col);
            }
        }
        if (narrowing_open) {
            facts.entries += narrowing.observe_values(values, source.cols);
            narrowing_open = narrowing.narrower_possible();
            if (!narrowing_open && !declared.needed()) {
                enough_for_dense = entries_that_rule_out_sparse(source.rows, source.cols, value_type_v<T>);
            }
        } else if (wanted != FactsWanted::None) {
            facts.entries += detail::count_nonzero_bits(values, source.cols);
        }
        if (facts.entries >= enough_for_dense) break;
    }
    facts.feasible = narrowing.feasible();
    return facts;
}

template <class T, class Source>
BlockFacts analyze(const Source& source, const DeclaredTypes<T>& declared, FactsWanted) {
    BlockFacts facts;
    detail::NarrowingAnalysis<T> narrowing;
    auto observe = [&](std::uint32_t row, std::uint32_t col, T value) {
        declared.check(value, row, col);
        narrowing.observe(value);
        ++facts.entries;
    };
    source.for_each_entry(observe);
    facts.feasible = narrowing.feasible();
    return facts;
}

}  // namespace

struct Writer::State {
    std::unique_ptr<ByteSink> sink;
    // Daphne dialect with a sidecar: the .meta file's sink, opened with the writer so that a sidecar that cannot be
    // written fails before any data is, and committed together with the data (commit_daphne_outputs).
    std::unique_ptr<ByteSink> meta_sink;
    detail::ByteOutput out;
    ObjectHeader header;
    Phase phase = Phase::Idle;
    detail::PartitionTracker tracker;
    std::uint64_t blocks_added = 0;
    WriterDialect dialect;
    // Daphne dialect: rows of the matrix body written so far (a dense matrix's may come in bands; a CSR matrix or
    // a scalar has all or none), its #nzb (for the .meta file), frame columns.
    std::uint64_t daphne_rows_written = 0;
    std::uint64_t daphne_non_zeros = 0;
    std::unique_ptr<detail::DaphneFrameColumns> daphne_columns;
    unsigned encode_threads = 0;  // 0: automatic

    State(std::unique_ptr<ByteSink> owned_sink, WriterDialect chosen)
        : sink(std::move(owned_sink)), out(*sink), dialect(std::move(chosen)) {}

    bool daphne() const { return dialect.dialect == Dialect::Daphne; }

    // Tells the sink how many bytes are about to follow (a file sink preallocates them); what is buffered goes
    // out first, so that the hint starts where the file ends.
    void reserve_output(std::uint64_t bytes) {
        emitting([&] {
            out.flush();
            sink->reserve(bytes);
        });
    }

    void require_phase_for_blocks() const {
        switch (phase) {
            case Phase::Idle: throw Error(ErrorCode::CallOrder, "no object begun: call begin_matrix or begin_frame first");
            case Phase::Finished: throw Error(ErrorCode::CallOrder, "the object is finished; no more blocks can be added");
            case Phase::Failed: throw Error(ErrorCode::CallOrder, "the writer failed earlier; only freeing it remains");
            case Phase::Begun: return;
        }
    }

    void require_idle() const {
        if (phase != Phase::Idle) throw Error(ErrorCode::CallOrder, "an object has already been begun on this writer");
    }

    // Runs `emit`, marking the writer failed when it throws (bytes may have reached the sink).
    template <class Emit>
    void emitting(Emit&& emit) {
        try {
            emit();
        } catch (...) {
            phase = Phase::Failed;
            throw;
        }
    }

    void write_header() {
        if (daphne()) detail::check_daphne_header_for_writing(header);
        const std::vector<std::byte> bytes = daphne() ? detail::encode_daphne_header(header) : encode_header(header);
        emitting([&] { out.put_bytes(bytes); });
        if (daphne() && header.data_type == DataType::Frame) {
            daphne_columns = std::make_unique<detail::DaphneFrameColumns>(header);
        }
        phase = Phase::Begun;
    }

    // "scalar" or "matrix", for messages about the daphne dialect's single block.
    const char* daphne_object_noun() const { return header.data_type == DataType::Scalar ? "scalar" : "matrix"; }

    // Where a block may go in the daphne dialect, checked before any byte of it is written so that a refusal
    // leaves the writer usable. The matrix body is one block covering the object, in the object's own layout. A
    // dense matrix stores that block's values row-major with nothing before them, so it may also arrive as
    // full-width row bands in row order, each written as it comes: the bytes are those of the one block. A CSR
    // body cannot: its row offsets for every row precede the first column index. A scalar's value is a 1 x 1 dense
    // block: the same bytes, without the block header.
    void check_daphne_matrix_block(const BlockPlacement& place, Encoding encoding) const {
        if (header.data_type == DataType::Frame) {
            invalid("in the daphne dialect a frame takes whole columns of dense values (write_column or add_dense "
                    "of a whole column)");
        }
        check_extent(place);
        if (header.data_type == DataType::DenseMatrix) {
            require_next_row_band(place);
        } else {
            check_no_overlap(place);
            if (daphne_rows_written != 0) {
                throw Error(ErrorCode::CallOrder, std::string("the daphne dialect stores one block covering the ") +
                                                      daphne_object_noun() + ", and it has been written");
            }
            if (place.row != 0 || place.col != 0 || place.rows != header.rows || place.cols != header.cols) {
                invalid(position_text(place) + " does not cover the " + std::to_string(header.rows) + " x " +
                        std::to_string(header.cols) + " " + daphne_object_noun() +
                        "; the daphne dialect stores one block covering it" +
                        (header.data_type == DataType::CsrMatrix
                             ? " (a CSR matrix's row offsets of every row come before its first column index, so it "
                               "cannot be written in pieces)"
                             : ""));
            }
        }
        require_daphne_encoding(encoding);
    }

    // "rows 0 to 4", "row 0" or "no rows": the rows of a dense matrix written so far, for messages about bands.
    std::string daphne_rows_written_text() const {
        if (daphne_rows_written == 0) return "no rows";
        if (daphne_rows_written == 1) return "row 0";
        return "rows 0 to " + std::to_string(daphne_rows_written - 1);
    }

    // A dense matrix's block, or the next full-width band of it.
    void require_next_row_band(const BlockPlacement& place) const {
        // Built only for a refusal: a tall matrix may come one row at a time.
        const auto dialect_rule = [&] {
            return "; the daphne dialect stores a dense matrix's values row-major in one block, so it takes one "
                   "block covering the matrix or full-width row bands (column 0, all " +
                   std::to_string(header.cols) + " columns) in row order";
        };
        if (place.col != 0 || place.cols != header.cols) {
            invalid(position_text(place) + " does not cover all " + std::to_string(header.cols) + " columns of the " +
                    std::to_string(header.rows) + " x " + std::to_string(header.cols) + " matrix" + dialect_rule());
        }
        if (place.row < daphne_rows_written) {
            const std::string next = daphne_rows_written == header.rows
                                         ? "all " + std::to_string(header.rows) + " rows have been written"
                                         : "the next band starts at row " + std::to_string(daphne_rows_written);
            invalid(position_text(place) + " overlaps the rows written so far (" + daphne_rows_written_text() +
                    "); each row is written once, and " + next + dialect_rule());
        }
        if (place.row > daphne_rows_written) {
            throw Error(ErrorCode::CallOrder, position_text(place) + " is out of order: the next band starts at row " +
                                                  std::to_string(daphne_rows_written) + " (written so far: " +
                                                  daphne_rows_written_text() + ")" + dialect_rule());
        }
    }

    // The encoding may only name the object's own layout.
    void require_daphne_encoding(Encoding encoding) const {
        const bool dense = header.data_type != DataType::CsrMatrix;
        const bool fits = encoding == Encoding::Auto || encoding == Encoding::AsGiven ||
                          (dense && encoding == Encoding::Dense) || (!dense && encoding == Encoding::Csr);
        if (!fits) {
            const std::string object = header.data_type == DataType::Scalar
                                           ? std::string("scalar's value")
                                           : std::string(name(header.data_type)) + " matrix";
            invalid("encoding " + std::string(name(encoding)) + " is not available in the daphne dialect, which "
                    "stores a " + object + " as one " + (dense ? "dense" : "CSR") + " block");
        }
    }

    // Writes the matrix body from `source` (values of T) in the object's value type.
    template <class T, class Source>
    void add_daphne_matrix_body(const BlockPlacement& place, const Source& source) {
        visit_value_type(header.value_type, [&](auto object_tag) {
            using D = typename decltype(object_tag)::type;
            // Rule 8 first, so a value that does not convert leaves the writer usable. Nothing to check when
            // every value of T converts. Errors name the object's cell: a band starts at place.row.
            if constexpr (!detail::always_fits<T, D>()) {
                auto check = [&place](std::uint32_t row, std::uint32_t col, T value) {
                    (void)detail::daphne_stored_value<D>(value, place.row + row, col);
                };
                if constexpr (detail::kIsDenseSource<Source>) {
                    source.for_each_nonzero(check);
                } else {
                    source.for_each_entry(check);
                }
            }
            emitting([&] {
                if (header.data_type != DataType::CsrMatrix) {
                    detail::put_daphne_dense_body<D>(out, source, place.row);
                } else {
                    daphne_non_zeros = detail::put_daphne_csr_body<D>(out, source);
                }
            });
        });
        record_daphne_rows(place);
    }

    // Zeros for an empty block: a band of a dense matrix, or the whole body of a CSR matrix or scalar.
    void add_daphne_empty_body(const BlockPlacement& place) {
        emitting([&] {
            if (header.data_type == DataType::DenseMatrix) {
                detail::put_daphne_zero_values(out, header.value_type, std::uint64_t{place.rows} * place.cols);
            } else {
                detail::put_daphne_empty_body(out, header);
            }
        });
        record_daphne_rows(place);
    }

    // Dense bands are checked against the rows written, not the partition tracker, which would otherwise grow
    // with every band of a tall matrix written row by row.
    void record_daphne_rows(const BlockPlacement& place) {
        daphne_rows_written += place.rows;
        if (header.data_type == DataType::DenseMatrix) {
            ++blocks_added;
        } else {
            record(place);
        }
    }

    // A whole frame column from values[i * stride], i < rows.
    void set_daphne_column(std::uint64_t column, ValueType type, const void* values, std::uint64_t stride) {
        if (daphne_columns->has(column)) {
            invalid("frame column " + std::to_string(column) + " has already been written");
        }
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            daphne_columns->set(column, static_cast<const T*>(values), stride);
        });
        ++blocks_added;
    }

    void finish_daphne_body() {
        if (header.data_type == DataType::Frame) {
            daphne_columns->require_complete();
            emitting([&] { daphne_columns->put_rows(out); });
            return;
        }
        if (header.rows == 0 || header.cols == 0) {
            emitting([&] { detail::put_daphne_empty_body(out, header); });
            return;
        }
        if (daphne_rows_written == header.rows) return;
        if (daphne_rows_written == 0) {
            throw Error(ErrorCode::Format,
                        "no block covers the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                            " " + daphne_object_noun() +
                            "; the daphne dialect needs one block covering it (write_dense, write_csr or one add_* "
                            "call" +
                            (header.data_type == DataType::DenseMatrix ? ", or full-width row bands in row order" : "") +
                            ") before finishing",
                        1);
        }
        // Only a dense matrix takes bands, so only it can be part written. The finish fails before anything is
        // flushed or committed, and the writer stays open for the rest of the rows.
        const std::uint64_t last = header.rows - 1;
        throw Error(ErrorCode::Format,
                    "the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) + " matrix is missing " +
                        (daphne_rows_written == last ? "row " + std::to_string(last)
                                                     : "rows " + std::to_string(daphne_rows_written) + " to " +
                                                           std::to_string(last)) +
                        " (written so far: " + daphne_rows_written_text() +
                        "); the daphne dialect stores every row in its one block, so add full-width row bands for the "
                        "rest before finishing",
                    1);
    }

    // DaphneDSL's read kernel needs <file>.meta next to the data. Scalars get none: the runtime only serializes
    // them into buffers and has no file writer for them, so it never writes a sidecar for one (the corpus has none)
    // and there is no form to follow.
    bool wants_daphne_meta() const { return meta_sink != nullptr && header.data_type != DataType::Scalar; }

    // Commits the daphne body and its .meta as a pair. Both are written out, synced when durable, and given their
    // temporary names first, so that a failure of either (a full disk, a sidecar that cannot be written) leaves
    // both targets as they were; only then are they moved into place, the data first and the sidecar last, so that
    // a sidecar marks a complete pair. What remains is the moment between the two renames, which do no I/O of
    // their own: a crash (or a rename failing) there leaves the new data beside the old sidecar, or none.
    void commit_daphne_outputs() {
        emitting([&] {
            out.flush();
            ByteSink* meta = wants_daphne_meta() ? meta_sink.get() : nullptr;
            if (meta != nullptr) {
                const std::string json = detail::daphne_meta_json(header, daphne_non_zeros);
                meta->write(std::as_bytes(std::span<const char>(json.data(), json.size())));
                meta->prepare_commit();
            }
            sink->prepare_commit();
            sink->publish();
            if (meta != nullptr) meta->publish();
        });
        meta_sink.reset();  // a scalar's unused sidecar: its temporary file goes
    }

    // Where an add_* block may go: rules 4, 2 and 1, or in the daphne dialect what its single block allows.
    void check_added_block(const BlockPlacement& place, Encoding encoding) const {
        if (daphne()) {
            check_daphne_matrix_block(place, encoding);
        } else {
            check_placement(place);
        }
    }

    // Rules 2, 4 and 1 for a block about to be added.
    void check_placement(const BlockPlacement& place) const {
        check_extent(place);
        check_no_overlap(place);
    }

    // Rules 4 and 2: the block has cells, and they lie in the object.
    void check_extent(const BlockPlacement& place) const {
        if (place.rows == 0 || place.cols == 0) {
            invalid(position_text(place) + " has no cells; blocks need at least one row and one column (rule 4)");
        }
        const bool rows_fit = place.rows <= header.rows && place.row <= header.rows - place.rows;
        const bool cols_fit = place.cols <= header.cols && place.col <= header.cols - place.cols;
        if (!rows_fit || !cols_fit) {
            invalid(position_text(place) + " reaches outside the " + std::to_string(header.rows) + " x " +
                    std::to_string(header.cols) + " object (rule 2)");
        }
    }

    // Rule 1: no cell is covered twice.
    void check_no_overlap(const BlockPlacement& place) const {
        if (auto other = tracker.find_overlap({place.row, place.col, place.rows, place.cols, 0})) {
            invalid(position_text(place) + " overlaps the earlier block at (" + std::to_string(other->row) + ", " +
                    std::to_string(other->col) + ") (rule 1)");
        }
    }

    void record(const BlockPlacement& place) {
        tracker.add({place.row, place.col, place.rows, place.cols, 0});
        ++blocks_added;
    }

    template <class T, class Source>
    void add_block(const BlockPlacement& place, Source& source, Encoding encoding, BlockType given_type) {
        constexpr bool kSparse = !requires { source.for_each_nonzero([](std::uint32_t, std::uint32_t, T) {}); };
        if constexpr (kSparse) source.drop_zeros = encoding == Encoding::Auto;
        const BlockFacts facts = analyze<T>(source, DeclaredTypes<T>(header, place), facts_wanted(encoding));
        emit_block<T>(place, source, encoding, given_type, facts);
    }

    // Encodes and writes a block whose values were analysed (and checked against rule 8) already.
    template <class T, class Source>
    void emit_block(const BlockPlacement& place, const Source& source, Encoding encoding, BlockType given_type,
                    const BlockFacts& facts) {
        const BlockPosition position{place.row, place.col, place.rows, place.cols};
        EncodingPlan plan;
        switch (encoding) {
            case Encoding::Auto:
                plan = detail::smallest_plan(position, facts.entries,
                                             detail::narrowest_type(facts.feasible, value_type_v<T>));
                break;
            case Encoding::AsGiven: plan = EncodingPlan{given_type, value_type_v<T>, facts.entries}; break;
            case Encoding::Dense: plan = EncodingPlan{BlockType::Dense, value_type_v<T>, facts.entries}; break;
            case Encoding::Csr: plan = EncodingPlan{BlockType::Csr, value_type_v<T>, facts.entries}; break;
            case Encoding::Coo: plan = EncodingPlan{BlockType::Coo, value_type_v<T>, facts.entries}; break;
        }
        if (plan.block_type == BlockType::Coo && plan.entries > kMaxBlockExtent) {
            invalid(position_text(place) + " has " + std::to_string(plan.entries) +
                    " entries; a COO block holds at most 2^32-1 (its #nzb is uint32)");
        }
        emitting([&] { detail::encode_block(out, position, source, plan); });
        record(place);
    }

    // The tiles of a whole dense matrix (write_dense). With two threads, the values of the tiles ahead are
    // analysed on a helper thread while this one encodes and writes, so that automatic encoding costs no more
    // than writing; the helper keeps at most kAnalysedAhead tiles ahead, so a tile's values are often still in the
    // cache when they are written.
    template <class T>
    void write_dense_tiles(const std::vector<BlockPlacement>& tiles, const T* values, std::uint64_t stride,
                           Encoding encoding, unsigned threads) {
        auto source_of = [&](const BlockPlacement& place) {
            return detail::DenseSource<T>{values + place.row * stride + place.col, place.rows, place.cols, stride};
        };
        const FactsWanted wanted = facts_wanted(encoding);
        if (threads < 2 || tiles.size() < 2 || (wanted == FactsWanted::None && !DeclaredTypes<T>(header, tiles[0]).needed())) {
            for (const BlockPlacement& place : tiles) {
                detail::DenseSource<T> source = source_of(place);
                add_block<T>(place, source, encoding, BlockType::Dense);
            }
            return;
        }
        constexpr std::size_t kAnalysedAhead = 2;
        std::vector<BlockFacts> facts(tiles.size());
        std::vector<std::exception_ptr> failures(tiles.size());
        std::atomic<std::size_t> analysed{0};
        std::atomic<std::size_t> emitted{0};
        std::atomic<bool> stop{false};
        std::thread analyser([&] {
            for (std::size_t i = 0; i < tiles.size() && !stop.load(); ++i) {
                for (std::size_t done = emitted.load(); i > done + kAnalysedAhead && !stop.load(); done = emitted.load()) {
                    emitted.wait(done);
                }
                try {
                    facts[i] = analyze<T>(source_of(tiles[i]), DeclaredTypes<T>(header, tiles[i]), wanted);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
                analysed.store(i + 1);
                analysed.notify_one();
                if (failures[i]) return;
            }
        });
        // Joined on every way out, a failure here included.
        const auto join = [&] {
            stop.store(true);
            emitted.store(tiles.size());
            emitted.notify_one();
            analyser.join();
        };
        try {
            for (std::size_t i = 0; i < tiles.size(); ++i) {
                for (std::size_t ready = analysed.load(); ready <= i; ready = analysed.load()) analysed.wait(ready);
                if (failures[i]) std::rethrow_exception(failures[i]);
                emit_block<T>(tiles[i], source_of(tiles[i]), encoding, BlockType::Dense, facts[i]);
                emitted.store(i + 1);
                emitted.notify_one();
            }
        } catch (...) {
            join();
            throw;
        }
        join();
    }
};

Writer::Writer(std::unique_ptr<ByteSink> sink, WriterDialect dialect) {
    if (!sink) throw Error(ErrorCode::InvalidArgument, "a writer needs a sink");
    if (dialect.dialect != Dialect::Spec && dialect.dialect != Dialect::Daphne) {
        throw Error(ErrorCode::InvalidArgument, "dialect code " + std::to_string(static_cast<unsigned>(dialect.dialect)) +
                                                    " is unknown (0 spec, 1 daphne)");
    }
    state_ = std::make_unique<State>(std::move(sink), std::move(dialect));
    if (state_->daphne() && !state_->dialect.meta_sidecar.empty()) {
        state_->meta_sink = make_file_sink(state_->dialect.meta_sidecar, state_->dialect.meta_commit);
    }
}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;
Writer::~Writer() = default;

void Writer::begin_matrix(DataType data_type, ValueType value_type, std::uint64_t rows, std::uint64_t cols) {
    state_->require_idle();
    ObjectHeader header;
    header.data_type = data_type;
    header.value_type = value_type;
    header.rows = rows;
    header.cols = cols;
    if (data_type == DataType::Scalar) {
        // Data type 4 is DAPHNE's serialized single value; the spec defines no such data type, so a spec file
        // cannot hold it.
        if (!state_->daphne()) {
            invalid("data type scalar exists only in the daphne dialect; the spec format has no scalar (write a "
                    "1 x 1 dense matrix instead)");
        }
        if (!is_valid(value_type)) {
            invalid("a scalar needs a value type from u8 to f64, got code " +
                    std::to_string(static_cast<unsigned>(value_type)));
        }
    } else {
        if (!is_matrix(data_type)) {
            invalid("begin_matrix needs data type dense or csr (or scalar in the daphne dialect); use begin_frame "
                    "for frames");
        }
        check_header_for_writing(header);
    }
    state_->header = std::move(header);
    state_->write_header();
}

void Writer::begin_frame(std::uint64_t rows, std::vector<ValueType> column_types, std::vector<std::string> labels) {
    state_->require_idle();
    ObjectHeader header;
    header.data_type = DataType::Frame;
    header.rows = rows;
    header.cols = column_types.size();
    header.column_types = std::move(column_types);
    header.labels = std::move(labels);
    check_header_for_writing(header);
    state_->header = std::move(header);
    state_->write_header();
}

const ObjectHeader& Writer::header() const { return state_->header; }
Dialect Writer::dialect() const { return state_->dialect.dialect; }

void Writer::add_dense(const BlockPlacement& place, ValueType type, const void* values, std::size_t count,
                       std::uint64_t row_stride, const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    require_valid_encoding(options.encoding);
    // A daphne frame takes whole columns, checked below once the values are known to be there.
    const bool daphne_frame = state_->daphne() && state_->header.data_type == DataType::Frame;
    if (daphne_frame) {
        state_->check_placement(place);
    } else {
        state_->check_added_block(place, options.encoding);
    }
    const std::uint64_t stride = row_stride == 0 ? place.cols : row_stride;
    if (stride < place.cols) {
        invalid("row stride " + std::to_string(stride) + " is smaller than the block's " + std::to_string(place.cols) +
                " columns");
    }
    const detail::WideCount needed = static_cast<detail::WideCount>(place.rows - 1) * stride + place.cols;
    if (needed > count) {
        invalid(position_text(place) + " needs " + std::to_string(static_cast<std::uint64_t>(needed)) +
                " values at the given stride but only " + std::to_string(count) + " were passed");
    }
    if (values == nullptr) invalid("values are NULL");
    if (daphne_frame) {
        if (place.row != 0 || place.rows != state_->header.rows || place.cols != 1) {
            invalid(position_text(place) + " is not a whole frame column; the daphne dialect takes frames column "
                    "by column");
        }
        state_->set_daphne_column(place.col, type, values, stride);
        return;
    }
    // A daphne dense body is every value in the object's type, row-major, however the bands come: its size is
    // known exactly at the first band (a CSR body's follows its non-zeros), and announced once then.
    const ObjectHeader& header = state_->header;
    if (state_->daphne() && header.data_type == DataType::DenseMatrix && place.row == 0) {
        state_->reserve_output(header.rows * header.cols * value_size(header.value_type));
    }
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        DenseSource<T> source{static_cast<const T*>(values), place.rows, place.cols, stride};
        if (state_->daphne()) {
            state_->add_daphne_matrix_body<T>(place, source);
        } else {
            state_->add_block<T>(place, source, options.encoding, BlockType::Dense);
        }
    });
}

void Writer::add_csr(const BlockPlacement& place, ValueType type, const std::uint64_t* row_offsets,
                     const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                     const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    require_valid_encoding(options.encoding);
    state_->check_added_block(place, options.encoding);
    check_csr_arrays(place.rows, place.cols, row_offsets, col_indices, values, entries);
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        SparseSource<T> source;
        source.layout = SparseLayout::LocalCsr;
        source.rows = place.rows;
        source.cols = place.cols;
        source.values = static_cast<const T*>(values);
        source.cols32 = col_indices;
        source.row_offsets = row_offsets;
        if (state_->daphne()) {
            state_->add_daphne_matrix_body<T>(place, source);
        } else {
            state_->add_block<T>(place, source, options.encoding, BlockType::Csr);
        }
    });
}

void Writer::add_coo(const BlockPlacement& place, ValueType type, const std::uint32_t* row_indices,
                     const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                     const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    require_valid_encoding(options.encoding);
    state_->check_added_block(place, options.encoding);
    require_entry_array(row_indices, "row_indices", entries);
    require_entry_array(col_indices, "col_indices", entries);
    require_entry_array(values, "values", entries);
    for (std::uint64_t k = 0; k < entries; ++k) {
        if (row_indices[k] >= place.rows || col_indices[k] >= place.cols) {
            invalid("entry " + std::to_string(k) + " at (" + std::to_string(row_indices[k]) + ", " +
                    std::to_string(col_indices[k]) + ") lies outside the " + position_text(place));
        }
        if (k > 0 && (row_indices[k] < row_indices[k - 1] ||
                      (row_indices[k] == row_indices[k - 1] && col_indices[k] <= col_indices[k - 1]))) {
            invalid("entry " + std::to_string(k) + " is not in strictly increasing (row, column) order");
        }
    }
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        SparseSource<T> source;
        source.layout = SparseLayout::LocalCoo;
        source.rows = place.rows;
        source.cols = place.cols;
        source.values = static_cast<const T*>(values);
        source.cols32 = col_indices;
        source.row_indices = row_indices;
        source.entries = entries;
        if (state_->daphne()) {
            state_->add_daphne_matrix_body<T>(place, source);
        } else {
            state_->add_block<T>(place, source, options.encoding, BlockType::Coo);
        }
    });
}

void Writer::add_empty(const BlockPlacement& place) {
    state_->require_phase_for_blocks();
    state_->check_added_block(place, Encoding::Auto);
    if (state_->daphne()) {
        state_->add_daphne_empty_body(place);
        return;
    }
    const BlockPosition position{place.row, place.col, place.rows, place.cols};
    state_->emitting([&] {
        detail::put_record_header(state_->out, position, EncodingPlan{BlockType::Empty, ValueType::None, 0});
    });
    state_->record(place);
}

namespace {

// Tile extents from the options, or the automatic ones.
BlockPlacement tile_shape(const ObjectHeader& header, ValueType type, const WriteOptions& options) {
    const BlockPlacement automatic = default_tile(header.rows, header.cols, type);
    BlockPlacement tile = automatic;
    if (options.block_rows != 0) tile.rows = options.block_rows;
    if (options.block_cols != 0) tile.cols = options.block_cols;
    return tile;
}

// Calls add(placement) for each tile in row-major tile order (rule 3).
template <class AddTile>
void for_each_tile(std::uint64_t rows, std::uint64_t cols, const BlockPlacement& tile, AddTile&& add) {
    if (rows == 0 || cols == 0) return;  // rule 4: no blocks
    for (std::uint64_t row = 0; row < rows; row += tile.rows) {
        for (std::uint64_t col = 0; col < cols; col += tile.cols) {
            add(BlockPlacement{row, col, static_cast<std::uint32_t>(std::min<std::uint64_t>(tile.rows, rows - row)),
                               static_cast<std::uint32_t>(std::min<std::uint64_t>(tile.cols, cols - col))});
        }
    }
}

}  // namespace

void Writer::write_dense(ValueType type, const void* values, std::size_t count, std::uint64_t row_stride,
                         const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    const ObjectHeader& header = state_->header;
    if (header.data_type == DataType::Frame) invalid("write_dense writes matrices; use write_column for frames");
    if (state_->blocks_added != 0) {
        throw Error(ErrorCode::CallOrder, "write_dense writes the whole matrix and must come right after begin");
    }
    const std::uint64_t stride = row_stride == 0 ? header.cols : row_stride;
    if (stride < header.cols) invalid("row stride is smaller than the matrix's column count");
    const detail::WideCount needed =
        header.rows == 0 || header.cols == 0 ? 0 : static_cast<detail::WideCount>(header.rows - 1) * stride + header.cols;
    if (needed > count) invalid("the matrix needs more values than the " + std::to_string(count) + " passed");
    if (state_->daphne()) {
        if (header.rows == 0 || header.cols == 0) return;  // finish() writes the empty body
        add_dense(BlockPlacement{0, 0, static_cast<std::uint32_t>(header.rows), static_cast<std::uint32_t>(header.cols)},
                  type, values, count, stride, options);
        return;
    }
    require_valid_encoding(options.encoding);
    if (values == nullptr && needed > 0) invalid("values are NULL");
    std::vector<BlockPlacement> tiles;
    for_each_tile(header.rows, header.cols, tile_shape(header, type, options),
                  [&](const BlockPlacement& place) { tiles.push_back(place); });
    // Dense blocks of the wider of the given and the object's value type bound what the automatic encoding writes
    // (it never writes more than plain dense blocks) and are what a dense or as-given encoding writes; CSR and COO
    // of dense input can be larger, and get no hint.
    if (options.encoding == Encoding::Auto || options.encoding == Encoding::Dense ||
        options.encoding == Encoding::AsGiven) {
        const ValueType widest = value_size(type) >= value_size(header.value_type) ? type : header.value_type;
        std::uint64_t bound = 0;
        for (const BlockPlacement& place : tiles) bound += kBlockPositionBytes + dense_block_bytes(place.rows, place.cols, widest);
        state_->reserve_output(bound);
    }
    const std::uint64_t value_bytes = static_cast<std::uint64_t>(needed) * value_size(type);
    const unsigned threads = detail::encode_threads(state_->encode_threads, tiles.size(), value_bytes);
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        state_->write_dense_tiles<T>(tiles, static_cast<const T*>(values), stride, options.encoding, threads);
    });
}

void Writer::set_encode_threads(unsigned threads) { state_->encode_threads = threads; }
unsigned Writer::encode_threads() const { return state_->encode_threads; }

void Writer::write_csr(ValueType type, const std::uint64_t* row_offsets, const std::uint64_t* col_indices,
                       const void* values, std::uint64_t entries, const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    require_valid_encoding(options.encoding);
    const ObjectHeader& header = state_->header;
    if (header.data_type == DataType::Frame) invalid("write_csr writes matrices; use write_column for frames");
    if (state_->blocks_added != 0) {
        throw Error(ErrorCode::CallOrder, "write_csr writes the whole matrix and must come right after begin");
    }
    check_csr_arrays(header.rows, header.cols, row_offsets, col_indices, values, entries);
    if (state_->daphne()) {
        if (header.rows == 0 || header.cols == 0) return;  // finish() writes the empty body
        const BlockPlacement whole{0, 0, static_cast<std::uint32_t>(header.rows),
                                   static_cast<std::uint32_t>(header.cols)};
        state_->check_daphne_matrix_block(whole, options.encoding);
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            SparseSource<T> source;
            source.layout = SparseLayout::CsrWindow;
            source.rows = whole.rows;
            source.cols = whole.cols;
            source.values = static_cast<const T*>(values);
            source.cols64 = col_indices;
            source.row_offsets = row_offsets;
            source.col_limit = whole.cols;
            state_->add_daphne_matrix_body<T>(whole, source);
        });
        return;
    }
    const WriteOptions block_options = options;
    for_each_tile(header.rows, header.cols, tile_shape(header, type, options), [&](const BlockPlacement& place) {
        state_->check_placement(place);
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            SparseSource<T> source;
            source.layout = SparseLayout::CsrWindow;
            source.rows = place.rows;
            source.cols = place.cols;
            source.values = static_cast<const T*>(values);
            source.cols64 = col_indices;
            source.row_offsets = row_offsets;
            source.row_base = place.row;
            source.col_base = place.col;
            source.col_limit = place.col + place.cols;
            state_->add_block<T>(place, source, block_options.encoding, BlockType::Csr);
        });
    });
}

void Writer::write_column(std::uint64_t column, ValueType type, const void* values, std::size_t count,
                          const WriteOptions& options) {
    state_->require_phase_for_blocks();
    require_valid_input_type(type);
    const ObjectHeader& header = state_->header;
    if (column >= header.cols) {
        invalid("column " + std::to_string(column) + " does not exist; the object has " + std::to_string(header.cols));
    }
    if (count < header.rows) {
        invalid("column " + std::to_string(column) + " needs " + std::to_string(header.rows) + " values but " +
                std::to_string(count) + " were passed");
    }
    if (state_->daphne()) {
        if (header.data_type != DataType::Frame) {
            invalid("in the daphne dialect write_column writes frame columns; a matrix is one block (write_dense)");
        }
        if (header.rows == 0) return;
        if (values == nullptr) invalid("values are NULL");
        state_->set_daphne_column(column, type, values, 1);
        return;
    }
    const ValueType declared = header.type_of_column(column);
    const std::uint32_t block_rows =
        options.block_rows != 0 ? options.block_rows : default_tile(header.rows, 1, declared).rows;
    const auto* bytes = static_cast<const std::byte*>(values);
    const std::size_t value_bytes = value_size(type);
    for (std::uint64_t row = 0; row < header.rows; row += block_rows) {
        const BlockPlacement place{row, column,
                                   static_cast<std::uint32_t>(std::min<std::uint64_t>(block_rows, header.rows - row)),
                                   1};
        add_dense(place, type, bytes + row * value_bytes, count - row, 1, options);
    }
}

void Writer::finish() {
    State& s = *state_;
    if (s.phase != Phase::Begun) {
        s.require_phase_for_blocks();  // throws the right call-order error
    }
    if (s.daphne()) {
        s.finish_daphne_body();
        s.commit_daphne_outputs();
        s.phase = Phase::Finished;
        return;
    }
    if (!s.tracker.covers(s.header.rows, s.header.cols)) {
        const auto covered = s.tracker.covered_cells();
        throw Error(ErrorCode::Format,
                    "the blocks cover " + std::to_string(static_cast<std::uint64_t>(covered)) + " of the object's " +
                        std::to_string(static_cast<std::uint64_t>(static_cast<detail::WideCount>(s.header.rows) *
                                                                   s.header.cols)) +
                        " cells; add blocks for the rest before finishing (rule 1)",
                    1);
    }
    s.emitting([&] {
        s.out.flush();
        s.sink->commit();
    });
    s.phase = Phase::Finished;
}

bool Writer::begun() const { return state_->phase != Phase::Idle; }
bool Writer::finished() const { return state_->phase == Phase::Finished; }
bool Writer::failed() const { return state_->phase == Phase::Failed; }
std::uint64_t Writer::bytes_written() const { return state_->out.total(); }
ByteSink& Writer::sink() { return *state_->sink; }

}  // namespace dbdf
