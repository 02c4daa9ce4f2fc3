// Byte sources that allow concurrent reads (DBDF_SOURCE_CONCURRENT_READS): whole-object reads call them from the
// decode threads, several at once, with the same values; a failure on a decode thread is the call's DBDF_ERR_IO
// with the callback's message; a caller built against the 0.2.0 struct (no flags field) still opens sources.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::dense_blocks_file;
using dbdf_test::ReaderHandle;

// Bytes in memory served through read_at from any thread. Once `overlap_wanted` is set, a payload read (one as
// large as the default read-ahead window, which goes to the source without the window's lock) waits (up to two
// seconds) until a second call is in flight at the same time, so that a test sees the decode threads overlap
// instead of hoping they do.
struct SharedSource {
    std::vector<std::uint8_t> bytes;
    std::thread::id opening_thread = std::this_thread::get_id();
    std::atomic<bool> overlap_wanted{false};
    std::atomic<bool> fail_off_the_opening_thread{false};
    std::atomic<int> in_flight{0};
    std::atomic<int> most_in_flight{0};
    std::atomic<bool> called_from_other_thread{false};
    std::atomic<std::uint64_t> fetched{0};
    std::atomic<int> released{0};
};

int64_t shared_read_at(void* context, uint64_t offset, void* destination, size_t length) {
    auto& source = *static_cast<SharedSource*>(context);
    const bool other_thread = std::this_thread::get_id() != source.opening_thread;
    if (other_thread) source.called_from_other_thread = true;
    const int now = ++source.in_flight;
    int most = source.most_in_flight.load();
    while (now > most && !source.most_in_flight.compare_exchange_weak(most, now)) {}
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    const bool payload_read = length >= 65536;
    while (source.overlap_wanted && payload_read && source.most_in_flight < 2 &&
           std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    int64_t result = 0;
    if (other_thread && source.fail_off_the_opening_thread) {
        dbdf_set_callback_error("injected failure on a decode thread");
        result = -1;
    } else if (offset < source.bytes.size()) {
        const std::size_t count = std::min<std::uint64_t>(length, source.bytes.size() - offset);
        std::memcpy(destination, source.bytes.data() + offset, count);
        source.fetched += count;
        result = static_cast<int64_t>(count);
    }
    --source.in_flight;
    return result;
}

void shared_release(void* context) { ++static_cast<SharedSource*>(context)->released; }

dbdf_source_t concurrent_source(SharedSource& shared) {
    dbdf_source_t source = DBDF_SOURCE_INIT;
    source.read_at = shared_read_at;
    source.context = &shared;
    source.size = shared.bytes.size();
    source.release = shared_release;
    source.flags = DBDF_SOURCE_CONCURRENT_READS;
    return source;
}

ReaderHandle open_on_threads(const dbdf_source_t& source, unsigned threads) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.threads = threads;
    dbdf_reader_t* raw = nullptr;
    EXPECT_EQ(dbdf_reader_open_source(&source, &options, &raw), DBDF_OK) << dbdf_last_error_message();
    return ReaderHandle(raw);
}

constexpr std::uint32_t kBlocks = 16;
constexpr std::uint32_t kSide = 256;  // 16 blocks of 512 KiB: several decode threads for a file

double expected_cell(std::uint32_t block, std::uint32_t index) { return 0.1 * (index + block) + 0.37; }

TEST(CapiConcurrentSource, WholeObjectReadsFetchOnSeveralDecodeThreadsAtOnce) {
    SharedSource shared;
    shared.bytes = dense_blocks_file(kBlocks, kSide, kSide);
    {
        ReaderHandle reader = open_on_threads(concurrent_source(shared), 2);
        ASSERT_NE(reader, nullptr);
        shared.overlap_wanted = true;
        std::vector<double> cells(std::size_t{kBlocks} * kSide * kSide);
        ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
        for (const std::uint32_t block : {0u, 7u, 15u}) {
            for (const std::uint32_t index : {0u, 4097u, kSide * kSide - 1}) {
                EXPECT_DOUBLE_EQ(cells[std::size_t{block} * kSide * kSide + index], expected_cell(block, index));
            }
        }
        EXPECT_TRUE(shared.called_from_other_thread);
        EXPECT_GE(shared.most_in_flight, 2);
        // Each payload is fetched once; the records come through the window (read again when a decode thread
        // checks its block's record): at most a window and a record per block more than the file.
        EXPECT_LE(shared.fetched, shared.bytes.size() + 65536 + kBlocks * 64);
    }
    EXPECT_EQ(shared.released, 1);
}

