// Arrow export of objects whose row bands are huge at no cost in the file (empty blocks): every batch stays within
// a bounded size, whatever the band, and objects too wide for a bounded row are refused at once. Tall bands of real
// values go out as slices that still point into the reader's memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::finished_bytes;
using dbdf_test::memory_reader;
using dbdf_test::memory_writer;
using dbdf_test::ReaderHandle;
using dbdf_test::WriterHandle;

constexpr std::uint32_t kTallRows = 0xFFFFFFFFu;     // the most rows one block holds
constexpr std::uint64_t kBatchBytes = 64ull << 20;   // the export's bound on a batch's values (arrow_batches.hpp)
constexpr std::uint64_t kWidestExport = 1ull << 24;  // the widest object it exports

// A matrix (or frame) of kTallRows rows held by one empty block per column: a few hundred bytes of file.
std::vector<std::uint8_t> tall_empty_object(dbdf_data_type_t data_type, std::uint64_t cols) {
    WriterHandle writer = memory_writer();
    if (data_type == DBDF_DATA_FRAME) {
        const std::vector<dbdf_value_type_t> types{DBDF_VALUE_F64, DBDF_VALUE_U8};
        const char* labels[] = {"x", "flag"};
        EXPECT_EQ(dbdf_writer_begin_frame(writer.get(), kTallRows, 2, types.data(), labels, nullptr), DBDF_OK);
    } else {
        EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), data_type, DBDF_VALUE_F64, kTallRows, cols), DBDF_OK);
    }
    for (std::uint64_t col = 0; col < cols; ++col) {
        EXPECT_EQ(dbdf_writer_add_empty(writer.get(), 0, col, kTallRows, 1), DBDF_OK) << dbdf_last_error_message();
    }
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

struct Stream {
    ArrowArrayStream stream{};
    ~Stream() {
        if (stream.release != nullptr) stream.release(&stream);
    }
};

// Pulls one batch, checks that every child has `length` values, and returns the first child's values.
std::vector<std::uint8_t> pull_batch(ArrowArrayStream& stream, std::int64_t length, std::size_t first_value_bytes) {
    ArrowArray batch{};
    EXPECT_EQ(stream.get_next(&stream, &batch), 0) << stream.get_last_error(&stream);
    EXPECT_NE(batch.release, nullptr);
    if (batch.release == nullptr) return {};
    EXPECT_EQ(batch.length, length);
    for (std::int64_t i = 0; i < batch.n_children; ++i) EXPECT_EQ(batch.children[i]->length, length);
    const auto* values = static_cast<const std::uint8_t*>(batch.children[0]->buffers[1]);
    std::vector<std::uint8_t> copied(values, values + batch.children[0]->length * first_value_bytes);
    batch.release(&batch);
    return copied;
}

TEST(ArrowBounds, ATallEmptyColumnGoesOutInBatchesOfBoundedSize) {
    const std::vector<std::uint8_t> bytes = tall_empty_object(DBDF_DATA_DENSE, 1);
    ReaderHandle reader = memory_reader(bytes);
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    const std::int64_t batch_rows = kBatchBytes / sizeof(double);
    for (int batch = 0; batch < 2; ++batch) {
        const std::vector<std::uint8_t> values = pull_batch(exported.stream, batch_rows, sizeof(double));
        EXPECT_EQ(values, std::vector<std::uint8_t>(batch_rows * sizeof(double), 0));
    }
}

TEST(ArrowBounds, ATallEmptyFrameGoesOutInBatchesOfBoundedSize) {
    const std::vector<std::uint8_t> bytes = tall_empty_object(DBDF_DATA_FRAME, 2);
    ReaderHandle reader = memory_reader(bytes);
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    // A row of the frame is 9 bytes (f64 and u8).
    pull_batch(exported.stream, kBatchBytes / 9, sizeof(double));
}

TEST(ArrowBounds, ATallEmptyCsrMatrixCostsItsEntriesNotItsRows) {
    const std::vector<std::uint8_t> bytes = tall_empty_object(DBDF_DATA_CSR, 1);
    ReaderHandle reader = memory_reader(bytes);
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    pull_batch(exported.stream, 0, sizeof(std::uint64_t));
    ArrowArray end{};
    EXPECT_EQ(exported.stream.get_next(&exported.stream, &end), 0);
    EXPECT_EQ(end.release, nullptr);
}

TEST(ArrowBounds, AnObjectTooWideForABoundedRowIsRefusedAtOnce) {
    WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, kWidestExport + 1), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_empty(writer.get(), 0, 0, 1, kWidestExport), DBDF_OK) << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_add_empty(writer.get(), 0, kWidestExport, 1, 1), DBDF_OK) << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const std::vector<std::uint8_t> bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    for (const int dense_as_list : {0, 1}) {
        dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        options.dense_as_list = dense_as_list;
        ArrowArrayStream stream{};
        EXPECT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &stream), DBDF_ERR_UNSUPPORTED);
        EXPECT_NE(std::string(dbdf_last_error_message()).find("at most 16777216 columns"), std::string::npos)
            << dbdf_last_error_message();
        EXPECT_EQ(stream.release, nullptr);
    }
}

TEST(ArrowBounds, SlicesOfALentColumnStillPointIntoTheReadersMemory) {
    // One dense u8 block a little taller than a batch: two batches, both pointing into the input.
    const std::uint32_t rows = static_cast<std::uint32_t>(kBatchBytes) + 1000;
    std::vector<std::uint8_t> values(rows);
    for (std::uint32_t row = 0; row < rows; ++row) values[row] = static_cast<std::uint8_t>(row % 251 + 1);
    WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, rows, 1), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer.get(), 0, 0, rows, 1, DBDF_VALUE_U8, values.data(), rows, 0, nullptr),
              DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK);
    const std::vector<std::uint8_t> bytes = finished_bytes(writer.get());
    dbdf_reader_t* reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_memory(bytes.data(), bytes.size(), &reader), DBDF_OK);
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    options.take_reader = 1;  // the stream owns the reader, so batches may point into its memory
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader, &options, &exported.stream), DBDF_OK);
    const std::uint8_t* input_end = bytes.data() + bytes.size();
    std::uint64_t row = 0;
    for (const std::uint64_t length : {kBatchBytes, std::uint64_t{1000}}) {
        ArrowArray batch{};
        ASSERT_EQ(exported.stream.get_next(&exported.stream, &batch), 0)
            << exported.stream.get_last_error(&exported.stream);
        ASSERT_EQ(batch.length, static_cast<std::int64_t>(length));
        const auto* lent = static_cast<const std::uint8_t*>(batch.children[0]->buffers[1]);
        EXPECT_TRUE(lent >= bytes.data() && lent + length <= input_end) << "batch values are a copy";
        EXPECT_EQ(std::memcmp(lent, values.data() + row, length), 0);
        row += length;
        batch.release(&batch);
    }
}

}  // namespace
