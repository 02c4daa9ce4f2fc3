// A whole matrix written from a mapping of the input (cli/src/formats/mapped_matrix.*): the blocks are those of the
// tile-by-tile path, and an input that loses the bytes the kernel is about to write ends the conversion with the
// same clear error as a SIGBUS in the mapping would, and no output file.
#include <gtest/gtest.h>

#include <dbdf.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/guarded_mapping.hpp"
#include "formats/mapped_matrix.hpp"
#include "formats/tiling.hpp"
#include "handles.hpp"
#include "process_mappings.hpp"
#include "tool_run.hpp"

namespace {

using namespace dbdf_cli;
namespace fs = std::filesystem;

constexpr std::uint64_t kRows = 300, kCols = 2048;

std::vector<double> numbered_values() {
    std::vector<double> values(kRows * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.25 * static_cast<double>(i % 1000);
    return values;
}

std::string bytes_of(const std::vector<double>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}

TEST(MappedMatrix, IsWrittenInTheBlocksOfTheTilesAndHoldsTheValues) {
    const cli_test::ScratchDirectory scratch("dbdf_mapped_matrix");
    const std::vector<double> values = numbered_values();
    scratch.write("in.bin", bytes_of(values));
    const std::string output_path = scratch.path("out.dbdf");
    GuardedMapping mapped(scratch.path("in.bin"));
    OutputSettings settings;
    settings.options.block_rows = 128;   // three row bands, the last one of 44 rows
    settings.options.block_cols = 1000;  // three column tiles, the last one of 48 columns
    Writer writer = open_writer(output_path);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), DBDF_OK);
    ASSERT_TRUE(write_mapped_matrix(OutputTarget{writer.get(), output_path}, mapped, 0, kRows, kCols, DBDF_VALUE_F64,
                                    settings));
    ASSERT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();

    dbdf_reader_t* reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(output_path.c_str(), &reader), DBDF_OK);
    std::uint64_t blocks = 0;
    dbdf_block_info_t block;
    while (dbdf_reader_next_block(reader, &block) == DBDF_OK) {
        EXPECT_EQ(block.row % 128, 0u);
        EXPECT_EQ(block.col % 1000, 0u);
        EXPECT_EQ(block.rows, std::min<std::uint64_t>(128, kRows - block.row));
        EXPECT_EQ(block.cols, std::min<std::uint64_t>(1000, kCols - block.col));
        ++blocks;
    }
    EXPECT_EQ(blocks, 9u);
    std::vector<double> back(values.size());
    EXPECT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_F64, 0, 0, kRows, kCols, back.data(), back.size(), 0),
              DBDF_OK);
    EXPECT_EQ(back, values);
    dbdf_reader_free(reader);
}

// A window of 64 MiB or more is populated on several threads before the writer reads it: every page is mapped when
// bytes() returns (where its own populate runs on one thread and MAP_POPULATE is left out), slices of whole 2 MiB
// included, up to the odd end of the file, and the bytes are the file's.
TEST(MappedMatrix, ALargeWindowIsMappedWholeBeforeItIsRead) {
    const cli_test::ScratchDirectory scratch("dbdf_mapped_matrix");
    const std::size_t file_bytes = GuardedMapping::kPopulatedOnThreadsFrom + 3 * 4096 + 123;
    std::string contents(file_bytes, '\0');
    for (std::size_t i = 0; i < file_bytes; ++i) contents[i] = static_cast<char>((i * 7 + i / 4096) & 0xff);
    scratch.write("in.bin", contents);
    GuardedMapping mapped(scratch.path("in.bin"));
    const std::uint8_t* bytes = mapped.bytes(0, file_bytes);
    ASSERT_NE(bytes, nullptr);
    // Every page of the window is resident in the mapping before any byte of it was read here.
    const std::uint64_t pages = (file_bytes + 4095) / 4096;
    EXPECT_EQ(dbdf::testing::resident_bytes_of_mapping_at(bytes), pages * 4096);
    for (const std::size_t at : {std::size_t{0}, std::size_t{2} << 20, file_bytes / 2, file_bytes / 4 * 3,
                                 file_bytes - 4096, file_bytes - 1}) {
        EXPECT_EQ(bytes[at], static_cast<std::uint8_t>(contents[at])) << "byte " << at;
    }
    EXPECT_EQ(std::memcmp(bytes, contents.data(), file_bytes), 0);
}

// A dense encoding of the input's own type reads no value in user space: the kernel's write is the first to touch
// the mapped bytes, and after the input was truncated it fails with EFAULT ("Bad address") instead of raising SIGBUS.
// The conversion reports that as the shrink it is. Run in a child process all the same: a SIGBUS there would end it
// through the mapping's handler (exit status 1), which this test tells from the path it checks (exit status 7).
TEST(MappedMatrixDeathTest, AWriteOfBytesTheInputLostReportsTheShrink) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const cli_test::ScratchDirectory scratch("dbdf_mapped_matrix");
    scratch.write("in.bin", bytes_of(numbered_values()));
    const std::string input_path = scratch.path("in.bin");
    const std::string output_path = scratch.path("out.dbdf");
    auto write_after_truncation = [&] {
        GuardedMapping mapped(input_path);
        const std::uint64_t data_bytes = kRows * kCols * sizeof(double);
        if (mapped.bytes(0, data_bytes) == nullptr) std::_Exit(3);
        dbdf_writer_t* writer = nullptr;
        if (dbdf_writer_open_file(output_path.c_str(), &writer) != DBDF_OK) std::_Exit(4);
        if (dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols) != DBDF_OK) std::_Exit(5);
        fs::resize_file(input_path, 4096);
        OutputSettings settings;
        settings.options.encoding = DBDF_ENCODING_DENSE;
        try {
            write_mapped_matrix(OutputTarget{writer, output_path}, mapped, 0, kRows, kCols, DBDF_VALUE_F64, settings);
        } catch (const CliError& error) {
            dbdf_writer_free(writer);
            std::fprintf(stderr, "%s (exit status %d)\n", error.what(), error.exit_code());
            std::_Exit(7);
        }
        std::_Exit(6);
    };
    EXPECT_EXIT(write_after_truncation(), ::testing::ExitedWithCode(7),
                ".*in\\.bin: the input shrank while it was read \\(it had 4915200 bytes when it was opened\\); no "
                "output was written \\(exit status 1\\)");
    EXPECT_FALSE(fs::exists(output_path));
    EXPECT_EQ(scratch.file_count(), 1u) << "no temporary file is left either";
}

}  // namespace