TEST(CapiConcurrentSource, AFailureOnADecodeThreadIsTheCallsIoErrorAndTheReaderGoesOn) {
    SharedSource shared;
    shared.bytes = dense_blocks_file(kBlocks, kSide, kSide);
    ReaderHandle reader = open_on_threads(concurrent_source(shared), 2);
    ASSERT_NE(reader, nullptr);
    shared.overlap_wanted = true;
    shared.fail_off_the_opening_thread = true;
    std::vector<double> cells(std::size_t{kBlocks} * kSide * kSide);
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("injected failure on a decode thread"), std::string::npos) << message;
    EXPECT_NE(message.find("at byte"), std::string::npos) << message;
    EXPECT_NE(dbdf_last_error_offset(), DBDF_NO_OFFSET);
    shared.fail_off_the_opening_thread = false;
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_DOUBLE_EQ(cells[std::size_t{9} * kSide * kSide + 11], expected_cell(9, 11));
}

TEST(CapiConcurrentSource, WithoutTheFlagOnlyTheCallingThreadReads) {
    SharedSource shared;
    shared.bytes = dense_blocks_file(kBlocks, kSide, kSide);
    dbdf_source_t source = concurrent_source(shared);
    source.flags = 0;
    ReaderHandle reader = open_on_threads(source, 4);
    ASSERT_NE(reader, nullptr);
    std::vector<double> cells(std::size_t{kBlocks} * kSide * kSide);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_DOUBLE_EQ(cells[3], expected_cell(0, 3));
    EXPECT_FALSE(shared.called_from_other_thread);
    EXPECT_EQ(shared.most_in_flight, 1);
}

// The dbdf_source_t of 0.2.0, which ended with `release`: what a caller built against that header passes.
struct SourceOf020 {
    size_t struct_size;
    dbdf_read_at_fn read_at;
    void* context;
    uint64_t size;
    size_t read_ahead;
    void (*release)(void* context);
};

TEST(CapiConcurrentSource, TheStructWithoutFlagsStillOpensAndReadsOnTheCallingThread) {
    SharedSource shared;
    shared.bytes = dense_blocks_file(kBlocks, kSide, kSide);
    // On the heap and exactly as large as the old struct, so that a read past it is caught by AddressSanitizer.
    auto old = std::make_unique<SourceOf020>(
        SourceOf020{sizeof(SourceOf020), shared_read_at, &shared, shared.bytes.size(), 0, shared_release});
    static_assert(sizeof(SourceOf020) < sizeof(dbdf_source_t));
    {
        ReaderHandle reader = open_on_threads(*reinterpret_cast<const dbdf_source_t*>(old.get()), 4);
        ASSERT_NE(reader, nullptr);
        std::vector<double> cells(std::size_t{kBlocks} * kSide * kSide);
        ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
        EXPECT_DOUBLE_EQ(cells[std::size_t{15} * kSide * kSide + 2], expected_cell(15, 2));
        EXPECT_FALSE(shared.called_from_other_thread);
    }
    EXPECT_EQ(shared.released, 1);
    old->struct_size = sizeof(SourceOf020) - 1;
    dbdf_reader_t* raw = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_reader_open_source(reinterpret_cast<const dbdf_source_t*>(old.get()), nullptr, &raw));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("struct_size"), std::string::npos);
    EXPECT_EQ(shared.released, 2);
}

TEST(CapiConcurrentSource, UnknownFlagsAreRefusedAndTheSourceReleased) {
    SharedSource shared;
    shared.bytes = dense_blocks_file(1, 2, 2);
    dbdf_source_t source = concurrent_source(shared);
    source.flags = DBDF_SOURCE_CONCURRENT_READS | 4u;
    dbdf_reader_t* raw = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_source(&source, nullptr, &raw));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("flags 5"), std::string::npos) << dbdf_last_error_message();
    EXPECT_EQ(shared.released, 1);
}

}  // namespace
