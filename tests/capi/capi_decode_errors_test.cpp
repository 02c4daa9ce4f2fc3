// Decoding failures that leave the reader usable: output buffers too small (nothing is written to them) and
// values that do not fit the requested type (DBDF_ERR_RANGE from each per-block decoder).
#include <cstdint>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

constexpr uint32_t kIndexSentinel = 0xDEADBEEF;

// A 2 x 3 CSRMatrix of f64 holding one COO block as given: 2.5 at (0, 2) and -1 at (1, 0).
std::vector<std::uint8_t> coo_matrix() {
    WriterHandle writer = memory_writer();
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    const uint32_t rows[] = {0, 1};
    const uint32_t cols[] = {2, 0};
    const double values[] = {2.5, -1.0};
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 2, 3), DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_coo(writer.get(), 0, 0, 2, 3, DBDF_VALUE_F64, rows, cols, values, 2, &as_given), DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

TEST(CapiBufferTooSmall, BlockDecodeCooReportsTheEntryCountAndWritesNothing) {
    const auto bytes = coo_matrix();
    ReaderHandle reader = memory_reader(bytes);
    dbdf_block_info_t info{};
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
    ASSERT_EQ(info.block_type, DBDF_BLOCK_COO);
    std::vector<uint32_t> rows(2, kIndexSentinel), cols(2, kIndexSentinel);
    std::vector<double> values(2, -7.0);
    uint64_t entries = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_F64, rows.data(),
                                                                          cols.data(), values.data(), 1, &entries));
    EXPECT_EQ(entries, 2u);  // the capacity the arrays need
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("room for 2 entries but holds 1"), std::string::npos) << message;
    EXPECT_EQ(rows, std::vector<uint32_t>(2, kIndexSentinel));
    EXPECT_EQ(cols, std::vector<uint32_t>(2, kIndexSentinel));
    EXPECT_EQ(values, std::vector<double>(2, -7.0));
    // A zero capacity with NULL arrays asks for the count the same way.
    entries = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_F64, nullptr, nullptr, nullptr, 0, &entries));
    EXPECT_EQ(entries, 2u);
    // The block is still current and decodes with enough room.
    ASSERT_OK(dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_F64, rows.data(), cols.data(), values.data(), 2,
                                           &entries));
    EXPECT_EQ(rows, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(cols, (std::vector<uint32_t>{2, 0}));
    EXPECT_EQ(values, (std::vector<double>{2.5, -1.0}));
}

TEST(CapiBufferTooSmall, ReadDenseWindowWritesNothing) {
    const auto bytes = sample_matrix();  // 4 x 3, value 10 * row + col
    ReaderHandle reader = memory_reader(bytes);
    std::vector<int32_t> out(8, -1);
    // 2 x 2 at (1, 1): 4 values packed, or (2 - 1) * 5 + 2 = 7 with a row stride of 5.
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_read_dense_window(reader.get(), DBDF_VALUE_I32, 1, 1, 2, 2, out.data(), 3, 0));
    EXPECT_EQ(out, std::vector<int32_t>(8, -1));
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_read_dense_window(reader.get(), DBDF_VALUE_I32, 1, 1, 2, 2, out.data(), 6, 5));
    EXPECT_EQ(out, std::vector<int32_t>(8, -1));
    ASSERT_OK(dbdf_reader_read_dense_window(reader.get(), DBDF_VALUE_I32, 1, 1, 2, 2, out.data(), 7, 5));
    EXPECT_EQ(out, (std::vector<int32_t>{11, 12, -1, -1, -1, 21, 22, -1}));  // cells between rows untouched
}

TEST(CapiBufferTooSmall, ReadColumnWritesNothing) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    std::vector<int64_t> column(4, -1);
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL,
                  dbdf_reader_read_column(reader.get(), 1, DBDF_VALUE_I64, column.data(), 3));
    EXPECT_EQ(column, std::vector<int64_t>(4, -1));
    ASSERT_OK(dbdf_reader_read_column(reader.get(), 1, DBDF_VALUE_I64, column.data(), 4));
    EXPECT_EQ(column, (std::vector<int64_t>{1, 11, 21, 31}));
}

