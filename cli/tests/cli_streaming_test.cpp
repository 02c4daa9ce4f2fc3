// The conversions cli/README.md lists as streamed run in bounded memory: a 320 MiB matrix goes from .dbdf to .npy
// and back with the tool's address space limited to a fifth of that. The .dbdf side is mostly one empty block, so
// the files are quick to write; the .npy file is the full 320 MiB. A 320 MiB .npy file also becomes a daphne dense
// matrix, one block of 320 MiB written in row bands. The text formats and .dbdf outputs are checked the same way with
// a 128 MiB matrix, twice the limit, whose text (mostly "0,") takes a quarter of that.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dbdf.h"
#include "tool_run.hpp"
#include "sanitizer_detection.hpp"

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

// rows x kCols f64: the first and last rows hold values, every row between is one empty block.
void write_large_matrix(const std::string& path, std::uint64_t rows = kRows) {
    std::vector<double> first(kCols), last(kCols);
    for (std::uint64_t c = 0; c < kCols; ++c) {
        first[c] = first_row_value(c);
        last[c] = last_row_value(c);
    }
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path.c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, rows, kCols), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer, 0, 0, 1, kCols, DBDF_VALUE_F64, first.data(), kCols, 0, nullptr), DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_add_empty(writer, 1, 0, rows - 2, kCols), DBDF_OK) << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_add_dense(writer, rows - 1, 0, 1, kCols, DBDF_VALUE_F64, last.data(), kCols, 0, nullptr),
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

std::vector<double> dbdf_row(const std::string& path, std::uint64_t row, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC) {
    std::vector<double> values(kCols);
    dbdf_reader_t* reader = nullptr;
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    EXPECT_EQ(dbdf_reader_open_file_with_options(path.c_str(), &options, &reader), DBDF_OK)
        << dbdf_last_error_message();
    if (reader == nullptr) return values;
    EXPECT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_F64, row, 0, 1, kCols, values.data(), kCols, 0), DBDF_OK)
        << dbdf_last_error_message();
    dbdf_reader_free(reader);
    return values;
}

TEST(CliStreaming, LargeMatrixToNpyAndBackInBoundedMemory) {
#ifdef DBDF_TEST_UNDER_SANITIZER
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

// The bytes of two files from the given offsets to their ends are the same; compared a few MiB at a time.
bool same_bytes_from(const std::string& a, std::uint64_t a_offset, const std::string& b, std::uint64_t b_offset) {
    if (fs::file_size(a) - a_offset != fs::file_size(b) - b_offset) return false;
    std::ifstream first(a, std::ios::binary), second(b, std::ios::binary);
    first.seekg(static_cast<std::streamoff>(a_offset));
    second.seekg(static_cast<std::streamoff>(b_offset));
    std::vector<char> first_piece(std::size_t{4} << 20), second_piece(std::size_t{4} << 20);
    while (first && second) {
        first.read(first_piece.data(), static_cast<std::streamsize>(first_piece.size()));
        second.read(second_piece.data(), static_cast<std::streamsize>(second_piece.size()));
        if (first.gcount() != second.gcount()) return false;
        if (std::memcmp(first_piece.data(), second_piece.data(), static_cast<std::size_t>(first.gcount())) != 0) {
            return false;
        }
    }
    return true;
}

// The daphne dialect's dense layout up to the values (DIALECT.md 4.1): 45 bytes.
constexpr std::uint64_t kDaphneDenseHeaderBytes = 45;

TEST(CliStreaming, LargeNpyToDaphneDenseInBoundedMemory) {
#ifdef DBDF_TEST_UNDER_SANITIZER
    GTEST_SKIP() << "sanitizers reserve terabytes of address space, so no address-space limit can be applied";
#endif
    const cli_test::ScratchDirectory scratch("dbdf_cli_streaming");
    const std::string npy = scratch.path("large.npy");
    const std::string daphne = scratch.path("daphne.dbdf");
    // The .npy file written directly: a 128-byte header, then the rows; the first and last hold values.
    {
        std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(kRows) + ", " +
                           std::to_string(kCols) + "), }";
        dict.append(128 - 10 - dict.size() - 1, ' ');
        dict += '\n';
        std::ofstream file(npy, std::ios::binary);
        file << std::string("\x93NUMPY\x01\x00", 8) << static_cast<char>(dict.size() & 0xFF)
             << static_cast<char>(dict.size() >> 8) << dict;
        std::vector<double> row(kCols);
        for (std::uint64_t r = 0; r < kRows; ++r) {
            for (std::uint64_t c = 0; c < kCols; ++c) {
                row[c] = r == 0 ? first_row_value(c) : r == kRows - 1 ? last_row_value(c) : 0.0;
            }
            file.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(kCols * sizeof(double)));
        }
    }
    ASSERT_EQ(fs::file_size(npy), 128 + kValueBytes);

    const ToolRun result =
        run("convert " + npy + " " + daphne + " --dialect-out daphne", RunSettings{{}, kAddressSpaceLimit});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // One block holding every value row-major: the .npy file's data, byte for byte, after the 45-byte header.
    EXPECT_EQ(fs::file_size(daphne), kDaphneDenseHeaderBytes + kValueBytes);
    EXPECT_TRUE(same_bytes_from(npy, 128, daphne, kDaphneDenseHeaderBytes));
    std::ifstream meta(daphne + ".meta");
    std::string meta_text;
    std::getline(meta, meta_text);
    EXPECT_EQ(meta_text, R"({"numCols":2048,"numRows":20480,"valueType":"f64"})");
    const std::vector<double> first = dbdf_row(daphne, 0, DBDF_DIALECT_DAPHNE);
    const std::vector<double> last = dbdf_row(daphne, kRows - 1, DBDF_DIALECT_DAPHNE);
    for (std::uint64_t c = 0; c < kCols; c += 511) {
        EXPECT_EQ(first[c], first_row_value(c)) << c;
        EXPECT_EQ(last[c], last_row_value(c)) << c;
    }
}

