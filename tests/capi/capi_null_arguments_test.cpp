// NULL for each required pointer of the C ABI: DBDF_ERR_INVALID_ARGUMENT, and a message naming the argument.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

namespace fs = std::filesystem;

// A finished frame with one u8 column labelled "a" and no rows.
std::vector<std::uint8_t> sample_frame() {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_U8};
    const char* labels[] = {"a"};
    EXPECT_EQ(dbdf_writer_begin_frame(writer.get(), 0, 1, types, labels, nullptr), DBDF_OK);
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK);
    return finished_bytes(writer.get());
}

constexpr dbdf_status_t kInvalid = DBDF_ERR_INVALID_ARGUMENT;

TEST(CapiNullArguments, ReaderFunctions) {
    const auto matrix_bytes = sample_matrix(DBDF_ENCODING_DENSE);
    ReaderHandle matrix = memory_reader(matrix_bytes);
    ASSERT_OK(dbdf_reader_next_block(matrix.get(), nullptr));  // a 2 x 2 dense block is current
    const auto frame_bytes = sample_frame();
    ReaderHandle frame = memory_reader(frame_bytes);
    dbdf_reader_t* r = matrix.get();
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    const char* label = nullptr;
    size_t length = 0;
    dbdf_block_info_t info{};
    double values[12];
    uint64_t offsets[5];
    uint32_t rows[4];
    uint32_t cols[4];
    uint64_t wide_cols[12];
    uint64_t entries = 0;
    const void* payload = nullptr;
    expect_failures({
        {"column_type reader", [&] { return dbdf_reader_column_type(nullptr, 0, &type); }, kInvalid, "reader is NULL"},
        {"column_type out", [&] { return dbdf_reader_column_type(r, 0, nullptr); }, kInvalid, "out is NULL"},
        {"column_label reader", [&] { return dbdf_reader_column_label(nullptr, 0, &label, &length); }, kInvalid,
         "reader is NULL"},
        {"column_label out_label", [&] { return dbdf_reader_column_label(frame.get(), 0, nullptr, &length); }, kInvalid,
         "out_label is NULL"},
        {"column_label out_length", [&] { return dbdf_reader_column_label(frame.get(), 0, &label, nullptr); }, kInvalid,
         "out_length is NULL"},
        {"block_info reader", [&] { return dbdf_reader_block_info(nullptr, &info); }, kInvalid, "reader is NULL"},
        {"block_info out", [&] { return dbdf_reader_block_info(r, nullptr); }, kInvalid, "out is NULL"},
        {"decode_dense reader", [&] { return dbdf_reader_block_decode_dense(nullptr, DBDF_VALUE_F64, values, 4, 0); },
         kInvalid, "reader is NULL"},
        {"decode_dense out", [&] { return dbdf_reader_block_decode_dense(r, DBDF_VALUE_F64, nullptr, 4, 0); }, kInvalid,
         "out is NULL"},
        {"decode_csr reader",
         [&] { return dbdf_reader_block_decode_csr(nullptr, DBDF_VALUE_F64, offsets, 3, cols, values, 4, &entries); },
         kInvalid, "reader is NULL"},
        {"decode_csr row_offsets",
         [&] { return dbdf_reader_block_decode_csr(r, DBDF_VALUE_F64, nullptr, 3, cols, values, 4, &entries); },
         kInvalid, "row_offsets is NULL"},
        {"decode_csr col_indices",
         [&] { return dbdf_reader_block_decode_csr(r, DBDF_VALUE_F64, offsets, 3, nullptr, values, 4, &entries); },
         kInvalid, "col_indices is NULL"},
        {"decode_csr values",
         [&] { return dbdf_reader_block_decode_csr(r, DBDF_VALUE_F64, offsets, 3, cols, nullptr, 4, &entries); },
         kInvalid, "values is NULL"},
        {"decode_csr out_entries",
         [&] { return dbdf_reader_block_decode_csr(r, DBDF_VALUE_F64, offsets, 3, cols, values, 4, nullptr); },
         kInvalid, "out_entries is NULL"},
        {"decode_coo reader",
         [&] { return dbdf_reader_block_decode_coo(nullptr, DBDF_VALUE_F64, rows, cols, values, 4, &entries); },
         kInvalid, "reader is NULL"},
        {"decode_coo row_indices",
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, nullptr, cols, values, 4, &entries); }, kInvalid,
         "row_indices is NULL"},
        {"decode_coo col_indices",
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, rows, nullptr, values, 4, &entries); }, kInvalid,
         "col_indices is NULL"},
        {"decode_coo values",
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, rows, cols, nullptr, 4, &entries); }, kInvalid,
         "values is NULL"},
        {"decode_coo out_entries",
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, rows, cols, values, 4, nullptr); }, kInvalid,
         "out_entries is NULL"},
        {"index_entry reader", [&] { return dbdf_reader_index_entry(nullptr, 0, &info); }, kInvalid, "reader is NULL"},
        {"index_entry out", [&] { return dbdf_reader_index_entry(r, 0, nullptr); }, kInvalid, "out is NULL"},
        {"read_dense_window reader",
         [&] { return dbdf_reader_read_dense_window(nullptr, DBDF_VALUE_F64, 0, 0, 4, 3, values, 12, 0); }, kInvalid,
         "reader is NULL"},
        {"read_dense_window out",
         [&] { return dbdf_reader_read_dense_window(r, DBDF_VALUE_F64, 0, 0, 4, 3, nullptr, 12, 0); }, kInvalid,
         "out is NULL"},
        {"read_column reader", [&] { return dbdf_reader_read_column(nullptr, 0, DBDF_VALUE_F64, values, 4); }, kInvalid,
         "reader is NULL"},
        {"read_column out", [&] { return dbdf_reader_read_column(r, 0, DBDF_VALUE_F64, nullptr, 4); }, kInvalid,
         "out is NULL"},
        {"read_csr col_indices",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, offsets, 5, nullptr, values, 12, &entries); }, kInvalid,
         "col_indices is NULL"},
        {"read_csr values",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, offsets, 5, wide_cols, nullptr, 12, &entries); },
         kInvalid, "values is NULL"},
        {"read_csr reader",
         [&] { return dbdf_reader_read_csr(nullptr, DBDF_VALUE_F64, offsets, 5, wide_cols, values, 12, &entries); },
         kInvalid, "reader is NULL"},
        {"read_csr row_offsets",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, nullptr, 5, wide_cols, values, 12, &entries); }, kInvalid,
         "row_offsets is NULL"},
        {"read_csr out_entries",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, offsets, 5, wide_cols, values, 12, nullptr); }, kInvalid,
         "out_entries is NULL"},
        {"block_payload reader", [&] { return dbdf_reader_block_payload(nullptr, &payload, &length); }, kInvalid,
         "reader is NULL"},
        {"block_payload out_data", [&] { return dbdf_reader_block_payload(r, nullptr, &length); }, kInvalid,
         "out_data is NULL"},
        {"block_payload out_nbytes", [&] { return dbdf_reader_block_payload(r, &payload, nullptr); }, kInvalid,
         "out_nbytes is NULL"},
        {"block_count_entries reader", [&] { return dbdf_reader_block_count_entries(nullptr, &entries); }, kInvalid,
         "reader is NULL"},
        {"count_entries reader", [&] { return dbdf_reader_count_entries(nullptr, &entries); }, kInvalid,
         "reader is NULL"},
        {"read_dense reader", [&] { return dbdf_reader_read_dense(nullptr, DBDF_VALUE_F64, values, 12, 0); }, kInvalid,
         "reader is NULL"},
    });
    // The refused calls reported nothing through their out-parameters.
    EXPECT_EQ(entries, 0u);
    EXPECT_EQ(payload, nullptr);
    EXPECT_EQ(length, 0u);
}

