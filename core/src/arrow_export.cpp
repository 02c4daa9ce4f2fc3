// The stream of Arrow's C stream interface over a reader: the schema from the header, one batch per row band (or per
// slice of one: arrow_batches.hpp).
#include <algorithm>
#include <cerrno>
#include <new>
#include <optional>
#include <string>

#include "arrow_bands.hpp"
#include "arrow_batches.hpp"
#include "arrow_csr_entries.hpp"
#include "arrow_nodes.hpp"
#include "dbdf/arrow.hpp"
#include "dbdf/error.hpp"

namespace dbdf {

namespace {

using detail::SchemaField;

struct StreamState {
    std::shared_ptr<Reader> reader;
    ArrowExportOptions options;
    std::optional<std::vector<BlockView>> index;  // built by the first get_next
    std::vector<detail::RowBand> bands;
    std::size_t next_band = 0;
    std::uint64_t next_row = 0;      // where the next batch starts, inside bands[next_band] (not a CSR matrix's)
    detail::CsrBatches csr_batches;  // a CSR matrix's position inside bands[next_band]
    std::string last_error;
    // Buffers of released batches for the next ones; batches hold it weakly, so it goes with the stream.
    std::shared_ptr<detail::BufferPool> pool = std::make_shared<detail::BufferPool>();
};

StreamState& state_of(ArrowArrayStream* stream) { return *static_cast<StreamState*>(stream->private_data); }

std::vector<SchemaField> schema_fields(const ObjectHeader& header, const ArrowExportOptions& options) {
    std::vector<SchemaField> fields;
    if (header.data_type == DataType::Frame) {
        for (std::uint64_t column = 0; column < header.cols; ++column) {
            fields.push_back({arrow_format(header.column_types[column]), header.labels[column], {}});
        }
    } else if (header.data_type == DataType::CsrMatrix && options.sparse_layout == ArrowSparseLayout::Arrays) {
        const char* index_format = arrow_format(ValueType::U64);
        const auto large_list = [](const char* item_format, const char* name) {
            return SchemaField{"+L", name, {{item_format, "item", {}}}};
        };
        fields = {{index_format, "row_begin", {}},
                  large_list(index_format, "row_offsets"),
                  large_list(index_format, "col"),
                  large_list(arrow_format(header.value_type), "value")};
    } else if (header.data_type == DataType::CsrMatrix) {
        const char* index_format = arrow_format(ValueType::U64);
        fields = {{index_format, "row", {}}, {index_format, "col", {}}, {arrow_format(header.value_type), "value", {}}};
    } else if (options.dense_layout == ArrowMatrixLayout::FixedSizeList) {
        SchemaField item{arrow_format(header.value_type), "item", {}};
        fields.push_back({"+w:" + std::to_string(header.cols), "values", {item}});
    } else {
        for (std::uint64_t column = 0; column < header.cols; ++column) {
            fields.push_back({arrow_format(header.value_type), "c" + std::to_string(column), {}});
        }
    }
    return fields;
}

// Runs a callback body for the consumer: a failure becomes an errno value and the stream's last error.
template <class Body>
int reported(ArrowArrayStream* stream, Body&& body) noexcept {
    StreamState& state = state_of(stream);
    try {
        state.last_error.clear();
        body(state);
        return 0;
    } catch (const Error& error) {
        state.last_error = error.what();
        return error.code() == ErrorCode::Io ? EIO : error.code() == ErrorCode::NoMemory ? ENOMEM : EINVAL;
    } catch (const std::bad_alloc&) {
        state.last_error = "out of memory";
        return ENOMEM;
    } catch (const std::exception& error) {
        state.last_error = std::string("internal error: ") + error.what();
        return EIO;
    } catch (...) {
        return EIO;
    }
}

int get_schema(ArrowArrayStream* stream, ArrowSchema* out) {
    return reported(stream, [&](StreamState& state) {
        detail::make_struct_schema(schema_fields(state.reader->header(), state.options), out);
    });
}

int get_next(ArrowArrayStream* stream, ArrowArray* out) {
    return reported(stream, [&](StreamState& state) {
        if (!state.index) {
            state.index = state.reader->build_index();
            state.bands = detail::row_bands(*state.index);
            // An object of rows and no columns has no blocks, so no band; its rows still reach the consumer, as
            // batches of no columns (a CSR table has a row per stored entry, so none).
            const ObjectHeader& header = state.reader->header();
            if (state.bands.empty() && header.rows > 0 && header.cols == 0 && header.data_type != DataType::CsrMatrix) {
                state.bands.push_back(detail::RowBand{0, header.rows, {}});
            }
        }
        if (state.next_band == state.bands.size()) {
            *out = ArrowArray{};  // the end: a released array
            return;
        }
        const detail::RowBand& band = state.bands[state.next_band];
        auto storage = std::make_shared<detail::BatchStorage>(state.pool);
        storage->keep_alive.push_back(state.options.keep_alive);
        const detail::BatchSource source{*state.reader, *state.index, state.options};
        std::vector<detail::ColumnArray> columns;
        bool band_done = false;
        std::uint64_t rows = 0;
        if (state.reader->header().data_type == DataType::CsrMatrix) {
            columns = state.csr_batches.next(source, band, *storage, band_done);
        } else {
            const detail::RowBand slice =
                detail::band_slice(band, *state.index, std::max(state.next_row, band.row_begin),
                                   detail::max_batch_rows(state.reader->header(), state.options));
            columns = detail::band_columns(source, slice, *storage);
            rows = slice.rows();
            band_done = slice.row_end == band.row_end;
            state.next_row = band_done ? 0 : slice.row_end;
        }
        state.pool->note_batch(storage->owned_bytes());
        // A batch that points into the reader's memory keeps the reader.
        if (state.options.zero_copy) storage->keep_alive.push_back(state.reader);
        // A batch has as many rows as its columns: the slice's rows, for CSR triplets the entries, for CSR arrays one.
        const std::int64_t length = columns.empty() ? static_cast<std::int64_t>(rows) : columns.front().length;
        detail::make_struct_array(std::move(storage), length, columns, out);
        if (band_done) ++state.next_band;
    });
}

const char* get_last_error(ArrowArrayStream* stream) {
    const std::string& message = state_of(stream).last_error;
    return message.empty() ? nullptr : message.c_str();
}

void release(ArrowArrayStream* stream) {
    delete static_cast<StreamState*>(stream->private_data);
    stream->release = nullptr;
}

}  // namespace

void export_arrow_stream(std::shared_ptr<Reader> reader, ArrowExportOptions options, ArrowArrayStream* out) {
    const ObjectHeader& header = reader->header();
    if (header.data_type != DataType::CsrMatrix && header.cols > detail::kMaxArrowColumns) {
        throw Error(ErrorCode::Unsupported,
                    "an Arrow stream holds at most " + std::to_string(detail::kMaxArrowColumns) +
                        " columns (one schema field or list item each, and one row within a batch); this object has " +
                        std::to_string(header.cols));
    }
    const bool field_per_column =
        header.data_type == DataType::Frame ||
        (header.data_type == DataType::DenseMatrix && options.dense_layout == ArrowMatrixLayout::Columns);
    if (field_per_column && header.cols > detail::kMaxArrowFields) {
        const bool matrix = header.data_type == DataType::DenseMatrix;
        throw Error(ErrorCode::Unsupported,
                    "an Arrow stream holds at most " + std::to_string(detail::kMaxArrowFields) +
                        " columns as fields of their own (each costs a schema field and a child array in every "
                        "batch); this " +
                        (matrix ? "matrix" : "frame") + " has " + std::to_string(header.cols) +
                        (matrix ? ": export it as one fixed-size list per row (dense_as_list)" : ""));
    }
    auto state = std::make_unique<StreamState>();
    state->reader = std::move(reader);
    state->options = std::move(options);
    *out = ArrowArrayStream{};
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = state.release();
}

}  // namespace dbdf
