// Readers over caller byte sources (dbdf_reader_open_source): agreement with the memory reader on every golden
// vector through short reads and through failures at every offset, the read-ahead window's fetch bounds, errors,
// release, and the write callback's message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::dense_blocks_file;
using dbdf_test::ReaderHandle;
using dbdf_test::WriterHandle;

constexpr std::uint64_t kNoFailure = UINT64_MAX;

// Bytes in memory served through read_at, with the faults a test asks for, counting what it delivers.
struct TestSource {
    std::vector<std::uint8_t> bytes;
    std::size_t largest_read = SIZE_MAX;  // short reads: at most this many bytes per call
    std::uint64_t fail_at = kNoFailure;   // a read covering this byte fails
    bool excess = false;                  // returns one byte more than asked
    std::uint64_t fetched = 0;
    std::uint64_t calls = 0;
    int released = 0;
    std::thread::id reader_thread = std::this_thread::get_id();
    bool called_from_other_thread = false;
};

int64_t test_read_at(void* context, uint64_t offset, void* destination, size_t length) {
    auto& source = *static_cast<TestSource*>(context);
    ++source.calls;
    if (std::this_thread::get_id() != source.reader_thread) source.called_from_other_thread = true;
    if (offset >= source.bytes.size()) return 0;
    std::size_t count = std::min<std::uint64_t>({length, source.bytes.size() - offset, source.largest_read});
    if (source.fail_at >= offset && source.fail_at < offset + count) {
        dbdf_set_callback_error("injected failure");
        return -1;
    }
    std::memcpy(destination, source.bytes.data() + offset, count);
    source.fetched += count;
    return static_cast<int64_t>(source.excess ? length + 1 : count);
}

void test_release(void* context) { ++static_cast<TestSource*>(context)->released; }

dbdf_source_t source_of(TestSource& test_source, bool declare_size = true, size_t read_ahead = 0) {
    dbdf_source_t source = DBDF_SOURCE_INIT;
    source.read_at = test_read_at;
    source.context = &test_source;
    source.size = declare_size ? test_source.bytes.size() : DBDF_SOURCE_SIZE_UNKNOWN;
    source.read_ahead = read_ahead;
    source.release = test_release;
    return source;
}

dbdf_open_options_t options_for(dbdf_dialect_t dialect) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    return options;
}

std::vector<std::uint8_t> file_bytes(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// Everything a reader says about its input, in one text: the first failing call ends it with its status (and, for
// I/O errors, with a mark that the caller checks the message of).
std::string transcript(dbdf_status_t open_status, dbdf_reader_t* reader) {
    if (open_status != DBDF_OK) return std::string("open ") + dbdf_status_name(open_status);
    std::string text;
    dbdf_object_info_t object{};
    if (dbdf_reader_object_info(reader, &object) != DBDF_OK) return "object info failed";
    text += std::to_string(object.rows) + "x" + std::to_string(object.cols) + " " + std::to_string(object.data_type) +
            "/" + std::to_string(object.value_type) + " " + std::to_string(object.header_bytes) + "/" +
            std::to_string(object.total_bytes) + "\n";
    dbdf_block_info_t info{};
    dbdf_status_t status = DBDF_OK;
    while ((status = dbdf_reader_next_block(reader, &info)) == DBDF_OK) {
        text += "block " + std::to_string(info.index) + " at " + std::to_string(info.offset) + " (" +
                std::to_string(info.row) + "," + std::to_string(info.col) + ") " + std::to_string(info.rows) + "x" +
                std::to_string(info.cols) + " type " + std::to_string(info.block_type) + ":";
        const void* payload = nullptr;
        size_t payload_bytes = 0;
        status = dbdf_reader_block_payload(reader, &payload, &payload_bytes);
        if (status != DBDF_OK) break;
        const auto* first = static_cast<const std::uint8_t*>(payload);
        text += std::string(first, first + payload_bytes);
        if (std::uint64_t{info.rows} * info.cols <= (1u << 16)) {
            std::vector<double> cells(static_cast<std::size_t>(info.rows) * info.cols);
            status = dbdf_reader_block_decode_dense(reader, DBDF_VALUE_F64, cells.data(), cells.size(), 0);
            if (status == DBDF_OK) {
                text.append(reinterpret_cast<const char*>(cells.data()), cells.size() * sizeof(double));
            } else if (status == DBDF_ERR_IO) {
                break;
            } else {
                text += std::string(" decode ") + dbdf_status_name(status);
            }
        }
        text += "\n";
    }
    text += std::string("end ") + dbdf_status_name(status);
    if (status == DBDF_ERR_IO) return text;
    uint64_t violations = 0;
    status = dbdf_reader_validate(reader, nullptr, nullptr, &violations);
    text += std::string(" validate ") + dbdf_status_name(status) + " " + std::to_string(violations);
    return text;
}

struct Vector {
    std::filesystem::path path;
    dbdf_dialect_t dialect;
};

std::vector<Vector> every_vector() {
    std::vector<Vector> vectors;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(DBDF_VECTORS_DIR)) {
        if (entry.path().extension() != ".dbdf") continue;
        const bool daphne = entry.path().parent_path().filename() == "daphne-runtime";
        vectors.push_back({entry.path(), daphne ? DBDF_DIALECT_DAPHNE : DBDF_DIALECT_SPEC});
    }
    EXPECT_GT(vectors.size(), 100u);
    return vectors;
}

