// The reading half of dbdf.h over dbdf::Reader.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "call_guard.hpp"
#include "conversions.hpp"
#include "dbdf.h"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_buffer;
using dbdf::capi::require_pointer;
using dbdf::capi::to_block_info;
using dbdf::capi::to_value_type;

namespace {

dbdf_status_t from_entries(std::uint64_t entries, std::size_t capacity, uint64_t* out_entries) {
    *out_entries = entries;
    if (entries > capacity) {
        throw dbdf::Error(dbdf::ErrorCode::BufferTooSmall, "the output needs room for " + std::to_string(entries) +
                                                               " entries but holds " + std::to_string(capacity));
    }
    return DBDF_OK;
}

// A row_offsets buffer too small for `rows` + 1 offsets. The entry count is reported too, so that one failed call
// tells the caller the size of every output buffer.
[[noreturn]] void throw_row_offsets_too_small(std::uint64_t rows, std::size_t row_offsets_capacity,
                                              std::uint64_t entries) {
    throw dbdf::Error(dbdf::ErrorCode::BufferTooSmall,
                      "row_offsets holds " + std::to_string(row_offsets_capacity) + " elements but needs " +
                          (rows == UINT64_MAX ? std::string("2^64") : std::to_string(rows + 1)) + " (rows + 1); " +
                          std::to_string(entries) + " entries need room in col_indices and values");
}

// Runs a reader call that may report "buffer too small" with the needed count in *out_entries: the count must
// stay visible to the caller even though the call fails.
template <class Body>
dbdf_status_t guarded_entries(uint64_t* out_entries, Body&& body) {
    std::uint64_t needed = 0;
    const dbdf_status_t status = guarded([&] { return body(needed); });
    if ((status == DBDF_OK || status == DBDF_ERR_BUFFER_TOO_SMALL) && out_entries != nullptr) *out_entries = needed;
    return status;
}

}  // namespace

extern "C" {

dbdf_status_t dbdf_reader_open_file(const char* path, dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        *out = new dbdf_reader{dbdf::Reader::open_file(path)};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_open_memory(const void* data, size_t nbytes, dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (data == nullptr && nbytes > 0) throw invalid_argument("data is NULL but nbytes is not 0");
        const std::span<const std::byte> input(static_cast<const std::byte*>(data), data == nullptr ? 0 : nbytes);
        *out = new dbdf_reader{dbdf::Reader::open_memory(input)};
        return DBDF_OK;
    });
}

void dbdf_reader_free(dbdf_reader_t* reader) { delete reader; }

