// Arrow export on the reader's decode threads (dbdf_open_options_t.threads): a batch's decoded columns are read
// together, on several threads where the source allows it, with the values one thread gives; a byte source without
// DBDF_SOURCE_CONCURRENT_READS is read on the pulling thread alone; a failure is the stream's error naming the first
// failing column in file order, and the stream goes on once the source recovers.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "arrow_test_support.hpp"
#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::finished_bytes;
using dbdf_test::memory_writer;
using dbdf_test::ReaderHandle;
using dbdf_test::RecordingSource;
using dbdf_test::Stream;
using dbdf_test::WriterHandle;

constexpr std::uint64_t kColumns = 8;
constexpr std::uint32_t kBandRows = 16384;  // 128 KiB of f64 per column block: a payload read bypasses the window
constexpr std::uint32_t kBands = 3;

double cell(std::uint64_t row, std::uint64_t column) { return 0.001 * static_cast<double>(row) + column + 0.37; }

// A frame of kColumns f64 columns, one block per column and band, written band by band (block band * 8 + column).
std::vector<std::uint8_t> frame_in_column_blocks() {
    WriterHandle writer = memory_writer();
    const std::vector<dbdf_value_type_t> types(kColumns, DBDF_VALUE_F64);
    std::vector<std::string> names;
    std::vector<const char*> labels;
    for (std::uint64_t column = 0; column < kColumns; ++column) names.push_back("x" + std::to_string(column));
    for (const std::string& name : names) labels.push_back(name.c_str());
    EXPECT_EQ(dbdf_writer_begin_frame(writer.get(), std::uint64_t{kBands} * kBandRows, kColumns, types.data(),
                                      labels.data(), nullptr),
              DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_AS_GIVEN;
    std::vector<double> values(kBandRows);
    for (std::uint64_t band = 0; band < kBands; ++band) {
        for (std::uint64_t column = 0; column < kColumns; ++column) {
            for (std::uint32_t row = 0; row < kBandRows; ++row) values[row] = cell(band * kBandRows + row, column);
            EXPECT_EQ(dbdf_writer_add_dense(writer.get(), band * kBandRows, column, kBandRows, 1, DBDF_VALUE_F64,
                                            values.data(), values.size(), 0, &options),
                      DBDF_OK)
                << dbdf_last_error_message();
        }
    }
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

// Checks one batch: a band of kBandRows rows from `first_row`, every value.
void expect_band(const ArrowArray& batch, std::uint64_t first_row) {
    ASSERT_EQ(batch.length, kBandRows);
    ASSERT_EQ(batch.n_children, static_cast<std::int64_t>(kColumns));
    for (std::uint64_t column = 0; column < kColumns; ++column) {
        const auto* values = static_cast<const double*>(batch.children[column]->buffers[1]);
        std::uint64_t wrong = 0;
        for (std::uint32_t row = 0; row < kBandRows; ++row) wrong += values[row] != cell(first_row + row, column);
        EXPECT_EQ(wrong, 0u) << "column " << column << " of the band at row " << first_row;
    }
}

// Pulls every batch of an export of `reader` and checks its values.
void expect_every_band(dbdf_reader_t* reader, const dbdf_arrow_export_options_t* options = nullptr) {
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader, options, &exported.stream), DBDF_OK) << dbdf_last_error_message();
    for (std::uint64_t band = 0; band <= kBands; ++band) {
        ArrowArray batch{};
        ASSERT_EQ(exported.stream.get_next(&exported.stream, &batch), 0)
            << exported.stream.get_last_error(&exported.stream);
        if (band == kBands) {
            EXPECT_EQ(batch.release, nullptr) << "more batches than bands";
            break;
        }
        ASSERT_NE(batch.release, nullptr);
        expect_band(batch, band * kBandRows);
        batch.release(&batch);
    }
}

dbdf_open_options_t on_threads(unsigned threads) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.threads = threads;
    return options;
}

ReaderHandle source_reader(RecordingSource& recording, std::uint32_t flags, unsigned threads) {
    const dbdf_source_t source = dbdf_test::recording_source(recording, flags);
    const dbdf_open_options_t options = on_threads(threads);
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_source(&source, &options, &reader), DBDF_OK) << dbdf_last_error_message();
    return ReaderHandle(reader);
}