std::string memory_transcript(const std::vector<std::uint8_t>& bytes, dbdf_dialect_t dialect) {
    const dbdf_open_options_t options = options_for(dialect);
    dbdf_reader_t* raw = nullptr;
    const dbdf_status_t status = dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &raw);
    ReaderHandle reader(raw);
    return transcript(status, reader.get());
}

std::string source_transcript(TestSource& test_source, dbdf_dialect_t dialect, bool declare_size = true) {
    const dbdf_open_options_t options = options_for(dialect);
    const dbdf_source_t source = source_of(test_source, declare_size);
    dbdf_reader_t* raw = nullptr;
    const dbdf_status_t status = dbdf_reader_open_source(&source, &options, &raw);
    std::string text;
    {
        ReaderHandle reader(raw);
        text = transcript(status, reader.get());
    }
    EXPECT_EQ(test_source.released, 1);
    return text;
}

TEST(CapiSource, EveryVectorReadsAsFromMemoryThroughShortReads) {
    for (const Vector& vector : every_vector()) {
        SCOPED_TRACE(vector.path.string());
        TestSource test_source;
        test_source.bytes = file_bytes(vector.path);
        test_source.largest_read = test_source.bytes.size() <= 2048 ? 1 : 7;
        const std::string expected = memory_transcript(test_source.bytes, vector.dialect);
        EXPECT_EQ(source_transcript(test_source, vector.dialect), expected);
        TestSource unsized;
        unsized.bytes = test_source.bytes;
        EXPECT_EQ(source_transcript(unsized, vector.dialect, false), expected);
    }
}

// A failure at any byte surfaces as DBDF_ERR_IO carrying the callback's message, or (where the byte is never read)
// not at all; the reader never crashes or leaks (the sanitize preset runs this too), and is released once.
TEST(CapiSource, EveryVectorFailingAtEveryOffsetGivesIoErrorsWithTheMessage) {
    for (const Vector& vector : every_vector()) {
        SCOPED_TRACE(vector.path.string());
        const std::vector<std::uint8_t> bytes = file_bytes(vector.path);
        const std::string expected = memory_transcript(bytes, vector.dialect);
        for (std::uint64_t fail_at = 0; fail_at < bytes.size(); ++fail_at) {
            TestSource test_source;
            test_source.bytes = bytes;
            test_source.fail_at = fail_at;
            const std::string text = source_transcript(test_source, vector.dialect);
            if (text == expected) continue;
            const bool io_error =
                text == "open io" || text.ends_with("end io") || text.find(" validate io") != std::string::npos;
            EXPECT_TRUE(io_error) << "failing at byte " << fail_at << ": " << text;
            const std::string message = dbdf_last_error_message();
            EXPECT_NE(message.find("injected failure"), std::string::npos) << message;
            EXPECT_NE(message.find("at byte"), std::string::npos) << message;
            if (HasFailure()) return;
        }
    }
}

