// Calls made in a state that does not allow them: DBDF_ERR_CALL_ORDER with a message saying what is missing.
#include <cstdint>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

// Output buffers for the block calls below.
struct BlockOutputs {
    double values[16];
    uint64_t offsets[8];
    uint32_t rows[16];
    uint32_t cols[16];
    uint64_t entries = 0;
    const void* payload = nullptr;
    size_t payload_bytes = 0;
};

// Every call that needs a current block, on `reader`, which has none.
std::vector<FailingCall> calls_needing_a_current_block(dbdf_reader_t* reader, BlockOutputs& out) {
    const char* missing = "no current block";
    return {
        {"block_decode_dense",
         [=, &out] { return dbdf_reader_block_decode_dense(reader, DBDF_VALUE_F64, out.values, 16, 0); },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_decode_csr",
         [=, &out] {
             return dbdf_reader_block_decode_csr(reader, DBDF_VALUE_F64, out.offsets, 8, out.cols, out.values, 16,
                                                 &out.entries);
         },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_decode_coo",
         [=, &out] {
             return dbdf_reader_block_decode_coo(reader, DBDF_VALUE_F64, out.rows, out.cols, out.values, 16,
                                                 &out.entries);
         },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_payload", [=, &out] { return dbdf_reader_block_payload(reader, &out.payload, &out.payload_bytes); },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_count_entries", [=, &out] { return dbdf_reader_block_count_entries(reader, &out.entries); },
         DBDF_ERR_CALL_ORDER, missing},
    };
}

// The failed calls report nothing through their out-parameters.
void expect_untouched(const BlockOutputs& out) {
    EXPECT_EQ(out.entries, 0u);
    EXPECT_EQ(out.payload, nullptr);
    EXPECT_EQ(out.payload_bytes, 0u);
}

TEST(CapiCallOrder, BlockCallsBeforeTheFirstBlock) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    BlockOutputs out;
    expect_failures(calls_needing_a_current_block(reader.get(), out));
    expect_untouched(out);
}

TEST(CapiCallOrder, BlockCallsAfterTheLastBlock) {
    const auto bytes = sample_matrix();
    ReaderHandle reader = memory_reader(bytes);
    int blocks = 0;
    while (dbdf_reader_next_block(reader.get(), nullptr) == DBDF_OK) ++blocks;
    ASSERT_EQ(blocks, 4);
    EXPECT_STATUS(DBDF_END_OF_BLOCKS, dbdf_reader_next_block(reader.get(), nullptr));
    BlockOutputs out;
    expect_failures(calls_needing_a_current_block(reader.get(), out));
    expect_untouched(out);
}

TEST(CapiCallOrder, WholeMatrixHelpersOnlyRightAfterBegin) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 2, 2));
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 0, 0, 1, 2));
    const double values[] = {1.0, 2.0, 3.0, 4.0};
    const uint64_t offsets[] = {0, 1, 2};
    const uint64_t cols[] = {0, 1};
    expect_failures({
        {"write_dense after add",
         [&] { return dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values, 4, 0, nullptr); },
         DBDF_ERR_CALL_ORDER, "must come right after begin"},
        {"write_csr after add",
         [&] { return dbdf_writer_write_csr(writer.get(), DBDF_VALUE_F64, offsets, cols, values, 2, nullptr); },
         DBDF_ERR_CALL_ORDER, "must come right after begin"},
    });
    // The writer is still usable: adding the missing row completes the object.
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 1, 0, 1, 2));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
}

// Every call that adds blocks, on `writer`, expected to fail with DBDF_ERR_CALL_ORDER and `names` in the message.
std::vector<FailingCall> block_calls(dbdf_writer_t* writer, const char* names) {
    static const double values[] = {1.0, 2.0};
    static const uint64_t block_offsets[] = {0, 1};
    static const uint32_t block_cols[] = {1};
    static const uint32_t block_rows[] = {0};
    static const uint64_t object_offsets[] = {0, 1};
    static const uint64_t object_cols[] = {1};
    return {
        {"add_dense", [=] { return dbdf_writer_add_dense(writer, 0, 0, 1, 2, DBDF_VALUE_F64, values, 2, 0, nullptr); },
         DBDF_ERR_CALL_ORDER, names},
        {"add_csr",
         [=] {
             return dbdf_writer_add_csr(writer, 0, 0, 1, 2, DBDF_VALUE_F64, block_offsets, block_cols, values, 1,
                                        nullptr);
         },
         DBDF_ERR_CALL_ORDER, names},
        {"add_coo",
         [=] {
             return dbdf_writer_add_coo(writer, 0, 0, 1, 2, DBDF_VALUE_F64, block_rows, block_cols, values, 1, nullptr);
         },
         DBDF_ERR_CALL_ORDER, names},
        {"add_empty", [=] { return dbdf_writer_add_empty(writer, 0, 0, 1, 2); }, DBDF_ERR_CALL_ORDER, names},
        {"write_dense", [=] { return dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 2, 0, nullptr); },
         DBDF_ERR_CALL_ORDER, names},
        {"write_csr",
         [=] { return dbdf_writer_write_csr(writer, DBDF_VALUE_F64, object_offsets, object_cols, values, 1, nullptr); },
         DBDF_ERR_CALL_ORDER, names},
        {"write_column", [=] { return dbdf_writer_write_column(writer, 0, DBDF_VALUE_F64, values, 1, nullptr); },
         DBDF_ERR_CALL_ORDER, names},
    };
}

