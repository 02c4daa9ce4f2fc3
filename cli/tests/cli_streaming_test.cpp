// The conversions cli/README.md lists as streamed run in bounded memory: a 320 MiB matrix goes from .dbdf to .npy
// and back with the tool's address space limited to a fifth of that. The .dbdf side is mostly one empty block, so
// the files are quick to write; the .npy file is the full 320 MiB.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dbdf.h"
#include "tool_run.hpp"

namespace {

namespace fs = std::filesystem;
using cli_test::run;
using cli_test::RunSettings;
using cli_test::ToolRun;

constexpr std::uint64_t kRows = 20480;
constexpr std::uint64_t kCols = 2048;
constexpr std::uint64_t kValueBytes = kRows * kCols * sizeof(double);  // 320 MiB
constexpr std::uint64_t kAddressSpaceLimit = std::uint64_t{64} << 20;

double first_row_value(std::uint64_t col) { return 0.5 + static_cast<double>(col); }
double last_row_value(std::uint64_t col) { return -1.0 - static_cast<double>(col); }

// kRows x kCols f64: the first and last rows hold values, every row between is one empty block.
void write_large_matrix(const std::string& path) {
    std::vector<double> first(kCols), last(kCols);
    for (std::uint64_t c = 0; c < kCols; ++c) {
        first[c] = first_row_value(c);
        last[c] = last_row_value(c);
    }
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path.c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer, 0, 0, 1, kCols, DBDF_VALUE_F64, first.data(), kCols, 0, nullptr), DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_add_empty(writer, 1, 0, kRows - 2, kCols), DBDF_OK) << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_add_dense(writer, kRows - 1, 0, 1, kCols, DBDF_VALUE_F64, last.data(), kCols, 0, nullptr),
              DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);
}

std::vector<double> npy_row(const std::string& path, std::uint64_t header_bytes, std::uint64_t row) {
    std::vector<double> values(kCols);
    std::ifstream file(path, std::ios::binary);
    file.seekg(static_cast<std::streamoff>(header_bytes + row * kCols * sizeof(double)));
    file.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(kCols * sizeof(double)));
    return values;
}

std::vector<double> dbdf_row(const std::string& path, std::uint64_t row) {
    std::vector<double> values(kCols);
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << dbdf_last_error_message();
    if (reader == nullptr) return values;
    EXPECT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_F64, row, 0, 1, kCols, values.data(), kCols, 0),
              DBDF_OK)
        << dbdf_last_error_message();
    dbdf_reader_free(reader);
    return values;
}

TEST(CliStreaming, LargeMatrixToNpyAndBackInBoundedMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "sanitizers reserve terabytes of address space, so no address-space limit can be applied";
#endif
    static_assert(kAddressSpaceLimit * 5 == kValueBytes, "the limit is far below the data's size");
    const cli_test::ScratchDirectory scratch("dbdf_cli_streaming");
    const std::string large = scratch.path("large.dbdf");
    const std::string npy = scratch.path("large.npy");
    const std::string back = scratch.path("back.dbdf");
    write_large_matrix(large);
    const RunSettings limited{{}, kAddressSpaceLimit};

    ToolRun result = run("convert " + large + " " + npy, limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::uint64_t npy_size = fs::file_size(npy);
    ASSERT_GT(npy_size, kValueBytes);
    const std::uint64_t header_bytes = npy_size - kValueBytes;
    EXPECT_EQ(header_bytes % 64, 0u);
    const std::vector<double> first = npy_row(npy, header_bytes, 0);
    const std::vector<double> middle = npy_row(npy, header_bytes, kRows / 2);
    const std::vector<double> last = npy_row(npy, header_bytes, kRows - 1);
    for (std::uint64_t c = 0; c < kCols; c += 511) {
        EXPECT_EQ(first[c], first_row_value(c)) << c;
        EXPECT_EQ(middle[c], 0.0) << c;
        EXPECT_EQ(last[c], last_row_value(c)) << c;
    }

    result = run("convert " + npy + " " + back, limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(dbdf_row(back, 0), first);
    EXPECT_EQ(dbdf_row(back, kRows / 2), middle);
    EXPECT_EQ(dbdf_row(back, kRows - 1), last);
    EXPECT_LT(fs::file_size(back), std::uint64_t{1} << 20) << "zero tiles are stored as empty blocks";
}

}  // namespace