ReaderHandle open_test_source(TestSource& test_source, dbdf_dialect_t dialect, size_t read_ahead) {
    const dbdf_open_options_t options = options_for(dialect);
    const dbdf_source_t source = source_of(test_source, true, read_ahead);
    dbdf_reader_t* raw = nullptr;
    EXPECT_EQ(dbdf_reader_open_source(&source, &options, &raw), DBDF_OK) << dbdf_last_error_message();
    return ReaderHandle(raw);
}

constexpr std::uint64_t kHeaderBytesBound = 64;  // what a record or a matrix header fetches at most

// Reading block k of a 1,024-block file fetches at most its payload, the records before it and one window.
TEST(CapiSource, ReadingOneBlockFetchesItsPayloadTheRecordsBeforeItAndOneWindow) {
    const std::vector<std::uint8_t> bytes = dense_blocks_file(1024, 16, 16);
    for (const size_t read_ahead : {size_t{0}, size_t{4096}}) {
        const std::uint64_t window = read_ahead == 0 ? 65536 : read_ahead;
        for (const std::uint64_t k : {0u, 1u, 100u, 700u, 1023u}) {
            SCOPED_TRACE("window " + std::to_string(window) + ", block " + std::to_string(k));
            TestSource test_source;
            test_source.bytes = bytes;
            ReaderHandle reader = open_test_source(test_source, DBDF_DIALECT_SPEC, read_ahead);
            dbdf_block_info_t info{};
            for (std::uint64_t i = 0; i <= k; ++i) ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
            std::vector<double> cells(256);
            ASSERT_OK(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
            EXPECT_DOUBLE_EQ(cells[5], 0.1 * static_cast<double>(5 + k) + 0.37);
            const std::uint64_t payload = info.encoded_bytes;
            EXPECT_LE(test_source.fetched, payload + kHeaderBytesBound * (k + 2) + window);
        }
    }
}

// Building the index of a file of large blocks fetches at most 64 bytes per block and one window.
TEST(CapiSource, IndexOfLargeBlocksFetches64BytesPerBlockAndOneWindow) {
    const std::vector<std::uint8_t> bytes = dense_blocks_file(64, 128, 128);  // 128 KiB per block
    for (const size_t read_ahead : {size_t{0}, size_t{4096}}) {
        const std::uint64_t window = read_ahead == 0 ? 65536 : read_ahead;
        TestSource test_source;
        test_source.bytes = bytes;
        ReaderHandle reader = open_test_source(test_source, DBDF_DIALECT_SPEC, read_ahead);
        uint64_t blocks = 0;
        ASSERT_OK(dbdf_reader_build_index(reader.get(), &blocks));
        EXPECT_EQ(blocks, 64u);
        EXPECT_LE(test_source.fetched, kHeaderBytesBound * (blocks + 1) + window);
    }
}

// The window coalesces the records of small blocks: one call reads many.
TEST(CapiSource, IndexOfSmallBlocksTakesAFewCalls) {
    TestSource test_source;
    test_source.bytes = dense_blocks_file(1024, 1, 4);
    ReaderHandle reader = open_test_source(test_source, DBDF_DIALECT_SPEC, 0);
    uint64_t blocks = 0;
    ASSERT_OK(dbdf_reader_build_index(reader.get(), &blocks));
    EXPECT_EQ(blocks, 1024u);
    EXPECT_LE(test_source.calls, 4u);
}

TEST(CapiSource, DaphneDialectOpensWithTheHeaderAndOneWindowAndReadsAsFromMemory) {
    dbdf_writer_options_t writer_options = DBDF_WRITER_OPTIONS_INIT;
    writer_options.dialect = DBDF_DIALECT_DAPHNE;
    const std::vector<std::uint8_t> bytes = dense_blocks_file(1, 512, 256, &writer_options);  // 1 MiB of values
    TestSource test_source;
    test_source.bytes = bytes;
    ReaderHandle reader = open_test_source(test_source, DBDF_DIALECT_DAPHNE, 0);
    EXPECT_LE(test_source.fetched, 2 * kHeaderBytesBound + 65536);
    std::vector<double> cells(512 * 256);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_DOUBLE_EQ(cells[1000], 0.1 * 1000 + 0.37);
    EXPECT_LE(test_source.fetched, bytes.size() + 65536);
}

TEST(CapiSource, WholeObjectReadsCallTheSourceOnlyFromTheCallingThread) {
    TestSource test_source;
    test_source.bytes = dense_blocks_file(16, 256, 256);  // 8 MiB: several decode threads for a file
    dbdf_open_options_t options = options_for(DBDF_DIALECT_SPEC);
    options.threads = 4;
    const dbdf_source_t source = source_of(test_source);
    dbdf_reader_t* raw = nullptr;
    ASSERT_OK(dbdf_reader_open_source(&source, &options, &raw));
    ReaderHandle reader(raw);
    std::vector<double> cells(std::size_t{16} * 256 * 256);
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_DOUBLE_EQ(cells[256 * 256 * 3 + 7], 0.1 * (7 + 3) + 0.37);
    EXPECT_FALSE(test_source.called_from_other_thread);
}

TEST(CapiSource, AReaderWorksAgainAfterTheSourceFailedOnce) {
    TestSource test_source;
    test_source.bytes = dense_blocks_file(4, 64, 64);
    // A window smaller than a payload: the payload is read when decoded, not along with the record before it.
    ReaderHandle reader = open_test_source(test_source, DBDF_DIALECT_SPEC, 4096);
    dbdf_block_info_t info{};
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
    test_source.fail_at = info.offset + info.encoded_bytes - 1;  // the payload's last byte
    std::vector<double> cells(64 * 64);
    EXPECT_STATUS(DBDF_ERR_IO,
                  dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("injected failure"), std::string::npos);
    test_source.fail_at = kNoFailure;
    ASSERT_OK(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F64, cells.data(), cells.size(), 0));
    EXPECT_DOUBLE_EQ(cells[10], 0.1 * 10 + 0.37);
    ASSERT_OK(dbdf_reader_next_block(reader.get(), &info));
    EXPECT_EQ(info.index, 1u);
}