// A 3 x 2 DenseMatrix of f64, one 1 x 2 block per row stored as given: dense {300, 0.5}, CSR {300, 0.5} and
// COO {300, 0.5}. 300 has no exact u8 value, 0.5 neither an i32 nor a u8 one: each type fails at its own cell.
std::vector<std::uint8_t> one_block_of_each_type() {
    WriterHandle writer = memory_writer();
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    const double values[] = {300.0, 0.5};
    const uint64_t offsets[] = {0, 2};
    const uint32_t rows[] = {0, 0};
    const uint32_t cols[] = {0, 1};
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 3, 2), DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_dense(writer.get(), 0, 0, 1, 2, DBDF_VALUE_F64, values, 2, 0, &as_given), DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_csr(writer.get(), 1, 0, 1, 2, DBDF_VALUE_F64, offsets, cols, values, 2, &as_given),
              DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_coo(writer.get(), 2, 0, 1, 2, DBDF_VALUE_F64, rows, cols, values, 2, &as_given), DBDF_OK);
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

TEST(CapiRange, EveryPerBlockDecoderReportsValuesThatDoNotFitTheRequestedType) {
    const auto bytes = one_block_of_each_type();
    ReaderHandle reader = memory_reader(bytes);
    const dbdf_block_type_t types[] = {DBDF_BLOCK_DENSE, DBDF_BLOCK_CSR, DBDF_BLOCK_COO};
    for (const dbdf_block_type_t type : types) {
        SCOPED_TRACE(dbdf_block_type_name(type));
        dbdf_block_info_t info{};
        ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
        ASSERT_EQ(info.block_type, type);
        int32_t wide[2];
        uint8_t narrow[2];
        uint64_t offsets[2];
        uint32_t rows[2], cols[2];
        uint64_t entries = 0;
        // Each (decoder, type) pair names the value and the cell that does not fit.
        struct Case {
            const char* what;
            std::function<dbdf_status_t()> decode;
            const char* names;
        };
        const std::vector<Case> cases = {
            {"dense i32", [&] { return dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_I32, wide, 2, 0); },
             "value 0.5 at block cell (0, 1) is not exactly representable in the requested type i32"},
            {"dense u8", [&] { return dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_U8, narrow, 2, 0); },
             "value 300 at block cell (0, 0) is not exactly representable in the requested type u8"},
            {"csr i32",
             [&] {
                 return dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_I32, offsets, 2, cols, wide, 2, &entries);
             },
             "value 0.5 at block cell (0, 1) is not exactly representable in the requested type i32"},
            {"csr u8",
             [&] {
                 return dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_U8, offsets, 2, cols, narrow, 2,
                                                     &entries);
             },
             "value 300 at block cell (0, 0) is not exactly representable in the requested type u8"},
            {"coo i32",
             [&] { return dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_I32, rows, cols, wide, 2, &entries); },
             "value 0.5 at block cell (0, 1) is not exactly representable in the requested type i32"},
            {"coo u8",
             [&] { return dbdf_reader_block_decode_coo(reader.get(), DBDF_VALUE_U8, rows, cols, narrow, 2, &entries); },
             "value 300 at block cell (0, 0) is not exactly representable in the requested type u8"},
        };
        for (const Case& c : cases) {
            SCOPED_TRACE(c.what);
            entries = 99;
            const dbdf_status_t status = c.decode();
            const std::string message = dbdf_last_error_message();
            EXPECT_EQ(status, DBDF_ERR_RANGE) << dbdf_status_name(status) << ": " << message;
            EXPECT_NE(message.find("rule 8"), std::string::npos) << message;
            EXPECT_NE(message.find(c.names), std::string::npos) << message;
            EXPECT_EQ(entries, 99u);  // only success and "buffer too small" report a count
        }
        // The block stays current and decodes into a type that holds both values.
        float exact[2] = {0, 0};
        ASSERT_OK(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F32, exact, 2, 0));
        EXPECT_EQ(exact[0], 300.0f);
        EXPECT_EQ(exact[1], 0.5f);
        int16_t both[2] = {0, 0};
        EXPECT_STATUS(DBDF_ERR_RANGE, dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_I16, both, 2, 0));
    }
    EXPECT_EQ(dbdf_reader_next_block(reader.get(), nullptr), DBDF_END_OF_BLOCKS);
}

}  // namespace
}  // namespace dbdf_test