dbdf_status_t dbdf_reader_object_info(const dbdf_reader_t* reader, dbdf_object_info_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        const dbdf::ObjectHeader& header = reader->reader.header();
        dbdf_object_info_t info{};
        info.data_type = static_cast<dbdf_data_type_t>(header.data_type);
        info.value_type = static_cast<dbdf_value_type_t>(header.value_type);
        info.rows = header.rows;
        info.cols = header.cols;
        info.header_bytes = reader->reader.header_bytes();
        info.total_bytes = reader->reader.total_bytes();
        *out = info;
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_column_type(const dbdf_reader_t* reader, uint64_t column, dbdf_value_type_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        const dbdf::ObjectHeader& header = reader->reader.header();
        if (column >= header.cols) {
            throw invalid_argument("column " + std::to_string(column) + " does not exist; the object has " +
                                   std::to_string(header.cols) + " columns");
        }
        *out = static_cast<dbdf_value_type_t>(header.type_of_column(column));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_column_label(const dbdf_reader_t* reader, uint64_t column, const char** out_label,
                                       size_t* out_length) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out_label, "out_label");
        require_pointer(out_length, "out_length");
        const dbdf::ObjectHeader& header = reader->reader.header();
        if (header.data_type != dbdf::DataType::Frame) throw invalid_argument("only frames have column labels");
        if (column >= header.cols) {
            throw invalid_argument("column " + std::to_string(column) + " does not exist; the frame has " +
                                   std::to_string(header.cols) + " columns");
        }
        // std::string keeps a NUL after its bytes, and the header lives as long as the reader.
        *out_label = header.labels[column].c_str();
        *out_length = header.labels[column].size();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_next_block(dbdf_reader_t* reader, dbdf_block_info_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        if (!reader->reader.next_block()) return DBDF_END_OF_BLOCKS;
        if (out != nullptr) *out = to_block_info(reader->reader.block());
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_info(const dbdf_reader_t* reader, dbdf_block_info_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        *out = to_block_info(reader->reader.block());
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_payload(const dbdf_reader_t* reader, const void** out_data, size_t* out_nbytes) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out_data, "out_data");
        require_pointer(out_nbytes, "out_nbytes");
        const std::span<const std::byte> payload = reader->reader.payload();
        // An empty span may carry a null pointer; callers get a valid one either way.
        static const std::byte kNothing{};
        *out_data = payload.empty() ? &kNothing : payload.data();
        *out_nbytes = payload.size();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_decode_dense(dbdf_reader_t* reader, dbdf_value_type_t value_type, void* out,
                                             size_t capacity, uint64_t row_stride) {
    return guarded([&] {
        require_pointer(reader, "reader");
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(out, "out", capacity);
        reader->reader.decode_dense(type, out, out == nullptr ? 0 : capacity, row_stride);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_count_entries(dbdf_reader_t* reader, uint64_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        *out = reader->reader.count_entries();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_decode_csr(dbdf_reader_t* reader, dbdf_value_type_t value_type, uint64_t* row_offsets,
                                           size_t row_offsets_capacity, uint32_t* col_indices, void* values,
                                           size_t capacity, uint64_t* out_entries) {
    return guarded_entries(out_entries, [&](std::uint64_t& needed) {
        require_pointer(reader, "reader");
        require_pointer(out_entries, "out_entries");
        require_pointer(row_offsets, "row_offsets");
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(col_indices, "col_indices", capacity);
        require_buffer(values, "values", capacity);
        const dbdf::BlockView& block = reader->reader.block();
        if (row_offsets_capacity <= block.rows) {
            needed = reader->reader.count_entries();
            throw_row_offsets_too_small(block.rows, row_offsets_capacity, needed);
        }
        needed = reader->reader.decode_csr(type, row_offsets, row_offsets_capacity, col_indices, values, capacity);
        return from_entries(needed, capacity, out_entries);
    });
}

dbdf_status_t dbdf_reader_block_decode_coo(dbdf_reader_t* reader, dbdf_value_type_t value_type, uint32_t* row_indices,
                                           uint32_t* col_indices, void* values, size_t capacity,
                                           uint64_t* out_entries) {
    return guarded_entries(out_entries, [&](std::uint64_t& needed) {
        require_pointer(reader, "reader");
        require_pointer(out_entries, "out_entries");
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(row_indices, "row_indices", capacity);
        require_buffer(col_indices, "col_indices", capacity);
        require_buffer(values, "values", capacity);
        needed = reader->reader.decode_coo(type, row_indices, col_indices, values, capacity);
        return from_entries(needed, capacity, out_entries);
    });
}

dbdf_status_t dbdf_reader_rewind(dbdf_reader_t* reader) {
    return guarded([&] {
        require_pointer(reader, "reader");
        reader->reader.rewind();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_build_index(dbdf_reader_t* reader, uint64_t* out_blocks) {
    return guarded([&] {
        require_pointer(reader, "reader");
        const auto& index = reader->reader.build_index();
        if (out_blocks != nullptr) *out_blocks = index.size();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_index_entry(dbdf_reader_t* reader, uint64_t index, dbdf_block_info_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        const auto& blocks = reader->reader.build_index();
        if (index >= blocks.size()) {
            throw invalid_argument("block " + std::to_string(index) + " does not exist; the object has " +
                                   std::to_string(blocks.size()) + " blocks");
        }
        *out = to_block_info(blocks[index]);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_seek_block(dbdf_reader_t* reader, uint64_t index) {
    return guarded([&] {
        require_pointer(reader, "reader");
        reader->reader.seek_block(index);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_read_dense_window(dbdf_reader_t* reader, dbdf_value_type_t value_type, uint64_t row,
                                            uint64_t col, uint64_t rows, uint64_t cols, void* out, size_t capacity,
                                            uint64_t row_stride) {
    return guarded([&] {
        require_pointer(reader, "reader");
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(out, "out", capacity);
        reader->reader.read_dense_window(type, dbdf::Window{row, col, rows, cols}, out, out == nullptr ? 0 : capacity,
                                         row_stride);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_read_dense(dbdf_reader_t* reader, dbdf_value_type_t value_type, void* out, size_t capacity,
                                     uint64_t row_stride) {
    if (reader == nullptr) return dbdf_reader_read_dense_window(nullptr, value_type, 0, 0, 0, 0, out, capacity, 0);
    const dbdf::ObjectHeader& header = reader->reader.header();
    return dbdf_reader_read_dense_window(reader, value_type, 0, 0, header.rows, header.cols, out, capacity, row_stride);
}

dbdf_status_t dbdf_reader_read_column(dbdf_reader_t* reader, uint64_t column, dbdf_value_type_t value_type, void* out,
                                      size_t capacity) {
    return guarded([&] {
        require_pointer(reader, "reader");
        const dbdf::ObjectHeader& header = reader->reader.header();
        if (column >= header.cols) {
            throw invalid_argument("column " + std::to_string(column) + " does not exist; the object has " +
                                   std::to_string(header.cols) + " columns");
        }
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(out, "out", capacity);
        reader->reader.read_dense_window(type, dbdf::Window{0, column, header.rows, 1}, out,
                                         out == nullptr ? 0 : capacity, 1);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_count_entries(dbdf_reader_t* reader, uint64_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        *out = reader->reader.count_entries_total();
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_read_csr(dbdf_reader_t* reader, dbdf_value_type_t value_type, uint64_t* row_offsets,
                                   size_t row_offsets_capacity, uint64_t* col_indices, void* values, size_t capacity,
                                   uint64_t* out_entries) {
    return guarded_entries(out_entries, [&](std::uint64_t& needed) {
        require_pointer(reader, "reader");
        require_pointer(out_entries, "out_entries");
        require_pointer(row_offsets, "row_offsets");
        const dbdf::ValueType type = to_value_type(value_type);
        require_buffer(col_indices, "col_indices", capacity);
        require_buffer(values, "values", capacity);
        const std::uint64_t rows = reader->reader.header().rows;
        if (row_offsets_capacity <= rows) {
            needed = reader->reader.count_entries_total();
            throw_row_offsets_too_small(rows, row_offsets_capacity, needed);
        }
        needed = reader->reader.read_csr(type, row_offsets, row_offsets_capacity, col_indices, values, capacity);
        return from_entries(needed, capacity, out_entries);
    });
}

dbdf_status_t dbdf_reader_validate(dbdf_reader_t* reader, dbdf_violation_fn on_violation, void* context,
                                   uint64_t* out_violations) {
    return guarded([&] {
        require_pointer(reader, "reader");
        std::optional<dbdf::Violation> first;
        dbdf::ErrorCode first_code = dbdf::ErrorCode::Format;
        const std::uint64_t violations = reader->reader.validate([&](const dbdf::Violation& violation) {
            if (!first) {
                first = violation;
                first_code = violation.code;
            }
            if (on_violation != nullptr) {
                on_violation(context, violation.rule, violation.offset, violation.message.c_str());
            }
        });
        if (out_violations != nullptr) *out_violations = violations;
        if (!first) return DBDF_OK;
        throw dbdf::Error(first_code, first->message, first->rule, first->offset);
    });
}

}  // extern "C"
