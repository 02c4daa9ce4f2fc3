// Arrow export of objects whose row bands are huge at no cost in the file (empty blocks): every batch stays within
// a bounded size, whatever the band, and objects too wide for a bounded row are refused at once. Tall bands of real
// values go out as slices that still point into the reader's memory. Hostile input (every invalid vector, every
// truncation of valid files) is refused with its rule in every layout, and released batches' buffers are reused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "arrow_test_support.hpp"
#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::finished_bytes;
using dbdf_test::memory_reader;
using dbdf_test::memory_writer;
using dbdf_test::ReaderHandle;
using dbdf_test::Stream;
using dbdf_test::WriterHandle;

constexpr std::uint32_t kTallRows = 0xFFFFFFFFu;     // the most rows one block holds
constexpr std::uint64_t kBatchBytes = 64ull << 20;   // the export's bound on a batch's values (arrow_batches.hpp)
constexpr std::uint64_t kWidestExport = 1ull << 24;  // the widest object it exports
constexpr std::uint64_t kMostFields = 1ull << 16;    // the widest it exports with a field per column

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

TEST(ArrowBounds, ACsrBandOfMoreEntriesThanABatchHoldsComesInBatchesOfBoundedSize) {
    // 2048 x 2048 u8 in one dense block of non-zeros: 4 Mi entries from 4 MiB of file, while a batch of triplets
    // holds at most 64 MiB / (8 + 8 + 1) of them.
    const std::uint32_t side = 2048;
    const std::uint64_t entries = std::uint64_t{side} * side;
    const std::uint64_t batch_entries = kBatchBytes / (8 + 8 + 1);
    ASSERT_LT(batch_entries, entries);
    const auto value_at = [](std::uint64_t row, std::uint64_t col) {
        return static_cast<std::uint8_t>((row * 7 + col) % 251 + 1);
    };
    std::vector<std::uint8_t> values(entries);
    for (std::uint64_t k = 0; k < entries; ++k) values[k] = value_at(k / side, k % side);
    WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_U8, side, side), DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    ASSERT_EQ(dbdf_writer_add_dense(writer.get(), 0, 0, side, side, DBDF_VALUE_U8, values.data(), entries, 0, &options),
              DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const std::vector<std::uint8_t> bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    std::uint64_t first = 0;
    for (const std::uint64_t length : {batch_entries, entries - batch_entries}) {
        ArrowArray batch{};
        ASSERT_EQ(exported.stream.get_next(&exported.stream, &batch), 0)
            << exported.stream.get_last_error(&exported.stream);
        ASSERT_EQ(batch.length, static_cast<std::int64_t>(length));
        const auto* rows = static_cast<const std::uint64_t*>(batch.children[0]->buffers[1]);
        const auto* cols = static_cast<const std::uint64_t*>(batch.children[1]->buffers[1]);
        const auto* batch_values = static_cast<const std::uint8_t*>(batch.children[2]->buffers[1]);
        std::uint64_t wrong = 0;
        for (std::uint64_t k = 0; k < length; ++k) {
            const std::uint64_t entry = first + k;
            wrong += rows[k] != entry / side || cols[k] != entry % side ||
                     batch_values[k] != value_at(entry / side, entry % side);
        }
        EXPECT_EQ(wrong, 0u) << "in the batch from entry " << first;
        first += length;
        batch.release(&batch);
    }
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

// One row of `cols` columns held by one empty block: 44 bytes of file however wide.
std::vector<std::uint8_t> one_empty_row(std::uint64_t cols) {
    WriterHandle writer = memory_writer();
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, cols), DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_empty(writer.get(), 0, 0, 1, static_cast<std::uint32_t>(cols)), DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

// A field per column costs a schema field and a child array per batch, about 500 bytes, and a dense matrix's width
// costs the file nothing: before this bound a 44-byte file of 2^24 columns made the stream build gigabytes of
// schema (found by the reader fuzz target). A fixed-size list per row stays one field.
TEST(ArrowBounds, AMatrixTooWideForAFieldPerColumnIsRefusedUnlessExportedAsLists) {
    const std::vector<std::uint8_t> widest_in_fields = one_empty_row(kMostFields);
    const std::vector<std::uint8_t> wider = one_empty_row(kMostFields + 1);
    ASSERT_LT(wider.size(), 64u);
    {
        ReaderHandle reader = memory_reader(widest_in_fields);
        const dbdf_arrow_export_options_t fields = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        Stream exported;
        ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &fields, &exported.stream), DBDF_OK)
            << dbdf_last_error_message();
        ArrowSchema schema{};
        ASSERT_EQ(exported.stream.get_schema(&exported.stream, &schema), 0);
        EXPECT_EQ(schema.n_children, static_cast<std::int64_t>(kMostFields));
        schema.release(&schema);
    }
    ReaderHandle reader = memory_reader(wider);
    const dbdf_arrow_export_options_t fields = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    ArrowArrayStream refused{};
    EXPECT_EQ(dbdf_reader_export_arrow(reader.get(), &fields, &refused), DBDF_ERR_UNSUPPORTED);
    EXPECT_EQ(refused.release, nullptr);
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("at most 65536 columns as fields of their own"), std::string::npos) << message;
    EXPECT_NE(message.find("has 65537: export it as one fixed-size list per row (dense_as_list)"), std::string::npos)
        << message;
    dbdf_arrow_export_options_t as_lists = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    as_lists.dense_as_list = 1;
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), &as_lists, &exported.stream), DBDF_OK)
        << dbdf_last_error_message();
    ArrowArray batch{};
    ASSERT_EQ(exported.stream.get_next(&exported.stream, &batch), 0)
        << exported.stream.get_last_error(&exported.stream);
    ASSERT_EQ(batch.n_children, 1);
    const ArrowArray& items = *batch.children[0]->children[0];
    ASSERT_EQ(items.length, static_cast<std::int64_t>(kMostFields + 1));
    const auto* values = static_cast<const double*>(items.buffers[1]);
    EXPECT_EQ(std::count(values, values + items.length, 0.0), items.length);
    batch.release(&batch);
}

