// NULL for each required pointer of the C ABI: DBDF_ERR_INVALID_ARGUMENT, and a message naming the argument.
#include <cstdint>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

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
    expect_failures({
        {"column_type reader", [&] { return dbdf_reader_column_type(nullptr, 0, &type); }, kInvalid, "reader is NULL"},
        {"column_type out", [&] { return dbdf_reader_column_type(r, 0, nullptr); }, kInvalid, "out is NULL"},
        {"column_label reader", [&] { return dbdf_reader_column_label(nullptr, 0, &label, &length); }, kInvalid,
         "reader is NULL"},
        {"column_label out_label", [&] { return dbdf_reader_column_label(frame.get(), 0, nullptr, &length); },
         kInvalid, "out_label is NULL"},
        {"column_label out_length", [&] { return dbdf_reader_column_label(frame.get(), 0, &label, nullptr); },
         kInvalid, "out_length is NULL"},
        {"block_info reader", [&] { return dbdf_reader_block_info(nullptr, &info); }, kInvalid, "reader is NULL"},
        {"block_info out", [&] { return dbdf_reader_block_info(r, nullptr); }, kInvalid, "out is NULL"},
        {"decode_dense reader", [&] { return dbdf_reader_block_decode_dense(nullptr, DBDF_VALUE_F64, values, 4, 0); },
         kInvalid, "reader is NULL"},
        {"decode_dense out", [&] { return dbdf_reader_block_decode_dense(r, DBDF_VALUE_F64, nullptr, 4, 0); },
         kInvalid, "out is NULL"},
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
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, nullptr, cols, values, 4, &entries); },
         kInvalid, "row_indices is NULL"},
        {"decode_coo col_indices",
         [&] { return dbdf_reader_block_decode_coo(r, DBDF_VALUE_F64, rows, nullptr, values, 4, &entries); },
         kInvalid, "col_indices is NULL"},
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
        {"read_column reader", [&] { return dbdf_reader_read_column(nullptr, 0, DBDF_VALUE_F64, values, 4); },
         kInvalid, "reader is NULL"},
        {"read_column out", [&] { return dbdf_reader_read_column(r, 0, DBDF_VALUE_F64, nullptr, 4); }, kInvalid,
         "out is NULL"},
        {"read_csr col_indices",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, offsets, 5, nullptr, values, 12, &entries); }, kInvalid,
         "col_indices is NULL"},
        {"read_csr values",
         [&] { return dbdf_reader_read_csr(r, DBDF_VALUE_F64, offsets, 5, wide_cols, nullptr, 12, &entries); },
         kInvalid, "values is NULL"},
    });
}

TEST(CapiNullArguments, WriterBeginFunctions) {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_U8, DBDF_VALUE_F64};
    const char* labels[] = {"a", "b"};
    const char* missing_label[] = {"a", nullptr};
    expect_failures({
        {"begin_matrix writer", [&] { return dbdf_writer_begin_matrix(nullptr, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1); },
         kInvalid, "writer is NULL"},
        {"begin_frame writer", [&] { return dbdf_writer_begin_frame(nullptr, 1, 2, types, labels, nullptr); }, kInvalid,
         "writer is NULL"},
        {"begin_frame column_types", [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, nullptr, labels, nullptr); },
         kInvalid, "column_types is NULL"},
        {"begin_frame labels", [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, types, nullptr, nullptr); },
         kInvalid, "labels is NULL"},
        {"begin_frame labels[1]",
         [&] { return dbdf_writer_begin_frame(writer.get(), 1, 2, types, missing_label, nullptr); }, kInvalid,
         "label 1 is NULL"},
    });
    // None of the refused calls began the object.
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
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
    expect_failures({
        {"add_csr writer",
         [&] { return dbdf_writer_add_csr(nullptr, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, block_cols, values, 1, nullptr); },
         kInvalid, "writer is NULL"},
        {"add_csr row_offsets",
         [&] { return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, nullptr, block_cols, values, 1, nullptr); },
         kInvalid, "row_offsets is NULL"},
        {"add_csr col_indices",
         [&] { return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, nullptr, values, 1, nullptr); },
         kInvalid, "col_indices is NULL"},
        {"add_csr values",
         [&] { return dbdf_writer_add_csr(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_offsets, block_cols, nullptr, 1, nullptr); },
         kInvalid, "values is NULL"},
        {"add_coo writer",
         [&] { return dbdf_writer_add_coo(nullptr, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, block_cols, values, 1, nullptr); },
         kInvalid, "writer is NULL"},
        {"add_coo row_indices",
         [&] { return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, nullptr, block_cols, values, 1, nullptr); },
         kInvalid, "row_indices is NULL"},
        {"add_coo col_indices",
         [&] { return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, nullptr, values, 1, nullptr); },
         kInvalid, "col_indices is NULL"},
        {"add_coo values",
         [&] { return dbdf_writer_add_coo(w, 0, 0, 2, 3, DBDF_VALUE_F64, block_rows, block_cols, nullptr, 1, nullptr); },
         kInvalid, "values is NULL"},
        {"write_csr writer",
         [&] { return dbdf_writer_write_csr(nullptr, DBDF_VALUE_F64, object_offsets, object_cols, values, 1, nullptr); },
         kInvalid, "writer is NULL"},
        {"write_csr row_offsets",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, nullptr, object_cols, values, 1, nullptr); }, kInvalid,
         "row_offsets is NULL"},
        {"write_csr col_indices",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, object_offsets, nullptr, values, 1, nullptr); }, kInvalid,
         "col_indices is NULL"},
        {"write_csr values",
         [&] { return dbdf_writer_write_csr(w, DBDF_VALUE_F64, object_offsets, object_cols, nullptr, 1, nullptr); },
         kInvalid, "values is NULL"},
        {"add_empty writer", [&] { return dbdf_writer_add_empty(nullptr, 0, 0, 2, 3); }, kInvalid, "writer is NULL"},
        {"finish writer", [&] { return dbdf_writer_finish(nullptr); }, kInvalid, "writer is NULL"},
    });
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