TEST(CapiNullArguments, OpeningFunctionsOneArgumentAtATime) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf_capi_null_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory);
    const std::string path = (directory / "never.dbdf").string();
    int marker = 0;
    dbdf_writer_t* const untouched = reinterpret_cast<dbdf_writer_t*>(&marker);
    dbdf_writer_t* out = untouched;
    const dbdf_write_fn write = [](void*, const void*, size_t) { return 0; };
    dbdf_value_type_t parsed = DBDF_VALUE_NONE;
    expect_failures({
        {"writer_open_file path", [&] { return dbdf_writer_open_file(nullptr, &out); }, kInvalid, "path is NULL"},
        {"writer_open_file out", [&] { return dbdf_writer_open_file(path.c_str(), nullptr); }, kInvalid, "out is NULL"},
        {"writer_open_callback write", [&] { return dbdf_writer_open_callback(nullptr, nullptr, &out); }, kInvalid,
         "write is NULL"},
        {"writer_open_callback out", [&] { return dbdf_writer_open_callback(write, nullptr, nullptr); }, kInvalid,
         "out is NULL"},
        {"value_type_from_name out", [&] { return dbdf_value_type_from_name("f64", nullptr); }, kInvalid,
         "out is NULL"},
        {"value_type_from_name name", [&] { return dbdf_value_type_from_name(nullptr, &parsed); }, kInvalid,
         "name is NULL"},
    });
    EXPECT_EQ(out, untouched);
    EXPECT_EQ(parsed, DBDF_VALUE_NONE);
    // A file writer refused for its missing `out` created no temporary file.
    EXPECT_TRUE(fs::is_empty(directory));
    fs::remove_all(directory);
}