TEST(CapiCallOrder, BlockCallsBeforeBegin) {
    WriterHandle writer = memory_writer();
    expect_failures(block_calls(writer.get(), "no object begun"));
    uint64_t written = 1;
    ASSERT_OK(dbdf_writer_bytes_written(writer.get(), &written));
    EXPECT_EQ(written, 0u);
    // Nothing was begun by the refused calls: a frame can still be begun, written and finished.
    const dbdf_value_type_t types[] = {DBDF_VALUE_F64, DBDF_VALUE_F64};
    const char* labels[] = {"a", "b"};
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
    const double value = 1.0;
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_F64, &value, 1, nullptr));
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_F64, &value, 1, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
}

TEST(CapiCallOrder, BlockCallsAfterFinish) {
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_F64, DBDF_VALUE_F64};
    const char* labels[] = {"a", "b"};
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 1, 2, types, labels, nullptr));
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 0, 0, 1, 2));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto before = finished_bytes(writer.get());
    expect_failures(block_calls(writer.get(), "the object is finished"));
    EXPECT_EQ(finished_bytes(writer.get()), before);
}

TEST(CapiCallOrder, AnObjectIsBegunOnce) {
    const dbdf_value_type_t types[] = {DBDF_VALUE_U8};
    const char* labels[] = {"a"};
    WriterHandle matrix = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(matrix.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 1, 1));
    WriterHandle frame = memory_writer();
    ASSERT_OK(dbdf_writer_begin_frame(frame.get(), 1, 1, types, labels, nullptr));
    WriterHandle finished = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(finished.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 0, 0));
    ASSERT_OK(dbdf_writer_finish(finished.get()));
    const char* again = "already been begun";
    expect_failures({
        {"begin_frame after begin_matrix",
         [&] { return dbdf_writer_begin_frame(matrix.get(), 1, 1, types, labels, nullptr); }, DBDF_ERR_CALL_ORDER,
         again},
        {"begin_matrix after begin_matrix",
         [&] { return dbdf_writer_begin_matrix(matrix.get(), DBDF_DATA_CSR, DBDF_VALUE_U8, 2, 2); },
         DBDF_ERR_CALL_ORDER, again},
        {"begin_matrix after begin_frame",
         [&] { return dbdf_writer_begin_matrix(frame.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 1, 1); },
         DBDF_ERR_CALL_ORDER, again},
        {"begin_frame after begin_frame",
         [&] { return dbdf_writer_begin_frame(frame.get(), 1, 1, types, labels, nullptr); }, DBDF_ERR_CALL_ORDER,
         again},
        {"begin_frame after finish",
         [&] { return dbdf_writer_begin_frame(finished.get(), 1, 1, types, labels, nullptr); }, DBDF_ERR_CALL_ORDER,
         again},
    });
    // The first header stands: each writer still takes the block its own object needs.
    const std::uint8_t one = 1;
    ASSERT_OK(dbdf_writer_add_dense(matrix.get(), 0, 0, 1, 1, DBDF_VALUE_U8, &one, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(matrix.get()));
    ASSERT_OK(dbdf_writer_write_column(frame.get(), 0, DBDF_VALUE_U8, &one, 1, nullptr));
    ASSERT_OK(dbdf_writer_finish(frame.get()));
    const auto bytes = finished_bytes(frame.get());
    ReaderHandle reader = memory_reader(bytes);
    dbdf_object_info_t info{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
    EXPECT_EQ(info.data_type, DBDF_DATA_FRAME);
    EXPECT_EQ(info.cols, 1u);
}

// write_column is not limited to frames in the spec dialect: on a matrix it writes that column as blocks one column
// wide (the Rust binding documents it as "frame (or matrix) column"), under the usual placement rules.
TEST(CapiCallOrder, WriteColumnOnAMatrixWritesOneColumnWideBlocks) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_I32, 3, 2));
    const int32_t first[] = {1, 2, 3};
    const int32_t second[] = {-4, 0, 6};
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 2;
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_I32, second, 3, &options));
    expect_failures({
        {"the same column again",
         [&] { return dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_I32, second, 3, &options); },
         DBDF_ERR_INVALID_ARGUMENT, "overlaps"},
        {"a column the matrix does not have",
         [&] { return dbdf_writer_write_column(writer.get(), 2, DBDF_VALUE_I32, first, 3, &options); },
         DBDF_ERR_INVALID_ARGUMENT, "column 2 does not exist"},
        {"write_dense after a column",
         [&] { return dbdf_writer_write_dense(writer.get(), DBDF_VALUE_I32, first, 3, 0, nullptr); },
         DBDF_ERR_CALL_ORDER, "must come right after begin"},
    });
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_writer_finish(writer.get()));  // column 0 is not covered yet
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I32, first, 3, &options));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    const uint64_t rows[] = {0, 2, 0, 2};
    const uint64_t cols[] = {1, 1, 0, 0};
    const uint32_t heights[] = {2, 1, 2, 1};
    for (uint64_t i = 0; i < 4; ++i) {
        dbdf_block_info_t block{};
        ASSERT_OK(dbdf_reader_index_entry(reader.get(), i, &block));
        EXPECT_EQ(block.row, rows[i]) << i;
        EXPECT_EQ(block.col, cols[i]) << i;
        EXPECT_EQ(block.rows, heights[i]) << i;
        EXPECT_EQ(block.cols, 1u) << i;
    }
    int32_t all[6];
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_I32, all, 6, 0));
    EXPECT_EQ(std::vector<int32_t>(all, all + 6), (std::vector<int32_t>{1, -4, 2, 0, 3, 6}));
}

}  // namespace
}  // namespace dbdf_test
