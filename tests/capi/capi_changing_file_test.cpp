// A file that changes while a C reader has it open: a shrunk file gives DBDF_ERR_IO with a message that says so,
// never a signal; a FIFO is refused at once; the memory mapping is only used when the options ask for it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using namespace dbdf_test;

constexpr std::uint64_t kRows = 512;
constexpr std::uint64_t kCols = 512;

std::vector<std::uint8_t> large_matrix() {
    WriterHandle writer = memory_writer();
    std::vector<double> values(kRows * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 1000) + 0.5;
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = DBDF_ENCODING_DENSE;
    options.block_rows = 128;
    options.block_cols = 128;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), DBDF_OK);
    EXPECT_EQ(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, &options),
              DBDF_OK);
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK);
    return finished_bytes(writer.get());
}

class CapiChangingFile : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = std::filesystem::temp_directory_path() /
                ("dbdf_capi_changing_" + std::string(test->name()) + "_" + std::to_string(::getpid()) + ".dbdf");
    }
    void TearDown() override { std::filesystem::remove(path_); }

    void write_file(const std::vector<std::uint8_t>& bytes) const {
        std::ofstream file(path_, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    ReaderHandle open(int memory_map = 0) const {
        dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
        options.memory_map = memory_map;
        dbdf_reader_t* reader = nullptr;
        EXPECT_EQ(dbdf_reader_open_file_with_options(path_.c_str(), &options, &reader), DBDF_OK)
            << dbdf_last_error_message();
        return ReaderHandle(reader);
    }

    std::filesystem::path path_;
};

void expect_shrank(dbdf_status_t status) {
    EXPECT_EQ(status, DBDF_ERR_IO) << dbdf_status_name(status);
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("the file shrank while being read"), std::string::npos) << message;
}

TEST_F(CapiChangingFile, ReadsOfAFileThatShrankFailWithIoAndTheReaderStaysUsable) {
    write_file(large_matrix());
    ReaderHandle reader = open();
    std::uint64_t blocks = 0;
    ASSERT_OK(dbdf_reader_build_index(reader.get(), &blocks));
    ASSERT_EQ(blocks, 16u);
    ASSERT_OK(dbdf_reader_next_block(reader.get(), nullptr));
    std::filesystem::resize_file(path_, 100);

    std::vector<double> values(kRows * kCols);
    expect_shrank(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F64, values.data(), values.size(), 0));
    expect_shrank(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, values.data(), values.size(), 0));
    const void* payload = nullptr;
    size_t payload_bytes = 0;
    expect_shrank(dbdf_reader_block_payload(reader.get(), &payload, &payload_bytes));
    EXPECT_EQ(payload, nullptr);  // out-parameters are left unchanged on failure
    // Still usable: the index stands, the same call fails the same way, other blocks can be asked for.
    ASSERT_OK(dbdf_reader_seek_block(reader.get(), 3));
    expect_shrank(dbdf_reader_block_decode_dense(reader.get(), DBDF_VALUE_F32, values.data(), values.size(), 0));
}

TEST_F(CapiChangingFile, TheOptInMappingReadsTheSameValues) {
    const auto bytes = large_matrix();
    write_file(bytes);
    for (int memory_map : {0, 1}) {
        ReaderHandle reader = open(memory_map);
        std::vector<double> values(kRows * kCols);
        ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, values.data(), values.size(), 0));
        EXPECT_EQ(values[kCols + 3], static_cast<double>((kCols + 3) % 1000) + 0.5) << memory_map;
        ASSERT_OK(dbdf_reader_next_block(reader.get(), nullptr));
        const void* payload = nullptr;
        size_t payload_bytes = 0;
        ASSERT_OK(dbdf_reader_block_payload(reader.get(), &payload, &payload_bytes));
        ASSERT_EQ(payload_bytes, 128u * 128 * 8);
        double second = 0;
        std::memcpy(&second, static_cast<const char*>(payload) + 8, 8);
        EXPECT_EQ(second, 1.5) << memory_map;
    }
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.memory_map = 2;
    dbdf_reader_t* reader = nullptr;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_file_with_options(path_.c_str(), &options, &reader));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("memory_map"), std::string::npos);
    EXPECT_EQ(reader, nullptr);
}

TEST_F(CapiChangingFile, AFifoWithoutWriterIsRefusedAtOnce) {
    ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
    dbdf_reader_t* reader = nullptr;
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_file(path_.c_str(), &reader));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("is not a regular file: a FIFO"), std::string::npos)
        << dbdf_last_error_message();
    EXPECT_EQ(reader, nullptr);
}

}  // namespace
