// A file that changes while a reader has it open: shrinking it must give an error, never a signal (SIGBUS from a
// mapping would kill the host process), growing it must not change what the reader sees, and inputs that are not
// regular files must be refused at once rather than block (a FIFO without a writer).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::write_to_memory;

constexpr std::uint64_t kRows = 512;
constexpr std::uint64_t kCols = 512;  // 2 MiB of doubles in 16 tiles of 128 x 128

std::vector<double> sample_values() {
    std::vector<double> values(kRows * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 1000) + 0.5;
    return values;
}

// A unique path per test and process: test runners may run several copies of this binary at once.
class ChangingFile : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = std::filesystem::temp_directory_path() /
                ("dbdf_changing_" + std::string(test->name()) + "_" + std::to_string(::getpid()) + ".dbdf");
    }
    void TearDown() override { std::filesystem::remove(path_); }

    void write_file(const std::vector<std::byte>& bytes) const {
        std::ofstream file(path_, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    void write_dense_file(Encoding encoding = Encoding::Dense) const {
        const auto values = sample_values();
        write_file(write_to_memory([&](Writer& writer) {
            writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
            writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{encoding, 128, 128});
        }));
    }
    void truncate_to(std::uint64_t bytes) const { std::filesystem::resize_file(path_, bytes); }

    std::filesystem::path path_;
};

// The error a read gets when the file lost bytes it had when the reader opened it.
void expect_shrank(const std::function<void()>& read) {
    try {
        read();
        FAIL() << "read a file that shrank without an error";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io) << error.what();
        EXPECT_NE(std::string(error.what()).find("the file shrank while being read"), std::string::npos)
            << error.what();
        EXPECT_NE(error.offset(), kNoOffset) << error.what();
    }
}

TEST_F(ChangingFile, DecodingABlockOfAFileThatShrankIsAnError) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    ASSERT_EQ(reader.build_index().size(), 16u);
    truncate_to(100);
    ASSERT_TRUE(reader.next_block());  // the index holds the block already
    std::vector<double> block(128 * 128);
    expect_shrank([&] { reader.decode_dense(ValueType::F64, block.data(), block.size(), 0); });
    // The reader stays usable: the same call reports the same error, and the header is still there.
    expect_shrank([&] { reader.decode_dense(ValueType::F32, block.data(), block.size(), 0); });
    expect_shrank([&] { reader.count_entries(); });
    EXPECT_EQ(reader.header().rows, kRows);
}

TEST_F(ChangingFile, TheErrorSaysHowManyBytesWereExpectedAndWhere) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    ASSERT_TRUE(reader.next_block());
    const BlockView block = reader.block();
    truncate_to(block.payload_offset + 10);
    std::vector<double> values(128 * 128);
    try {
        reader.decode_dense(ValueType::F64, values.data(), values.size(), 0);
        FAIL() << "decoded a block cut short";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
        EXPECT_EQ(error.offset(), block.payload_offset);
        const std::string expected = "the file shrank while being read: expected " +
                                     std::to_string(block.payload_bytes) + " bytes at byte " +
                                     std::to_string(block.payload_offset) + ", got 10";
        EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
}

TEST_F(ChangingFile, WholeObjectReadsOfAFileThatShrankAreAnError) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    reader.build_index();
    truncate_to(4096);
    std::vector<double> values(kRows * kCols);
    for (unsigned threads : {1u, 2u}) {
        reader.set_decode_threads(threads);
        expect_shrank([&] {
            reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, values.data(), values.size(), 0);
        });
        // Converting reads go through the reader's buffers rather than straight into the output.
        std::vector<float> narrow(kRows * kCols);
        expect_shrank([&] {
            reader.read_dense_window(ValueType::F32, Window{0, 0, kRows, kCols}, narrow.data(), narrow.size(), 0);
        });
    }
}

