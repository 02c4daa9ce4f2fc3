// Every reading function of dbdf.h: success paths, NULL arguments, call order, buffer sizes, statuses.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

TEST(CapiReader, ObjectInfoAndBlockIteration) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_DENSE);
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
    EXPECT_EQ(info.rows, 4u);
    EXPECT_EQ(info.cols, 3u);
    EXPECT_EQ(info.header_bytes, 19u);
    EXPECT_EQ(info.total_bytes, bytes.size());
    dbdf_value_type_t column_type = DBDF_VALUE_NONE;
    ASSERT_OK(dbdf_reader_column_type(reader.get(), 2, &column_type));
    EXPECT_EQ(column_type, DBDF_VALUE_F64);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_column_type(reader.get(), 3, &column_type));
    const char* label = nullptr;
    size_t length = 0;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_column_label(reader.get(), 0, &label, &length));

    dbdf_block_info_t block{};
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_reader_block_info(reader.get(), &block));
    std::vector<dbdf_block_info_t> blocks;
    dbdf_status_t status;
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        dbdf_block_info_t current{};
        ASSERT_OK(dbdf_reader_block_info(reader.get(), &current));
        EXPECT_EQ(current.offset, block.offset);
        blocks.push_back(block);
    }
    EXPECT_EQ(status, DBDF_END_OF_BLOCKS);
    EXPECT_STREQ(dbdf_last_error_message(), "");
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[3].row, 2u);
    EXPECT_EQ(blocks[3].col, 2u);
    EXPECT_EQ(blocks[3].rows, 2u);
    EXPECT_EQ(blocks[3].cols, 1u);
    EXPECT_EQ(blocks[0].index, 0u);
    EXPECT_EQ(blocks[0].offset, 19u);
    EXPECT_EQ(dbdf_reader_next_block(reader.get(), nullptr), DBDF_END_OF_BLOCKS);
    ASSERT_OK(dbdf_reader_rewind(reader.get()));
    EXPECT_EQ(dbdf_reader_next_block(reader.get(), nullptr), DBDF_OK);
}

TEST(CapiReader, DecodeCurrentBlockInEveryForm) {
    const auto bytes = sample_matrix(DBDF_ENCODING_DENSE);
    ReaderHandle reader = memory_reader(bytes);
    dbdf_block_info_t block{};
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &block));  // rows 0-1, cols 0-1: 0 1 / 10 11
    const void* payload = nullptr;
    size_t payload_bytes = 0;
    ASSERT_OK(dbdf_reader_block_payload(reader.get(), &payload, &payload_bytes));
    ASSERT_EQ(payload_bytes, 4 * sizeof(double));
    double raw[4];
    std::memcpy(raw, payload, sizeof raw);
    EXPECT_EQ(raw[3], 11.0);

    std::int16_t dense[2 * 5];
    std::fill(std::begin(dense), std::end(dense), std::int16_t{-1});
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_I16, dense, 6, 5));
    EXPECT_EQ(dense[0], -1);  // nothing written
    ASSERT_OK(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_I16, dense, 7, 5));
    EXPECT_EQ(dense[0], 0);
    EXPECT_EQ(dense[1], 1);
    EXPECT_EQ(dense[2], -1);
    EXPECT_EQ(dense[5], 10);
    EXPECT_EQ(dense[6], 11);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_I16, dense, 10, 1));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_block_decode_dense(reader.get(), static_cast<dbdf_value_type_t>(11), dense, 10, 0));

    uint64_t entries = 0;
    ASSERT_OK(dbdf_reader_block_count_entries(reader.get(), &entries));
    EXPECT_EQ(entries, 3u);  // the zero at (0, 0) is dropped (rule 14)
    std::vector<uint64_t> row_offsets(3);
    std::vector<uint32_t> cols(3);
    std::vector<std::uint8_t> values(3);
    uint64_t needed = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_U8, row_offsets.data(), 3, cols.data(),
                                               values.data(), 2, &needed));
    EXPECT_EQ(needed, 3u);
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_U8, row_offsets.data(), 2, cols.data(),
                                               values.data(), 3, &needed));
    ASSERT_OK(dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_U8, row_offsets.data(), 3, cols.data(),
                                           values.data(), 3, &needed));
    EXPECT_EQ(row_offsets, (std::vector<uint64_t>{0, 1, 3}));
    EXPECT_EQ(cols, (std::vector<uint32_t>{1, 0, 1}));
    EXPECT_EQ(values, (std::vector<std::uint8_t>{1, 10, 11}));

    std::vector<uint32_t> coo_rows(3), coo_cols(3);
    std::vector<float> coo_values(3);
    ASSERT_OK(dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_F32, coo_rows.data(), coo_cols.data(),
                                           coo_values.data(), 3, &needed));
    EXPECT_EQ(coo_rows, (std::vector<uint32_t>{0, 1, 1}));
    EXPECT_EQ(coo_values, (std::vector<float>{1, 10, 11}));
    std::vector<std::int8_t> tiny(3);
    // 11 fits i8; a conversion that does not fit would be DBDF_ERR_RANGE (tested with whole-object reads).
    ASSERT_OK(dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_I8, coo_rows.data(), coo_cols.data(), tiny.data(),
                                           3, &needed));
}