TEST(CapiNullArguments, WriterBeginFunctions) {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_U8, DBDF_VALUE_F64};
    const char* labels[] = {"a", "b"};
    const char* missing_label[] = {"a", nullptr};
    expect_failures({
        {"begin_matrix writer",
         [&] { return dbdf_writer_begin_matrix(nullptr, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1); }, kInvalid,
         "writer is NULL"},
        {"begin_frame writer", [&] { return dbdf_writer_begin_frame(nullptr, 1, 2, types, labels, nullptr); }, kInvalid,
         "writer is NULL"},
        {"begin_frame column_types",
         [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, nullptr, labels, nullptr); }, kInvalid,
         "column_types is NULL"},
        {"begin_frame labels", [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, types, nullptr, nullptr); },
         kInvalid, "labels is NULL"},
        {"begin_frame labels[1]",
         [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, types, missing_label, nullptr); }, kInvalid,
         "label 1 is NULL"},
    });
    // None of the refused calls began the object.
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
}

TEST(CapiNullArguments, WriteColumnFunction) {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I32};
    const char* labels[] = {"a"};
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 2, 1, types, labels, nullptr));
    const int32_t column[] = {4, -5};
    expect_failures({
        {"write_column writer",
         [&] { return dbdf_writer_write_column(nullptr, 0, DBDF_VALUE_I32, column, 2, nullptr); }, kInvalid,
         "writer is NULL"},
        {"write_column values",
         [&] { return dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I32, nullptr, 2, nullptr); }, kInvalid,
         "values is NULL"},
    });
    // The refused calls wrote nothing: the column can still be written once and the frame completes.
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I32, column, 2, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    int32_t read_back[2] = {0, 0};
    ASSERT_OK(dbdf_reader_read_column(reader.get(), 0, DBDF_VALUE_I32, read_back, 2));
    EXPECT_EQ(read_back[0], 4);
    EXPECT_EQ(read_back[1], -5);
}

