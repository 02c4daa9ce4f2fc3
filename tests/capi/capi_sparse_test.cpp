// Sparse data through the C ABI: malformed CSR input arrays, explicit zeros in CSR output (rule 14), and the entry
// count reported when an output buffer is too small.
#include <cstdint>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

// Row offsets {0, 5, 3} for 3 entries: row 0 claims entries 0..4, beyond the arrays. Refused before any column
// index is read (the arrays are heap-allocated so that AddressSanitizer sees a read past their end).
TEST(CapiSparse, RowOffsetsBeyondTheEntriesAreRefusedBeforeReadingColumns) {
    const std::vector<uint64_t> offsets{0, 5, 3};
    const std::vector<uint32_t> block_cols{0, 1, 2};
    const std::vector<uint64_t> object_cols{0, 1, 2};
    const std::vector<double> values{1.0, 2.0, 3.0};
    WriterHandle block_writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(block_writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 2, 4));
    WriterHandle matrix_writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(matrix_writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 2, 4));
    expect_failures({
        {"add_csr",
         [&] {
             return dbdf_writer_add_csr(block_writer.get(), 0, 0, 2, 4, DBDF_VALUE_F64, offsets.data(),
                                        block_cols.data(), values.data(), 3, nullptr);
         },
         DBDF_ERR_INVALID_ARGUMENT, "row_offsets[1] is 5"},
        {"write_csr",
         [&] {
             return dbdf_writer_write_csr(matrix_writer.get(), DBDF_VALUE_F64, offsets.data(), object_cols.data(),
                                          values.data(), 3, nullptr);
         },
         DBDF_ERR_INVALID_ARGUMENT, "row_offsets[1] is 5"},
    });
    // Nothing was written: both writers still take the matrix.
    const std::vector<uint64_t> good_offsets{0, 2, 3};
    ASSERT_OK(dbdf_writer_add_csr(block_writer.get(), 0, 0, 2, 4, DBDF_VALUE_F64, good_offsets.data(),
                                  block_cols.data(), values.data(), 3, nullptr));
    ASSERT_OK(dbdf_writer_write_csr(matrix_writer.get(), DBDF_VALUE_F64, good_offsets.data(), object_cols.data(),
                                    values.data(), 3, nullptr));
    ASSERT_OK(dbdf_writer_finish(block_writer.get()));
    ASSERT_OK(dbdf_writer_finish(matrix_writer.get()));
}

// A 3 x 4 CSRMatrix of i32 with one 1 x 4 block per row, each stored as given: a CSR block holding an explicit
// zero at (0, 1), a dense block 0 7 0 0, a COO block holding an explicit zero at (2, 0).
std::vector<std::uint8_t> blocks_with_explicit_zeros() {
    WriterHandle writer = memory_writer();
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_I32, 3, 4), DBDF_OK);
    const uint64_t offsets[] = {0, 2};
    const uint32_t csr_cols[] = {1, 3};
    const int32_t csr_values[] = {0, 5};
    EXPECT_EQ(
        dbdf_writer_add_csr(writer.get(), 0, 0, 1, 4, DBDF_VALUE_I32, offsets, csr_cols, csr_values, 2, &as_given),
        DBDF_OK);
    const int32_t dense[] = {0, 7, 0, 0};
    EXPECT_EQ(dbdf_writer_add_dense(writer.get(), 1, 0, 1, 4, DBDF_VALUE_I32, dense, 4, 0, &as_given), DBDF_OK);
    const uint32_t coo_rows[] = {0, 0};
    const uint32_t coo_cols[] = {0, 2};
    const int32_t coo_values[] = {0, 9};
    EXPECT_EQ(
        dbdf_writer_add_coo(writer.get(), 2, 0, 1, 4, DBDF_VALUE_I32, coo_rows, coo_cols, coo_values, 2, &as_given),
        DBDF_OK);
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

TEST(CapiSparse, Rule14ExplicitZerosOfSparseBlocksAreKeptInCsrOutput) {
    const auto bytes = blocks_with_explicit_zeros();
    ReaderHandle reader = memory_reader(bytes);
    uint64_t entries = 0;
    ASSERT_OK(dbdf_reader_count_entries(reader.get(), &entries));
    EXPECT_EQ(entries, 5u);
    std::vector<uint64_t> row_offsets(4);
    std::vector<uint64_t> cols(5);
    std::vector<int32_t> values(5);
    ASSERT_OK(dbdf_reader_read_csr(reader.get(), DBDF_VALUE_I32, row_offsets.data(), 4, cols.data(), values.data(), 5,
                                   &entries));
    EXPECT_EQ(entries, 5u);
    EXPECT_EQ(row_offsets, (std::vector<uint64_t>{0, 2, 3, 5}));
    EXPECT_EQ(cols, (std::vector<uint64_t>{1, 3, 1, 0, 2}));
    EXPECT_EQ(values, (std::vector<int32_t>{0, 5, 7, 0, 9}));

    // Block by block: CSR keeps its zero, dense drops its three, COO keeps its zero.
    const dbdf_block_type_t types[] = {DBDF_BLOCK_CSR, DBDF_BLOCK_DENSE, DBDF_BLOCK_COO};
    const std::vector<std::vector<int32_t>> block_values = {{0, 5}, {7}, {0, 9}};
    for (int block = 0; block < 3; ++block) {
        SCOPED_TRACE(block);
        dbdf_block_info_t info{};
        ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
        EXPECT_EQ(info.block_type, types[block]);
        uint64_t block_offsets[2];
        uint32_t block_cols[4];
        int32_t decoded[4];
        ASSERT_OK(dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_I32, block_offsets, 2, block_cols, decoded, 4,
                                               &entries));
        EXPECT_EQ(std::vector<int32_t>(decoded, decoded + entries), block_values[block]);
        EXPECT_EQ(block_offsets[1], entries);
    }
}

TEST(CapiSparse, TooSmallRowOffsetsStillReportTheEntryCount) {
    const auto bytes = blocks_with_explicit_zeros();
    ReaderHandle reader = memory_reader(bytes);
    std::vector<uint64_t> row_offsets(4, 77);
    std::vector<uint64_t> cols(5);
    std::vector<int32_t> values(5);
    uint64_t entries = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_read_csr(reader.get(), DBDF_VALUE_I32, row_offsets.data(), 3,
                                                                  cols.data(), values.data(), 5, &entries));
    EXPECT_EQ(entries, 5u);
    EXPECT_NE(std::string(dbdf_last_error_message()).find("row_offsets"), std::string::npos)
        << dbdf_last_error_message();
    EXPECT_EQ(row_offsets, (std::vector<uint64_t>(4, 77)));  // nothing written

    ASSERT_OK(dbdf_reader_next_block(reader.get(), nullptr));  // the CSR block: 1 row, 2 entries
    uint64_t block_offsets[2] = {77, 77};
    uint32_t block_cols[2];
    int32_t block_values[2];
    entries = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_reader_block_decode_csr(reader.get(), DBDF_VALUE_I32, block_offsets,
                                                                          1, block_cols, block_values, 2, &entries));
    EXPECT_EQ(entries, 2u);
    EXPECT_NE(std::string(dbdf_last_error_message()).find("row_offsets"), std::string::npos)
        << dbdf_last_error_message();
    EXPECT_EQ(block_offsets[0], 77u);
}

}  // namespace
}  // namespace dbdf_test