TEST(ArrowBounds, AFrameTooWideForAFieldPerColumnIsRefused) {
    const std::vector<dbdf_value_type_t> types(kMostFields + 1, DBDF_VALUE_U8);
    std::vector<std::string> names;
    for (std::uint64_t col = 0; col <= kMostFields; ++col) names.push_back("c" + std::to_string(col));
    std::vector<const char*> labels;
    for (const std::string& name : names) labels.push_back(name.c_str());
    WriterHandle writer = memory_writer();
    ASSERT_EQ(dbdf_writer_begin_frame(writer.get(), 1, kMostFields + 1, types.data(), labels.data(), nullptr), DBDF_OK)
        << dbdf_last_error_message();
    for (std::uint64_t col = 0; col <= kMostFields; ++col) {
        ASSERT_EQ(dbdf_writer_add_empty(writer.get(), 0, col, 1, 1), DBDF_OK) << dbdf_last_error_message();
    }
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const std::vector<std::uint8_t> bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    for (const int dense_as_list : {0, 1}) {  // a frame has one layout: the option does not apply
        dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        options.dense_as_list = dense_as_list;
        ArrowArrayStream refused{};
        EXPECT_EQ(dbdf_reader_export_arrow(reader.get(), &options, &refused), DBDF_ERR_UNSUPPORTED);
        EXPECT_NE(std::string(dbdf_last_error_message()).find("this frame has 65537"), std::string::npos)
            << dbdf_last_error_message();
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

namespace {

// How an export of `bytes` ends: "open" (the reader refused them), "pulled" (every batch came), or the errno of the
// failed pull; `message` gets the error's message.
std::string export_outcome(const std::vector<std::uint8_t>& bytes, const dbdf_arrow_export_options_t& options,
                           std::string& message) {
    dbdf_reader_t* reader = nullptr;
    if (dbdf_reader_open_memory(bytes.data(), bytes.size(), &reader) != DBDF_OK) {
        message = dbdf_last_error_message();
        return "open";
    }
    ReaderHandle owned(reader);
    Stream exported;
    if (dbdf_reader_export_arrow(reader, &options, &exported.stream) != DBDF_OK) {
        message = dbdf_last_error_message();
        EXPECT_EQ(exported.stream.release, nullptr);
        return "export";
    }
    for (;;) {
        ArrowArray batch{};
        const int result = exported.stream.get_next(&exported.stream, &batch);
        if (result != 0) {
            const char* error = exported.stream.get_last_error(&exported.stream);
            message = error != nullptr ? error : "";
            EXPECT_EQ(batch.release, nullptr);
            return std::to_string(result);
        }
        if (batch.release == nullptr) return "pulled";
        batch.release(&batch);
    }
}

// The layouts an export can take: default, dense_as_list, csr_as_arrays.
std::vector<dbdf_arrow_export_options_t> every_layout() {
    std::vector<dbdf_arrow_export_options_t> layouts(3, dbdf_arrow_export_options_t DBDF_ARROW_EXPORT_OPTIONS_INIT);
    layouts[1].dense_as_list = 1;
    layouts[2].csr_as_arrays = 1;
    return layouts;
}

TEST(ArrowHostile, EveryInvalidVectorIsRefusedWithItsRuleInEveryLayout) {
    int refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(DBDF_VECTORS_DIR) / "invalid")) {
        SCOPED_TRACE(entry.path().filename().string());
        const std::vector<std::uint8_t> bytes = dbdf_test::read_file(entry.path());
        for (const dbdf_arrow_export_options_t& options : every_layout()) {
            std::string message;
            const std::string outcome = export_outcome(bytes, options, message);
            // Refused by the reader, by the export (too many columns), or by a pull with EINVAL: never exported.
            EXPECT_TRUE(outcome == "open" || outcome == "export" || outcome == std::to_string(EINVAL)) << outcome;
            EXPECT_TRUE(message.find("at byte") != std::string::npos || message.find("at most") != std::string::npos)
                << outcome << ": " << message;
        }
        ++refused;
    }
    EXPECT_GE(refused, 20);
}

TEST(ArrowHostile, EveryTruncationOfAValidFileIsRefusedNeverHalfExported) {
    for (const char* name : {"frame_mixed.dbdf", "csr_f64.dbdf", "coo_multi_column.dbdf", "multi_block_shuffled.dbdf",
                             "mixed_block_types_f64.dbdf"}) {
        SCOPED_TRACE(name);
        const std::vector<std::uint8_t> whole = dbdf_test::read_file(std::filesystem::path(DBDF_VECTORS_DIR) / name);
        for (std::size_t length = 0; length < whole.size(); ++length) {
            const std::vector<std::uint8_t> prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(length));
            for (const dbdf_arrow_export_options_t& options : every_layout()) {
                std::string message;
                const std::string outcome = export_outcome(prefix, options, message);
                EXPECT_TRUE(outcome == "open" || outcome == std::to_string(EINVAL)) << length << ": " << outcome;
                EXPECT_NE(message.find("at byte"), std::string::npos) << length << ": " << message;
            }
        }
    }
}