TEST(CapiReader, PayloadsAreBorrowedFromTheCallersMemory) {
    // A 2 x 3 f64 matrix: a 2 x 2 dense block of 1 2 / 3 4 as given, and an empty 2 x 1 block.
    WriterHandle writer = memory_writer();
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    const double values[] = {1, 2, 3, 4};
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 3));
    ASSERT_OK(dbdf_writer_add_dense(writer.get(), 0, 0, 2, 2, DBDF_VALUE_F64, values, 4, 0, &as_given));
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 0, 2, 2, 1));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);

    dbdf_block_info_t block{};
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &block));
    ASSERT_EQ(block.block_type, DBDF_BLOCK_DENSE);
    const void* payload = nullptr;
    size_t payload_bytes = 0;
    ASSERT_OK(dbdf_reader_block_payload(reader.get(), &payload, &payload_bytes));
    // Zero-copy: the payload is the dense values' place in the caller's buffer, after the 19-byte object header and
    // the 26-byte block record header (position, shape, block type, value type).
    ASSERT_EQ(payload_bytes, 4 * sizeof(double));
    EXPECT_EQ(static_cast<const std::uint8_t*>(payload), bytes.data() + 19 + 26);
    EXPECT_EQ(std::memcmp(payload, values, sizeof values), 0);

    ASSERT_OK(dbdf_reader_next_block(reader.get(), &block));
    ASSERT_EQ(block.block_type, DBDF_BLOCK_EMPTY);
    payload = nullptr;
    payload_bytes = 99;
    ASSERT_OK(dbdf_reader_block_payload(reader.get(), &payload, &payload_bytes));
    EXPECT_EQ(payload_bytes, 0u);
    EXPECT_NE(payload, nullptr);  // a valid pointer to zero bytes, as dbdf.h promises
}

TEST(CapiReader, FramesHaveNoSingleValueType) {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I16, DBDF_VALUE_F32, DBDF_VALUE_U64};
    const char* labels[] = {"small", "ratio", "count"};
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 2, 3, types, labels, nullptr));
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 0, 0, 2, 3));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    dbdf_object_info_t info{};
    info.value_type = DBDF_VALUE_F64;
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_FRAME);
    EXPECT_EQ(info.value_type, DBDF_VALUE_NONE);
    EXPECT_EQ(info.rows, 2u);
    EXPECT_EQ(info.cols, 3u);
    // Header: 18 bytes, one type byte per column, then each label's uint16 length and bytes.
    EXPECT_EQ(info.header_bytes, 18u + 3u + (2u + 5u) + (2u + 5u) + (2u + 5u));
    for (uint64_t column = 0; column < 3; ++column) {
        dbdf_value_type_t type = DBDF_VALUE_NONE;
        ASSERT_OK(dbdf_reader_column_type(reader.get(), column, &type));
        EXPECT_EQ(type, types[column]) << column;
        const char* label = nullptr;
        size_t length = 0;
        ASSERT_OK(dbdf_reader_column_label(reader.get(), column, &label, &length));
        EXPECT_EQ(std::string(label, length), labels[column]);
    }
    dbdf_value_type_t type = DBDF_VALUE_U8;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_column_type(reader.get(), 3, &type));
    EXPECT_EQ(type, DBDF_VALUE_U8);
}