TEST(CapiSource, SourceFaultsAreIoErrorsNamingTheByte) {
    const std::vector<std::uint8_t> bytes = dense_blocks_file(2, 8, 8);
    {
        SCOPED_TRACE("more bytes than asked");
        TestSource test_source;
        test_source.bytes = bytes;
        test_source.excess = true;
        const dbdf_source_t source = source_of(test_source);
        dbdf_reader_t* raw = nullptr;
        EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_source(&source, nullptr, &raw));
        EXPECT_NE(std::string(dbdf_last_error_message()).find("returned"), std::string::npos);
        EXPECT_EQ(test_source.released, 1);
    }
    {
        SCOPED_TRACE("ends before its declared size");
        TestSource test_source;
        test_source.bytes = bytes;
        dbdf_source_t source = source_of(test_source);
        source.size = bytes.size() + 100;
        dbdf_reader_t* raw = nullptr;
        dbdf_status_t status = dbdf_reader_open_source(&source, nullptr, &raw);
        ReaderHandle reader(raw);
        uint64_t blocks = 0;
        // Where the window reaches the end when opening, opening fails; else building the index does.
        if (status == DBDF_OK) status = dbdf_reader_build_index(reader.get(), &blocks);
        EXPECT_EQ(status, DBDF_ERR_IO);
        EXPECT_NE(std::string(dbdf_last_error_message()).find("ended at byte " + std::to_string(bytes.size())),
                  std::string::npos)
            << dbdf_last_error_message();
    }
    {
        SCOPED_TRACE("failure without a message");
        struct Silent {
            static int64_t read_at(void*, uint64_t, void*, size_t) { return -1; }
        };
        dbdf_source_t source = DBDF_SOURCE_INIT;
        source.read_at = Silent::read_at;
        source.size = 100;
        dbdf_reader_t* raw = nullptr;
        EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_source(&source, nullptr, &raw));
        EXPECT_NE(std::string(dbdf_last_error_message()).find("failed reading 100 bytes at byte 0"), std::string::npos)
            << dbdf_last_error_message();
    }
}