TEST(ArrowBufferPool, AReleasedBatchsBuffersGoToTheNextBatch) {
    // Three bands of 16 Ki f64 rows (128 KiB of values each) from a borrowed reader: every batch is decoded.
    const std::vector<std::uint8_t> bytes = dbdf_test::dense_blocks_file(3, 16384, 1);
    ReaderHandle reader = memory_reader(bytes);
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    ArrowArray first{};
    ASSERT_EQ(exported.stream.get_next(&exported.stream, &first), 0);
    const void* first_values = first.children[0]->buffers[1];
    first.release(&first);
    // Memory the allocator would hand out again, had the batch given its buffer back to it.
    std::vector<std::uint8_t> intruder(16384 * sizeof(double) + 64, 1);
    ArrowArray second{};
    ASSERT_EQ(exported.stream.get_next(&exported.stream, &second), 0);
    EXPECT_EQ(second.children[0]->buffers[1], first_values) << "the released batch's buffer was not reused";
    EXPECT_EQ(static_cast<const double*>(second.children[0]->buffers[1])[1], 0.1 * (1 + 1) + 0.37);
    ArrowArray third{};
    ASSERT_EQ(exported.stream.get_next(&exported.stream, &third), 0);
    EXPECT_NE(third.children[0]->buffers[1], first_values);  // the second batch still holds it
    EXPECT_EQ(static_cast<std::uintptr_t>(reinterpret_cast<std::uintptr_t>(third.children[0]->buffers[1]) % 64), 0u);
    // Batches released after the stream free their buffers: the pool went with the stream.
    exported.stream.release(&exported.stream);
    EXPECT_EQ(static_cast<const double*>(third.children[0]->buffers[1])[0], 0.1 * 2 + 0.37);
    third.release(&third);
    second.release(&second);
}

}  // namespace
