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
        {"block_decode_dense", [=, &out] { return dbdf_reader_block_decode_dense(reader, DBDF_VALUE_F64, out.values, 16, 0); },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_decode_csr",
         [=, &out] {
             return dbdf_reader_block_decode_csr(reader, DBDF_VALUE_F64, out.offsets, 8, out.cols, out.values, 16,
                                                 &out.entries);
         },
         DBDF_ERR_CALL_ORDER, missing},
        {"block_decode_coo",
         [=, &out] {
             return dbdf_reader_block_decode_coo(reader, DBDF_VALUE_F64, out.rows, out.cols, out.values, 16, &out.entries);
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

}  // namespace
}  // namespace dbdf_test