TEST(CapiReader, WholeObjectReadsIndexAndSeek) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    std::vector<double> all(12);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, all.data(), all.size(), 0));
    for (int i = 0; i < 12; ++i) EXPECT_EQ(all[i], 10.0 * (i / 3) + (i % 3));
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, all.data(), 11, 0));
    std::vector<std::uint8_t> narrow(12);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_U8, narrow.data(), narrow.size(), 0));
    std::vector<std::int32_t> window(4);
    ASSERT_OK(dbdf_reader_read_dense_window(reader.get(), DBDF_VALUE_I32, 1, 1, 2, 2, window.data(), 4, 0));
    EXPECT_EQ(window, (std::vector<std::int32_t>{11, 12, 21, 22}));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_read_dense_window(reader.get(), DBDF_VALUE_I32, 3, 1, 2, 2, window.data(), 4, 0));
    std::vector<std::int64_t> column(4);
    ASSERT_OK(dbdf_reader_read_column(reader.get(), 2, DBDF_VALUE_I64, column.data(), column.size()));
    EXPECT_EQ(column, (std::vector<std::int64_t>{2, 12, 22, 32}));

    uint64_t entries = 0;
    ASSERT_OK(dbdf_reader_count_entries(reader.get(), &entries));
    EXPECT_EQ(entries, 11u);
    std::vector<uint64_t> row_offsets(5), cols(11);
    std::vector<double> values(11);
    ASSERT_OK(dbdf_reader_read_csr(reader.get(), DBDF_VALUE_F64, row_offsets.data(), 5, cols.data(), values.data(), 11,
                                   &entries));
    EXPECT_EQ(row_offsets, (std::vector<uint64_t>{0, 2, 5, 8, 11}));
    EXPECT_EQ(cols[0], 1u);
    EXPECT_EQ(values[10], 32.0);
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_read_csr(reader.get(), DBDF_VALUE_F64, row_offsets.data(), 5,
                                                                  cols.data(), values.data(), 10, &entries));
    EXPECT_EQ(entries, 11u);

    uint64_t blocks = 0;
    ASSERT_OK(dbdf_reader_build_index(reader.get(), &blocks));
    EXPECT_EQ(blocks, 4u);
    dbdf_block_info_t block{};
    ASSERT_OK(dbdf_reader_index_entry(reader.get(), 2, &block));
    EXPECT_EQ(block.row, 2u);
    EXPECT_EQ(block.col, 0u);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_index_entry(reader.get(), 4, &block));
    ASSERT_OK(dbdf_reader_seek_block(reader.get(), 3));
    ASSERT_OK(dbdf_reader_block_info(reader.get(), &block));
    EXPECT_EQ(block.index, 3u);
    EXPECT_EQ(dbdf_reader_next_block(reader.get(), nullptr), DBDF_END_OF_BLOCKS);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_seek_block(reader.get(), 4));
}

TEST(CapiReader, RangeErrorWhenValuesDoNotFitTheRequestedType) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    std::vector<std::int8_t> out(12);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_I8, out.data(), out.size(), 0));  // max 32 fits
    WriterHandle writer = memory_writer();
    const double half = 0.5;
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    ASSERT_OK(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, &half, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto fractional_bytes = finished_bytes(writer.get());
    ReaderHandle fractional = memory_reader(fractional_bytes);
    std::int32_t integer = 0;
    EXPECT_STATUS(DBDF_ERR_RANGE, dbdf_reader_read_dense(fractional.get(), DBDF_VALUE_I32, &integer, 1, 0));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("rule 8"), std::string::npos) << dbdf_last_error_message();
}

