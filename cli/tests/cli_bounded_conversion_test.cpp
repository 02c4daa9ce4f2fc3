// Conversions cost what exists, whatever shape an object claims: a valid 44-byte file holding a
// (2^32 - 1) x (2^32 - 1) matrix of one empty block converts in bounded memory (its text outputs stream until a file
// size limit stops them cleanly), an output that cannot exist is refused up front, and objects without cells (2^63
// x 0 and the like) convert at once. A hang here shows as the test's CTest timeout.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"
#include "tool_run.hpp"
#include "sanitizer_detection.hpp"

namespace {

using cli_test::CliTest;
using cli_test::run;
using cli_test::RunSettings;
using cli_test::ToolRun;

constexpr std::uint64_t kMaxExtent = 0xFFFFFFFFull;
constexpr std::uint64_t kTwoTo63 = std::uint64_t{1} << 63;

void put(std::string& bytes, std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

// A spec matrix header (version 1, data type, rows, cols, f64), as the format's layout table gives it.
std::string matrix_header(std::uint64_t data_type, std::uint64_t rows, std::uint64_t cols) {
    std::string bytes;
    put(bytes, 1, 1);
    put(bytes, data_type, 1);
    put(bytes, rows, 8);
    put(bytes, cols, 8);
    put(bytes, DBDF_VALUE_F64, 1);
    return bytes;
}

// The record of an empty block: position, shape and block type 0.
std::string empty_block(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols) {
    std::string bytes;
    put(bytes, row, 8);
    put(bytes, col, 8);
    put(bytes, rows, 4);
    put(bytes, cols, 4);
    put(bytes, DBDF_BLOCK_EMPTY, 1);
    return bytes;
}

// The tool's address space is limited where that can be done: sanitizers reserve terabytes of it.
RunSettings bounded(std::optional<std::uint64_t> file_size = std::nullopt) {
    RunSettings settings;
#ifndef DBDF_TEST_UNDER_SANITIZER
    settings.address_space_bytes = std::uint64_t{64} << 20;
#endif
    settings.file_size_bytes = file_size;
    return settings;
}

std::vector<dbdf_block_info_t> blocks_of(const std::string& path) {
    std::vector<dbdf_block_info_t> blocks;
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << dbdf_last_error_message();
    if (reader == nullptr) return blocks;
    dbdf_block_info_t block{};
    while (dbdf_reader_next_block(reader, &block) == DBDF_OK) blocks.push_back(block);
    dbdf_reader_free(reader);
    return blocks;
}

class CliBoundedConversion : public CliTest {
protected:
    CliBoundedConversion() {
        huge_ = path("huge.dbdf");
        write_bytes("huge.dbdf",
                    matrix_header(DBDF_DATA_DENSE, kMaxExtent, kMaxExtent) + empty_block(0, 0, kMaxExtent, kMaxExtent));
        inputs_ = files_in_directory();
    }
    // Only the inputs are left in the directory: a failed conversion leaves no temporary file behind.
    void expect_nothing_written() const { EXPECT_EQ(files_in_directory(), inputs_); }

    std::size_t inputs_ = 0;

    std::string huge_;  // 44 bytes: a (2^32 - 1) x (2^32 - 1) f64 matrix of one empty block
};

TEST_F(CliBoundedConversion, HugeEmptyMatrixStaysOneEmptyBlock) {
    ASSERT_EQ(std::filesystem::file_size(huge_), 44u);
    for (const std::string options : {"", " --encoding as-is", " --encoding dense"}) {
        const std::string output = path("out.dbdf");
        const ToolRun result = run("convert " + huge_ + " " + output + options, bounded());
        ASSERT_EQ(result.exit_code, 0) << options << ": " << result.err;
        const dbdf_object_info_t info = cli_test::object_info_of(output);
        EXPECT_EQ(info.rows, kMaxExtent);
        EXPECT_EQ(info.cols, kMaxExtent);
        const std::vector<dbdf_block_info_t> blocks = blocks_of(output);
        ASSERT_EQ(blocks.size(), 1u) << options;
        EXPECT_EQ(blocks[0].block_type, DBDF_BLOCK_EMPTY);
        EXPECT_EQ(blocks[0].rows, kMaxExtent);
        EXPECT_EQ(blocks[0].cols, kMaxExtent);
    }
}

// New tiles over the input's empty block are empty blocks, made without reading a cell: their number is the work.
TEST_F(CliBoundedConversion, HugeEmptyMatrixInNewTilesCostsItsBlocks) {
    const std::string output = path("tiles.dbdf");
    const ToolRun result = run("convert " + huge_ + " " + output + " --block 2147483648x2147483648", bounded());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::vector<dbdf_block_info_t> blocks = blocks_of(output);
    ASSERT_EQ(blocks.size(), 4u);
    const std::uint64_t half = std::uint64_t{1} << 31;
    const std::uint64_t rest = kMaxExtent - half;
    const std::uint64_t rows[] = {half, half, rest, rest};
    const std::uint64_t cols[] = {half, rest, half, rest};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(blocks[i].block_type, DBDF_BLOCK_EMPTY) << i;
        EXPECT_EQ(blocks[i].row, i < 2 ? 0 : half) << i;
        EXPECT_EQ(blocks[i].col, i % 2 == 0 ? 0 : half) << i;
        EXPECT_EQ(blocks[i].rows, rows[i]) << i;
        EXPECT_EQ(blocks[i].cols, cols[i]) << i;
    }
}

// Text outputs of 2^64 values stream: with the output limited to 1 MiB, each stops at the limit with a clear error
// (exit 2), in bounded memory, and leaves nothing behind. So does re-tiling into 2^64 blocks of 1 x 1.
TEST_F(CliBoundedConversion, EndlessOutputsStopCleanlyAtTheFileSizeLimit) {
    for (const std::string target : {"out.csv", "out.mtx", "out.dbdf --block 1x1"}) {
        const ToolRun result = run("convert " + huge_ + " " + path(target), bounded(std::uint64_t{1} << 20));
        EXPECT_EQ(result.exit_code, 2) << target << ": " << result.err;
        EXPECT_NE(result.err.find("File too large"), std::string::npos) << target << ": " << result.err;
        expect_nothing_written();
    }
}

TEST_F(CliBoundedConversion, NpyOutputThatCannotExistIsRefused) {
    ToolRun result = run("convert " + huge_ + " " + path("out.npy"), bounded());
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("out.npy") +
                              ": a 4294967295 x 4294967295 array of f64 cannot be an .npy file: its data would take "
                              "2^63 bytes or more, beyond what NumPy can address\n");
    expect_nothing_written();
    write_bytes("tall.dbdf", matrix_header(DBDF_DATA_DENSE, kTwoTo63, 0));
    result = run("convert " + path("tall.dbdf") + " " + path("out.npy"), bounded());
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("out.npy") +
                              ": a 9223372036854775808 x 0 array of f64 cannot be an .npy file: NumPy's dimensions "
                              "stop at 2^63 - 1\n");
    EXPECT_FALSE(std::filesystem::exists(path("out.npy")));
}