TEST(ArrowThreads, EveryThreadSettingGivesTheValuesOfOneThread) {
    const std::vector<std::uint8_t> bytes = frame_in_column_blocks();
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("dbdf-arrow-threads-" + std::to_string(::getpid()) + ".dbdf");
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    for (const unsigned threads : {0u, 1u, 2u, 4u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        const dbdf_open_options_t options = on_threads(threads);
        dbdf_reader_t* file_reader = nullptr;
        ASSERT_EQ(dbdf_reader_open_file_with_options(path.string().c_str(), &options, &file_reader), DBDF_OK);
        ReaderHandle owned_file_reader(file_reader);
        expect_every_band(file_reader);
        // Over memory the stream owns: aligned columns are lent, the others decoded on the threads.
        dbdf_reader_t* memory_reader = nullptr;
        ASSERT_EQ(dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &memory_reader), DBDF_OK);
        dbdf_arrow_export_options_t export_options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        export_options.take_reader = 1;
        expect_every_band(memory_reader, &export_options);
    }
    std::filesystem::remove(path);
}

TEST(ArrowThreads, DecodedColumnsAreReadOnSeveralThreadsAtOnce) {
    RecordingSource recording;
    recording.bytes = frame_in_column_blocks();
    ReaderHandle reader = source_reader(recording, DBDF_SOURCE_CONCURRENT_READS, 2);
    ASSERT_NE(reader, nullptr);
    recording.wait_for_overlap = true;
    expect_every_band(reader.get());
    EXPECT_TRUE(recording.read_off_the_pulling_thread);
    EXPECT_GE(recording.most_in_flight, 2);
}

TEST(ArrowThreads, WithoutConcurrentReadsOnlyThePullingThreadReads) {
    RecordingSource recording;
    recording.bytes = frame_in_column_blocks();
    ReaderHandle reader = source_reader(recording, 0, 4);
    ASSERT_NE(reader, nullptr);
    expect_every_band(reader.get());
    EXPECT_FALSE(recording.read_off_the_pulling_thread);
    EXPECT_EQ(recording.most_in_flight, 1);
}

TEST(ArrowThreads, TheFirstFailingColumnInFileOrderIsTheStreamsErrorAndTheStreamGoesOn) {
    RecordingSource recording;
    recording.bytes = frame_in_column_blocks();
    ReaderHandle reader = source_reader(recording, DBDF_SOURCE_CONCURRENT_READS, 2);
    ASSERT_NE(reader, nullptr);
    // The index first (the stream uses the reader's), then every read from the third column's block on fails: the
    // first band's columns 2 to 7, decoded on two threads at once.
    std::uint64_t blocks = 0;
    ASSERT_EQ(dbdf_reader_build_index(reader.get(), &blocks), DBDF_OK);
    ASSERT_EQ(blocks, kBands * kColumns);
    dbdf_block_info_t third{};
    ASSERT_EQ(dbdf_reader_index_entry(reader.get(), 2, &third), DBDF_OK);
    ASSERT_EQ(third.col, 2u);
    recording.fail_from = third.offset;
    recording.wait_for_overlap = true;
    Stream exported;
    ASSERT_EQ(dbdf_reader_export_arrow(reader.get(), nullptr, &exported.stream), DBDF_OK);
    ArrowArray batch{};
    EXPECT_EQ(exported.stream.get_next(&exported.stream, &batch), EIO);
    EXPECT_EQ(batch.release, nullptr);
    EXPECT_GE(recording.most_in_flight, 2);
    const std::string message = exported.stream.get_last_error(&exported.stream);
    const std::string said = "refused the read at byte ";
    const std::size_t at = message.find(said);
    ASSERT_NE(at, std::string::npos) << message;
    const std::uint64_t offset = std::stoull(message.substr(at + said.size()));
    EXPECT_GE(offset, third.offset) << message;
    EXPECT_LT(offset, third.offset + third.encoded_bytes) << "not the first failing column: " << message;
    // The source recovers: the same band comes, then the rest.
    recording.fail_from = UINT64_MAX;
    for (std::uint64_t band = 0; band < kBands; ++band) {
        ASSERT_EQ(exported.stream.get_next(&exported.stream, &batch), 0)
            << exported.stream.get_last_error(&exported.stream);
        ASSERT_NE(batch.release, nullptr);
        expect_band(batch, band * kBandRows);
        batch.release(&batch);
    }
}

}  // namespace