TEST(CapiReader, FormatErrorsNameRuleAndOffsetAndValidateReportsEach) {
    // 2 x 2 f64 matrix with one 1 x 2 empty block: row 1 uncovered (rule 1).
    std::vector<std::uint8_t> bytes = {1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 10};
    const std::uint8_t block[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0};
    bytes.insert(bytes.end(), std::begin(block), std::end(block));
    ReaderHandle reader = memory_reader(bytes);
    ASSERT_OK(dbdf_reader_next_block(reader.get(), nullptr));
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_reader_next_block(reader.get(), nullptr));
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("rule 1"), std::string::npos) << message;
    EXPECT_NE(message.find("byte 44"), std::string::npos) << message;

    struct Seen {
        int count = 0;
        int rule = -1;
        uint64_t offset = 0;
    } seen;
    uint64_t violations = 0;
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_reader_validate(
                                       reader.get(),
                                       [](void* context, int rule, uint64_t offset, const char* text) {
                                           auto* state = static_cast<Seen*>(context);
                                           ++state->count;
                                           state->rule = rule;
                                           state->offset = offset;
                                           EXPECT_NE(std::strlen(text), 0u);
                                       },
                                       &seen, &violations));
    EXPECT_EQ(violations, 1u);
    EXPECT_EQ(seen.count, 1);
    EXPECT_EQ(seen.rule, 1);
    EXPECT_EQ(seen.offset, 44u);
    const auto valid_bytes = sample_matrix();
    ReaderHandle valid = memory_reader(valid_bytes);
    ASSERT_OK(dbdf_reader_validate(valid.get(), nullptr, nullptr, &violations));
    EXPECT_EQ(violations, 0u);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_memory(bytes.data(), 12, nullptr));
    dbdf_reader_t* truncated = nullptr;
    EXPECT_STATUS(DBDF_ERR_TRUNCATED, dbdf_reader_open_memory(bytes.data(), 12, &truncated));
    EXPECT_EQ(truncated, nullptr);
}

TEST(CapiReader, NullArgumentsAreRejected) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    dbdf_reader_t* out = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_file(nullptr, &out));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_file("x", nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_memory(nullptr, 4, &out));
    EXPECT_STATUS(DBDF_ERR_TRUNCATED, dbdf_reader_open_memory(nullptr, 0, &out));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_object_info(nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_object_info(reader.get(), nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_next_block(nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_block_payload(reader.get(), nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_block_count_entries(reader.get(), nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_rewind(nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_build_index(nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_seek_block(nullptr, 0));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_count_entries(reader.get(), nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, nullptr, 12, 0));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_read_csr(reader.get(), DBDF_VALUE_F64, nullptr, 5, nullptr, nullptr, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_validate(nullptr, nullptr, nullptr, nullptr));
    dbdf_reader_free(nullptr);
}

TEST(CapiReader, FilesAreReadAndMissingFilesAreIoErrors) {
    const auto bytes = sample_matrix();
    const auto path = std::filesystem::temp_directory_path() / ("dbdf_capi_reader_" + std::to_string(::getpid()));
    {
        std::ofstream file(path, std::ios::binary);
        file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    dbdf_reader_t* raw = nullptr;
    ASSERT_OK(dbdf_reader_open_file(path.c_str(), &raw));
    ReaderHandle reader(raw);
    std::vector<double> all(12);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, all.data(), 12, 0));
    EXPECT_EQ(all[11], 32.0);
    std::filesystem::remove(path);
    dbdf_reader_t* missing = nullptr;
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_file(path.c_str(), &missing));
    EXPECT_NE(std::string(dbdf_last_error_message()).find(path.filename().string()), std::string::npos);
}

}  // namespace
}  // namespace dbdf_test