// Objects without cells: no step per row band or column of what they claim.
TEST_F(CliBoundedConversion, TallMatrixWithoutColumnsInOneByOneBlocks) {
    write_bytes("tall.dbdf", matrix_header(DBDF_DATA_DENSE, kTwoTo63, 0));
    const ToolRun result = run("convert " + path("tall.dbdf") + " " + path("out.dbdf") + " --block 1x1", bounded());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const dbdf_object_info_t info = cli_test::object_info_of(path("out.dbdf"));
    EXPECT_EQ(info.rows, kTwoTo63);
    EXPECT_EQ(info.cols, 0u);
    EXPECT_TRUE(blocks_of(path("out.dbdf")).empty());
}

TEST_F(CliBoundedConversion, WideMatrixWithoutRowsToMatrixMarket) {
    write_bytes("wide.dbdf", matrix_header(DBDF_DATA_DENSE, 0, kTwoTo63));
    const ToolRun result = run("convert " + path("wide.dbdf") + " " + path("out.mtx"), bounded());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(cli_test::contents(path("out.mtx")),
              "%%MatrixMarket matrix array real general\n% written by dbdf\n0 9223372036854775808\n");
}

TEST_F(CliBoundedConversion, NpyWithoutColumns) {
    write_bytes("long.npy", cli_test::npy_bytes("<f8", "(9223372036854775807, 0)", false, ""));
    const ToolRun result = run("convert " + path("long.npy") + " " + path("out.dbdf"), bounded());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const dbdf_object_info_t info = cli_test::object_info_of(path("out.dbdf"));
    EXPECT_EQ(info.rows, kTwoTo63 - 1);
    EXPECT_EQ(info.cols, 0u);
}

TEST_F(CliBoundedConversion, MatrixMarketArrayWithoutColumns) {
    write_bytes("long.mtx", "%%MatrixMarket matrix array real general\n9223372036854775807 0\n");
    for (const std::string options : {"", " --block 1x1"}) {
        const ToolRun result = run("convert " + path("long.mtx") + " " + path("out.dbdf") + options, bounded());
        ASSERT_EQ(result.exit_code, 0) << options << ": " << result.err;
        const dbdf_object_info_t info = cli_test::object_info_of(path("out.dbdf"));
        EXPECT_EQ(info.rows, kTwoTo63 - 1);
        EXPECT_EQ(info.cols, 0u);
    }
}

// Two empty blocks of (2^32 - 1) x (2^32 - 1): 2^65 cells, more lines than an array file can count.
TEST_F(CliBoundedConversion, MatrixMarketArrayOfTwoTo64ValuesIsRefused) {
    write_bytes("big.dbdf", matrix_header(DBDF_DATA_DENSE, 2 * kMaxExtent, kMaxExtent) +
                                empty_block(0, 0, kMaxExtent, kMaxExtent) +
                                empty_block(kMaxExtent, 0, kMaxExtent, kMaxExtent));
    const ToolRun result = run("convert " + path("big.dbdf") + " " + path("out.mtx"), bounded());
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("out.mtx") +
                              ": a 8589934590 x 4294967295 matrix cannot be a Matrix Market array file: it would list "
                              "2^64 values or more\n");
    EXPECT_FALSE(std::filesystem::exists(path("out.mtx")));
}

}  // namespace