// The text conversions' matrix: 128 MiB of f64 values, twice the address-space limit.
constexpr std::uint64_t kTextRows = 8192;
static_assert(kTextRows * kCols * sizeof(double) == 2 * kAddressSpaceLimit, "the values do not fit the limit");

bool skipped_under_sanitizers() {
#ifdef DBDF_TEST_UNDER_SANITIZER
    return true;
#else
    return false;
#endif
}

// The first, a middle and the last row of the matrix write_large_matrix made with kTextRows rows.
void expect_large_matrix_rows(const std::string& path, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC) {
    const std::vector<double> first = dbdf_row(path, 0, dialect);
    const std::vector<double> middle = dbdf_row(path, kTextRows / 2, dialect);
    const std::vector<double> last = dbdf_row(path, kTextRows - 1, dialect);
    for (std::uint64_t c = 0; c < kCols; c += 511) {
        EXPECT_EQ(first[c], first_row_value(c)) << c;
        EXPECT_EQ(middle[c], 0.0) << c;
        EXPECT_EQ(last[c], last_row_value(c)) << c;
    }
}

// The line of a text file that starts after `skip` lines, read without holding the file.
std::string line_after(const std::string& path, std::uint64_t skip) {
    std::ifstream file(path);
    std::string line;
    for (std::uint64_t i = 0; i <= skip && std::getline(file, line); ++i) {}
    return line;
}