TEST(CapiSource, BadArgumentsAreRefusedAndTheSourceReleasedOnce) {
    TestSource test_source;
    test_source.bytes = dense_blocks_file(1, 2, 2);
    dbdf_reader_t* raw = nullptr;
    const auto expect_refused = [&](dbdf_source_t source, const dbdf_open_options_t* options, dbdf_reader_t** out,
                                    const char* names) {
        test_source.released = 0;
        EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_source(&source, options, out));
        EXPECT_NE(std::string(dbdf_last_error_message()).find(names), std::string::npos) << dbdf_last_error_message();
        EXPECT_EQ(test_source.released, 1) << names;
    };
    expect_refused(source_of(test_source), nullptr, nullptr, "out");
    dbdf_open_options_t mapped = DBDF_OPEN_OPTIONS_INIT;
    mapped.memory_map = 1;
    expect_refused(source_of(test_source), &mapped, &raw, "memory_map");
    dbdf_source_t small = source_of(test_source);
    small.struct_size = 8;
    expect_refused(small, nullptr, &raw, "struct_size");
    dbdf_source_t greedy = source_of(test_source);
    greedy.read_ahead = size_t{1} << 30;
    expect_refused(greedy, nullptr, &raw, "read-ahead");
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_source(nullptr, nullptr, &raw));
    dbdf_source_t no_function = source_of(test_source);
    no_function.read_at = nullptr;
    test_source.released = 0;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_source(&no_function, nullptr, &raw));
    EXPECT_EQ(test_source.released, 0);
}

TEST(CapiSource, AnUnsizedSourceIsProbedNotReadWhole) {
    TestSource test_source;
    test_source.bytes = dense_blocks_file(8, 128, 128);  // 1 MiB
    dbdf_source_t source = source_of(test_source, false);
    dbdf_reader_t* raw = nullptr;
    ASSERT_OK(dbdf_reader_open_source(&source, nullptr, &raw));
    ReaderHandle reader(raw);
    dbdf_object_info_t object{};
    ASSERT_OK(dbdf_reader_object_info(reader.get(), &object));
    EXPECT_EQ(object.total_bytes, test_source.bytes.size());
    EXPECT_LE(test_source.calls, 64u);
    EXPECT_LE(test_source.fetched, 65536u + 64u);
}

int failing_write(void* context, const void*, size_t) {
    ++*static_cast<int*>(context);
    dbdf_set_callback_error("the disk is full");
    return 1;
}

TEST(CapiSource, AWriteCallbackStopsTheWriterWithItsMessage) {
    int calls = 0;
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_callback(failing_write, &calls, &raw));
    WriterHandle writer(raw);
    const double values[4] = {1.5, 2.5, 3.5, 4.5};
    dbdf_status_t status = dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2);
    if (status == DBDF_OK)
        status = dbdf_writer_add_dense(writer.get(), 0, 0, 2, 2, DBDF_VALUE_F64, values, 4, 0, nullptr);
    if (status == DBDF_OK) status = dbdf_writer_finish(writer.get());
    EXPECT_EQ(status, DBDF_ERR_SINK);
    EXPECT_NE(std::string(dbdf_last_error_message()).find("the disk is full"), std::string::npos)
        << dbdf_last_error_message();
    EXPECT_GE(calls, 1);
}

}  // namespace