TEST(CapiNullArguments, WriterBlockAndFinishFunctions) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 2, 3));
    dbdf_writer_t* w = writer.get();
    const uint64_t block_offsets[] = {0, 1, 1};
    const uint64_t object_offsets[] = {0, 1, 1};
    const uint32_t block_cols[] = {2};
    const uint64_t object_cols[] = {2};
    const uint32_t block_rows[] = {0};
    const double values[] = {1.5};
    const double dense_values[] = {0, 1.5, 0, 0, 0, 0};
    uint64_t written = 77;
    expect_failures({
        {"add_csr writer",
         [&] {
             return dbdf_writer_add_csr(nullptr, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, block_cols, values, 1,
                                        nullptr);
         },
         kInvalid, "writer is NULL"},
        {"add_csr row_offsets",
         [&] { return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, nullptr, block_cols, values, 1, nullptr); },
         kInvalid, "row_offsets is NULL"},
        {"add_csr col_indices",
         [&] { return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, nullptr, values, 1, nullptr); },
         kInvalid, "col_indices is NULL"},
        {"add_csr values",
         [&] {
             return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, block_cols, nullptr, 1, nullptr);
         },
         kInvalid, "values is NULL"},
        {"add_coo writer",
         [&] {
             return dbdf_writer_add_coo(nullptr, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, block_cols, values, 1,
                                        nullptr);
         },
         kInvalid, "writer is NULL"},
        {"add_coo row_indices",
         [&] { return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, nullptr, block_cols, values, 1, nullptr); },
         kInvalid, "row_indices is NULL"},
        {"add_coo col_indices",
         [&] { return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, nullptr, values, 1, nullptr); },
         kInvalid, "col_indices is NULL"},
        {"add_coo values",
         [&] {
             return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, block_cols, nullptr, 1, nullptr);
         },
         kInvalid, "values is NULL"},
        {"write_csr writer",
         [&] {
             return dbdf_writer_write_csr(nullptr, DBDF_VALUE_F64, object_offsets, object_cols, values, 1, nullptr);
         },
         kInvalid, "writer is NULL"},
        {"write_csr row_offsets",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, nullptr, object_cols, values, 1, nullptr); }, kInvalid,
         "row_offsets is NULL"},
        {"write_csr col_indices",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, object_offsets, nullptr, values, 1, nullptr); },
         kInvalid, "col_indices is NULL"},
        {"write_csr values",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, object_offsets, object_cols, nullptr, 1, nullptr); },
         kInvalid, "values is NULL"},
        {"add_empty writer", [&] { return dbdf_writer_add_empty(nullptr, 0, 0, 2, 3); }, kInvalid, "writer is NULL"},
        {"add_dense values",
         [&] { return dbdf_writer_add_dense(w, 0, 0, 1, 1, DBDF_VALUE_F64, nullptr, 1, 0, nullptr); }, kInvalid,
         "values are NULL"},
        {"write_dense writer",
         [&] { return dbdf_writer_write_dense(nullptr, DBDF_VALUE_F64, dense_values, 6, 0, nullptr); }, kInvalid,
         "writer is NULL"},
        {"write_dense values", [&] { return dbdf_writer_write_dense(w, DBDF_VALUE_F64, nullptr, 6, 0, nullptr); },
         kInvalid, "values is NULL"},
        {"finish writer", [&] { return dbdf_writer_finish(nullptr); }, kInvalid, "writer is NULL"},
        {"bytes_written writer", [&] { return dbdf_writer_bytes_written(nullptr, &written); }, kInvalid,
         "writer is NULL"},
        {"bytes_written out", [&] { return dbdf_writer_bytes_written(w, nullptr); }, kInvalid, "out is NULL"},
    });
    EXPECT_EQ(written, 77u);  // untouched by the refused calls
    // The refused calls added nothing: the whole-matrix helper is still allowed and the object completes.
    ASSERT_OK(dbdf_writer_write_csr(w, DBDF_VALUE_F64, object_offsets, object_cols, values, 1, nullptr));
    ASSERT_OK(dbdf_writer_finish(w));
}

TEST(CapiNullArguments, MemoryOutputFunctions) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 0, 0));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const void* data = nullptr;
    size_t size = 0;
    std::uint8_t copy[64];
    expect_failures({
        {"memory writer", [&] { return dbdf_writer_memory(nullptr, &data, &size); }, kInvalid, "writer is NULL"},
        {"memory out_data", [&] { return dbdf_writer_memory(writer.get(), nullptr, &size); }, kInvalid,
         "out_data is NULL"},
        {"memory out_nbytes", [&] { return dbdf_writer_memory(writer.get(), &data, nullptr); }, kInvalid,
         "out_nbytes is NULL"},
        {"copy_memory writer", [&] { return dbdf_writer_copy_memory(nullptr, copy, sizeof copy, &size); }, kInvalid,
         "writer is NULL"},
        {"copy_memory out_nbytes", [&] { return dbdf_writer_copy_memory(writer.get(), copy, sizeof copy, nullptr); },
         kInvalid, "out_nbytes is NULL"},
        {"copy_memory out", [&] { return dbdf_writer_copy_memory(writer.get(), nullptr, sizeof copy, &size); },
         kInvalid, "out is NULL"},
    });
    EXPECT_EQ(data, nullptr);  // the failed calls left their out-parameters alone
}

}  // namespace
}  // namespace dbdf_test