TEST(CliStreaming, LargeMatrixToCsvAndBackInBoundedMemory) {
    if (skipped_under_sanitizers()) GTEST_SKIP() << "sanitizers reserve terabytes of address space";
    const cli_test::ScratchDirectory scratch("dbdf_cli_streaming");
    const std::string large = scratch.path("large.dbdf");
    const std::string csv = scratch.path("large.csv");
    const std::string back = scratch.path("back.dbdf");
    write_large_matrix(large, kTextRows);
    const RunSettings limited{{}, kAddressSpaceLimit};

    ToolRun result = run("convert " + large + " " + csv, limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(line_after(csv, 0).substr(0, 12), "0.5,1.5,2.5,");
    EXPECT_EQ(line_after(csv, kTextRows / 2).substr(0, 6), "0,0,0,");
    EXPECT_EQ(line_after(csv, kTextRows - 1).substr(0, 13), "-1,-2,-3,-4,-");

    result = run("convert " + csv + " " + back, limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_large_matrix_rows(back);

    // To the daphne dialect: the 128 MiB block is written in row bands as the text is read.
    const std::string daphne = scratch.path("daphne.dbdf");
    result = run("convert " + csv + " " + daphne + " --dialect-out daphne", limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(fs::file_size(daphne), kDaphneDenseHeaderBytes + kTextRows * kCols * sizeof(double));
    expect_large_matrix_rows(daphne, DBDF_DIALECT_DAPHNE);
}

TEST(CliStreaming, LargeMatrixToMatrixMarketInBoundedMemory) {
    if (skipped_under_sanitizers()) GTEST_SKIP() << "sanitizers reserve terabytes of address space";
    const cli_test::ScratchDirectory scratch("dbdf_cli_streaming");
    const std::string large = scratch.path("large.dbdf");
    const std::string array = scratch.path("large.mtx");
    write_large_matrix(large, kTextRows);
    const ToolRun result = run("convert " + large + " " + array, RunSettings{{}, kAddressSpaceLimit});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // Column-major after the banner, the comment and the size line: column 0 starts with 0.5, ends with -1.
    EXPECT_EQ(line_after(array, 2), "8192 2048");
    EXPECT_EQ(line_after(array, 3), "0.5");
    EXPECT_EQ(line_after(array, 3 + kTextRows - 1), "-1");
    EXPECT_EQ(line_after(array, 3 + kTextRows), "1.5");
    EXPECT_GE(fs::file_size(array), 2 * kTextRows * kCols) << "a line for every cell";
    EXPECT_EQ(line_after(array, 3 + kTextRows * kCols - 1), "-2048");
}

TEST(CliStreaming, LargeDbdfReencodedInBoundedMemory) {
    if (skipped_under_sanitizers()) GTEST_SKIP() << "sanitizers reserve terabytes of address space";
    const cli_test::ScratchDirectory scratch("dbdf_cli_streaming");
    const RunSettings limited{{}, kAddressSpaceLimit};
    // New block shape: 128 MiB of dense tiles written from a file of a few KiB.
    const std::string large = scratch.path("large.dbdf");
    const std::string tiles = scratch.path("tiles.dbdf");
    write_large_matrix(large, kTextRows);
    ToolRun result = run("convert " + large + " " + tiles + " --block 256x2048 --encoding dense", limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_GT(fs::file_size(tiles), 2 * kAddressSpaceLimit);
    expect_large_matrix_rows(tiles);
    // Daphne output: the 128 MiB of values are one block, written in row bands read through the index.
    const std::string daphne = scratch.path("daphne.dbdf");
    result = run("convert " + large + " " + daphne + " --dialect-out daphne", limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(fs::file_size(daphne), kDaphneDenseHeaderBytes + kTextRows * kCols * sizeof(double));
    expect_large_matrix_rows(daphne, DBDF_DIALECT_DAPHNE);
    // In place: one dense block of 32 MiB is re-encoded in tiles of about 4 MiB. Converted as one tile it fits the
    // limit too, since the reader reads the block straight into the tile's values instead of mapping the file next
    // to them (which used to take 32 MiB more and did not fit).
    constexpr std::uint64_t kBlockRows = 4096, kBlockCols = 1024;
    std::vector<double> values(kBlockRows * kBlockCols);
    for (std::uint64_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 1000) + 0.5;
    const std::string block = scratch.path("block.dbdf");
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(block.c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, kBlockRows, kBlockCols), DBDF_OK);
    dbdf_write_options_t dense = DBDF_WRITE_OPTIONS_INIT;
    dense.encoding = DBDF_ENCODING_DENSE;
    ASSERT_EQ(dbdf_writer_add_dense(writer, 0, 0, kBlockRows, kBlockCols, DBDF_VALUE_F64, values.data(), values.size(),
                                    0, &dense),
              DBDF_OK)
        << dbdf_last_error_message();
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);
    const std::string reencoded = scratch.path("reencoded.dbdf");
    result = run("convert " + block + " " + reencoded, limited);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const ToolRun whole = run("convert " + block + " " + scratch.path("whole.dbdf") + " --block 4096x1024", limited);
    EXPECT_EQ(whole.exit_code, 0) << whole.err;
    dbdf_reader_t* reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(reencoded.c_str(), &reader), DBDF_OK);
    std::vector<double> back(values.size());
    ASSERT_EQ(dbdf_reader_read_dense(reader, DBDF_VALUE_F64, back.data(), back.size(), 0), DBDF_OK)
        << dbdf_last_error_message();
    std::uint64_t blocks = 0;
    ASSERT_EQ(dbdf_reader_build_index(reader, &blocks), DBDF_OK);
    dbdf_reader_free(reader);
    EXPECT_TRUE(back == values);
    EXPECT_GT(blocks, 1u) << "the block was re-encoded in tiles";
}

}  // namespace