TEST_F(ChangingFile, SparseReadsOfAFileThatShrankAreAnError) {
    write_dense_file(Encoding::Csr);
    Reader reader = Reader::open_file(path_);
    reader.build_index();
    truncate_to(4096);
    std::vector<double> values(kRows * kCols);
    expect_shrank([&] {
        reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, values.data(), values.size(), 0);
    });
    // Counting needs only the block records, which the index holds; the entries themselves need the payloads.
    const std::uint64_t entries = reader.count_entries_total();
    EXPECT_EQ(entries, kRows * kCols);
    std::vector<std::uint64_t> row_offsets(kRows + 1), col_indices(entries);
    expect_shrank([&] {
        reader.read_csr(ValueType::F64, row_offsets.data(), row_offsets.size(), col_indices.data(), values.data(),
                        values.size());
    });
}

TEST_F(ChangingFile, BorrowingThePayloadOfAFileThatShrankIsAnError) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    ASSERT_TRUE(reader.next_block());
    truncate_to(100);
    expect_shrank([&] { reader.payload(); });
}

TEST_F(ChangingFile, WalkingTheBlocksOfAFileThatShrankIsAnError) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    ASSERT_TRUE(reader.next_block());
    truncate_to(reader.block().offset + reader.block().encoded_bytes + 10);
    expect_shrank([&] { reader.next_block(); });
    Reader indexing = Reader::open_file(path_);
    truncate_to(60);
    expect_shrank([&] { indexing.build_index(); });
}

TEST_F(ChangingFile, ValidatingAFileThatShrankReportsIt) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    truncate_to(3000);
    std::vector<Violation> violations;
    try {
        reader.validate([&](const Violation& violation) { violations.push_back(violation); });
        FAIL() << "validated a file that shrank";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io) << error.what();
    }
}

TEST_F(ChangingFile, DaphneDialectReadsOfAFileThatShrankAreAnError) {
    const auto values = sample_values();
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
    writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
    writer.finish();
    write_file(static_cast<MemorySink&>(writer.sink()).bytes());

    Reader reader = Reader::open_file(path_, Dialect::Daphne);
    ASSERT_EQ(reader.build_index().size(), 1u);
    truncate_to(1000);
    std::vector<double> out(values.size());
    expect_shrank([&] {
        reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, out.data(), out.size(), 0);
    });
    ASSERT_TRUE(reader.next_block());
    expect_shrank([&] { reader.decode_dense(ValueType::F64, out.data(), out.size(), 0); });
}

TEST_F(ChangingFile, AFileThatGrowsIsReadAsItWasWhenOpened) {
    write_dense_file();
    Reader reader = Reader::open_file(path_);
    const std::uint64_t size = reader.total_bytes();
    {
        std::ofstream file(path_, std::ios::binary | std::ios::app);
        file << "bytes appended after the reader opened the file";
    }
    EXPECT_EQ(reader.total_bytes(), size);
    EXPECT_EQ(reader.build_index().size(), 16u);
    EXPECT_EQ(reader.validate({}), 0u);
    std::vector<double> values(kRows * kCols);
    reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, values.data(), values.size(), 0);
    EXPECT_EQ(values, sample_values());
}

TEST_F(ChangingFile, AFifoIsRefusedAtOnceRatherThanWaitedOn) {
    ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
    // No process opens the FIFO for writing: opening it for reading the usual way would wait forever.
    try {
        Reader::open_file(path_);
        FAIL() << "opened a FIFO";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
        const std::string message = error.what();
        EXPECT_NE(message.find("is not a regular file: a FIFO"), std::string::npos) << message;
        EXPECT_NE(message.find(path_.filename().string()), std::string::npos) << message;
    }
}

TEST_F(ChangingFile, DirectoriesAndDevicesAreRefused) {
    for (const char* path : {"/dev/null", "/tmp"}) {
        try {
            Reader::open_file(path);
            FAIL() << "opened " << path;
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::Io);
            EXPECT_NE(std::string(error.what()).find("is not a regular file"), std::string::npos) << error.what();
        }
    }
}

}  // namespace
}  // namespace dbdf
