// The writing half of dbdf.h over dbdf::Writer.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "call_guard.hpp"
#include "callback_errors.hpp"
#include "conversions.hpp"
#include "dbdf.h"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;
using dbdf::capi::to_value_type;
using dbdf::capi::to_write_options;

namespace {

dbdf::BlockPlacement placement(uint64_t row, uint64_t col, uint32_t rows, uint32_t cols) {
    return dbdf::BlockPlacement{row, col, rows, cols};
}

// DBDF_DATA_SCALAR passes through: the core accepts it in the daphne dialect and refuses it in the spec dialect.
dbdf::DataType to_matrix_data_type(dbdf_data_type_t data_type) {
    if (data_type != DBDF_DATA_DENSE && data_type != DBDF_DATA_CSR && data_type != DBDF_DATA_SCALAR) {
        throw invalid_argument(
            "begin_matrix needs DBDF_DATA_DENSE or DBDF_DATA_CSR (or DBDF_DATA_SCALAR in the "
            "daphne dialect), got " +
            std::to_string(static_cast<int>(data_type)));
    }
    return static_cast<dbdf::DataType>(data_type);
}

}  // namespace

extern "C" {

dbdf_status_t dbdf_writer_open_file(const char* path, dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        *out = new dbdf_writer{dbdf::Writer(dbdf::make_file_sink(path)), nullptr};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_open_memory(dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        auto sink = std::make_unique<dbdf::MemorySink>();
        dbdf::MemorySink* memory = sink.get();
        *out = new dbdf_writer{dbdf::Writer(std::move(sink)), memory};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_open_callback(dbdf_write_fn write, void* context, dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (write == nullptr) throw invalid_argument("write is NULL");
        auto sink = std::make_unique<dbdf::CallbackSink>(dbdf::capi::write_function(write, context));
        *out = new dbdf_writer{dbdf::Writer(std::move(sink)), nullptr};
        return DBDF_OK;
    });
}

void dbdf_writer_free(dbdf_writer_t* writer) { delete writer; }

dbdf_status_t dbdf_writer_begin_matrix(dbdf_writer_t* writer, dbdf_data_type_t data_type, dbdf_value_type_t value_type,
                                       uint64_t rows, uint64_t cols) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::DataType type = to_matrix_data_type(data_type);
        writer->writer.begin_matrix(type, to_value_type(value_type), rows, cols);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_begin_frame(dbdf_writer_t* writer, uint64_t rows, uint64_t cols,
                                      const dbdf_value_type_t* column_types, const char* const* labels,
                                      const size_t* label_lengths) {
    return guarded([&] {
        require_pointer(writer, "writer");
        if (cols > 0) {
            require_pointer(column_types, "column_types");
            require_pointer(labels, "labels");
        }
        std::vector<dbdf::ValueType> types;
        std::vector<std::string> label_texts;
        types.reserve(cols);
        label_texts.reserve(cols);
        for (uint64_t column = 0; column < cols; ++column) {
            types.push_back(to_value_type(column_types[column]));
            if (labels[column] == nullptr) throw invalid_argument("label " + std::to_string(column) + " is NULL");
            const size_t length = label_lengths != nullptr ? label_lengths[column] : std::strlen(labels[column]);
            label_texts.emplace_back(labels[column], length);
        }
        writer->writer.begin_frame(rows, std::move(types), std::move(label_texts));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_add_dense(dbdf_writer_t* writer, uint64_t row, uint64_t col, uint32_t rows, uint32_t cols,
                                    dbdf_value_type_t value_type, const void* values, size_t count, uint64_t row_stride,
                                    const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        writer->writer.add_dense(placement(row, col, rows, cols), type, values, count, row_stride,
                                 to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_add_csr(dbdf_writer_t* writer, uint64_t row, uint64_t col, uint32_t rows, uint32_t cols,
                                  dbdf_value_type_t value_type, const uint64_t* row_offsets,
                                  const uint32_t* col_indices, const void* values, uint64_t entries,
                                  const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        writer->writer.add_csr(placement(row, col, rows, cols), type, row_offsets, col_indices, values, entries,
                               to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_add_coo(dbdf_writer_t* writer, uint64_t row, uint64_t col, uint32_t rows, uint32_t cols,
                                  dbdf_value_type_t value_type, const uint32_t* row_indices,
                                  const uint32_t* col_indices, const void* values, uint64_t entries,
                                  const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        writer->writer.add_coo(placement(row, col, rows, cols), type, row_indices, col_indices, values, entries,
                               to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_add_empty(dbdf_writer_t* writer, uint64_t row, uint64_t col, uint32_t rows, uint32_t cols) {
    return guarded([&] {
        require_pointer(writer, "writer");
        writer->writer.add_empty(placement(row, col, rows, cols));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_write_dense(dbdf_writer_t* writer, dbdf_value_type_t value_type, const void* values,
                                      size_t count, uint64_t row_stride, const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        if (values == nullptr && count > 0) throw invalid_argument("values is NULL but count is not 0");
        writer->writer.write_dense(type, values, values == nullptr ? 0 : count, row_stride, to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_write_csr(dbdf_writer_t* writer, dbdf_value_type_t value_type, const uint64_t* row_offsets,
                                    const uint64_t* col_indices, const void* values, uint64_t entries,
                                    const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        writer->writer.write_csr(type, row_offsets, col_indices, values, entries, to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_write_column(dbdf_writer_t* writer, uint64_t column, dbdf_value_type_t value_type,
                                       const void* values, size_t count, const dbdf_write_options_t* options) {
    return guarded([&] {
        require_pointer(writer, "writer");
        const dbdf::ValueType type = to_value_type(value_type);
        if (values == nullptr && count > 0) throw invalid_argument("values is NULL but count is not 0");
        writer->writer.write_column(column, type, values, values == nullptr ? 0 : count, to_write_options(options));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_finish(dbdf_writer_t* writer) {
    return guarded([&] {
        require_pointer(writer, "writer");
        writer->writer.finish();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_bytes_written(const dbdf_writer_t* writer, uint64_t* out) {
    return guarded([&] {
        require_pointer(writer, "writer");
        require_pointer(out, "out");
        *out = writer->writer.bytes_written();
        return DBDF_OK;
    });
}

}  // extern "C": the helper below returns a C++ type, so it has C++ linkage

namespace {

const std::vector<std::byte>& finished_memory(const dbdf_writer_t* writer) {
    if (writer->memory == nullptr) {
        throw dbdf::Error(dbdf::ErrorCode::CallOrder, "this writer does not write to memory");
    }
    if (!writer->writer.finished()) {
        throw dbdf::Error(dbdf::ErrorCode::CallOrder, "the memory output is available after dbdf_writer_finish");
    }
    return writer->memory->bytes();
}

}  // namespace

extern "C" {

dbdf_status_t dbdf_writer_memory(const dbdf_writer_t* writer, const void** out_data, size_t* out_nbytes) {
    return guarded([&] {
        require_pointer(writer, "writer");
        require_pointer(out_data, "out_data");
        require_pointer(out_nbytes, "out_nbytes");
        const auto& bytes = finished_memory(writer);
        *out_data = bytes.data();
        *out_nbytes = bytes.size();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_copy_memory(const dbdf_writer_t* writer, void* out, size_t capacity, size_t* out_nbytes) {
    return guarded([&] {
        require_pointer(writer, "writer");
        require_pointer(out_nbytes, "out_nbytes");
        const auto& bytes = finished_memory(writer);
        *out_nbytes = bytes.size();
        if (bytes.size() > capacity) {
            throw dbdf::Error(dbdf::ErrorCode::BufferTooSmall, "the output holds " + std::to_string(bytes.size()) +
                                                                   " bytes; the buffer " + std::to_string(capacity));
        }
        if (!bytes.empty()) {
            require_pointer(out, "out");
            std::memcpy(out, bytes.data(), bytes.size());
        }
        return DBDF_OK;
    });
}

}  // extern "C"
