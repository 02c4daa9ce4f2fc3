// The tiles of conversions (cli/src/formats/tile_supply.*) and the guarded mapping they borrow from: tiles reach
// the writer in order with their own values, borrowed only where they lie in place and aligned for their type, and
// an input that gets shorter while it is read or mapped ends the conversion with a clear error and no output file.
#include <gtest/gtest.h>

#include <dbdf.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/guarded_mapping.hpp"
#include "formats/tile_supply.hpp"
#include "formats/tiling.hpp"
#include "formats/windowed_input.hpp"
#include "handles.hpp"
#include "tool_run.hpp"

namespace {

using namespace dbdf_cli;
namespace fs = std::filesystem;

// Tiles 0 .. count - 1 of one row each; tile k holds the values 100 k .. 100 k + 3, except that `fill` says otherwise.
NextTile row_tiles(std::uint64_t count, TileJob::Fill fill_of_odd = TileJob::Fill::gathered) {
    return [count, fill_of_odd, next = std::uint64_t{0}](TileJob& job) mutable {
        if (next == count) return false;
        job = TileJob{next, 0, 1, 4, DBDF_VALUE_I64, next % 2 == 1 ? fill_of_odd : TileJob::Fill::gathered};
        ++next;
        return true;
    };
}

void gather_row(std::uint64_t row, std::uint64_t, std::uint64_t, std::uint64_t cols, TypedBuffer& out) {
    for (std::uint64_t c = 0; c < cols; ++c) {
        const std::int64_t value = static_cast<std::int64_t>(row * 100 + c);
        std::memcpy(out.at(c), &value, sizeof value);
    }
}

std::int64_t value_at(const void* values, std::size_t index) {
    std::int64_t value = 0;
    std::memcpy(&value, static_cast<const std::uint8_t*>(values) + index * sizeof value, sizeof value);
    return value;
}

TEST(TileSupply, HandsOutEveryTileInOrderWithItsOwnValues) {
    TileSupply tiles(row_tiles(50), gather_row);
    TileJob job;
    const void* values = nullptr;
    std::uint64_t expected_row = 0;
    while (tiles.next(job, values)) {
        ASSERT_EQ(job.row, expected_row);
        ASSERT_NE(values, nullptr);
        ASSERT_EQ(job.rows * job.cols, 4u);
        for (std::size_t c = 0; c < 4; ++c)
            EXPECT_EQ(value_at(values, c), static_cast<std::int64_t>(job.row * 100 + c));
        ++expected_row;
    }
    EXPECT_EQ(expected_row, 50u);
    EXPECT_FALSE(tiles.next(job, values)) << "the end stays the end";
}

TEST(TileSupply, ClearsZeroTilesAndGivesNoBufferForEmptyOnes) {
    for (const TileJob::Fill fill : {TileJob::Fill::zeros, TileJob::Fill::none}) {
        TileSupply tiles(row_tiles(6, fill), gather_row);
        TileJob job;
        const void* values = nullptr;
        int seen = 0;
        while (tiles.next(job, values)) {
            ++seen;
            if (job.row % 2 == 0) {
                ASSERT_NE(values, nullptr);
                EXPECT_EQ(value_at(values, 3), static_cast<std::int64_t>(job.row * 100 + 3));
            } else if (fill == TileJob::Fill::none) {
                EXPECT_EQ(values, nullptr);
            } else {
                // The buffer held tile row - 2's values before: every cell is cleared.
                ASSERT_NE(values, nullptr);
                for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(value_at(values, c), 0);
            }
        }
        EXPECT_EQ(seen, 6);
    }
}

TEST(TileSupply, BorrowsWhatLiesInPlaceAndGathersTheRest) {
    const std::vector<std::int64_t> in_place = {7, 8, 9, 10};
    auto borrow = [&](std::uint64_t row, std::uint64_t, std::uint64_t, std::uint64_t) -> const void* {
        return row % 3 == 0 ? in_place.data() : nullptr;
    };
    TileSupply tiles(row_tiles(7), gather_row, borrow);
    TileJob job;
    const void* values = nullptr;
    while (tiles.next(job, values)) {
        if (job.row % 3 == 0) {
            EXPECT_EQ(values, in_place.data()) << "borrowed, not copied";
        } else {
            ASSERT_NE(values, nullptr);
            EXPECT_EQ(value_at(values, 2), static_cast<std::int64_t>(job.row * 100 + 2));
        }
    }
}

// An .npy whose header length puts its data at an odd offset lies misaligned in the mapping: its tiles are gathered
// into the (aligned) buffer rather than handed to the writer as misaligned values, which it reads as their type.
TEST(TileSupply, GathersABorrowedTileThatIsNotAlignedForItsType) {
    alignas(8) std::uint8_t bytes[1 + 4 * sizeof(std::int64_t)] = {};
    const void* misaligned = bytes + 1;
    auto borrow = [&](std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t) -> const void* { return misaligned; };
    TileSupply tiles(row_tiles(3), gather_row, borrow);
    TileJob job;
    const void* values = nullptr;
    int seen = 0;
    while (tiles.next(job, values)) {
        ++seen;
        ASSERT_NE(values, nullptr);
        EXPECT_NE(values, misaligned);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(values) % alignof(std::int64_t), 0u);
        EXPECT_EQ(value_at(values, 3), static_cast<std::int64_t>(job.row * 100 + 3));
    }
    EXPECT_EQ(seen, 3);
}

// The read path of a conversion: a file read with pread, which another process truncates while it is converted
// (here: the gather of the third tile, before it reads). The writer's caller gets the read's
// error naming the file and the offset, and the abandoned writer leaves no output file.
TEST(TileSupply, AnInputThatShrinksWhileItIsReadLeavesNoOutput) {
    const cli_test::ScratchDirectory scratch("dbdf_read_ahead");
    constexpr std::uint64_t kRows = 64, kCols = 512;
    std::vector<double> cells(kRows * kCols);
    for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = static_cast<double>(i % 251);
    scratch.write("in.bin", std::string(reinterpret_cast<const char*>(cells.data()), cells.size() * sizeof(double)));
    const std::string input_path = scratch.path("in.bin");
    const std::string output_path = scratch.path("out.dbdf");

    WindowedInput input(input_path);
    OutputSettings settings;
    settings.options.block_rows = 8;  // eight tiles of 8 x 512
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(output_path.c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), DBDF_OK);
    auto gather = [&](std::uint64_t row, std::uint64_t, std::uint64_t rows, std::uint64_t cols, TypedBuffer& out) {
        if (row == 16) fs::resize_file(input_path, 16 * kCols * sizeof(double) + 100);  // two tiles and 100 bytes
        input.read_into(row * kCols * sizeof(double), rows * cols * sizeof(double), out.at(0));
    };
    try {
        write_matrix_tiles(OutputTarget{writer, output_path}, kRows, kCols, DBDF_VALUE_F64, settings, gather);
        FAIL() << "the shrunk input was converted";
    } catch (const CliError& error) {
        EXPECT_EQ(std::string(error.what()), input_path + ": read failed at offset " +
                                                 std::to_string(16 * kCols * sizeof(double) + 100) +
                                                 ": the file got shorter");
    }
    dbdf_writer_free(writer);  // abandoned, never finished
    EXPECT_FALSE(fs::exists(output_path));
    EXPECT_EQ(scratch.file_count(), 1u) << "no temporary file is left either";
}

// The mapped path: a window of a file is mapped, the file is truncated, then the window is read through. Without
// the guard the process would end with SIGBUS; with it, it prints what happened, removes the output's temporary
// files and exits with status 1. The output's writer was never finished, so nothing is put in place.
TEST(GuardedMappingDeathTest, AnInputThatShrinksWhileItIsMappedEndsWithAClearError) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const cli_test::ScratchDirectory scratch("dbdf_guarded_mapping");
    scratch.write("in.bin", std::string(std::size_t{1} << 20, '\x2a'));
    const std::string input_path = scratch.path("in.bin");
    const std::string output_path = scratch.path("out.dbdf");
    auto read_after_truncation = [&] {
        dbdf_writer_t* writer = nullptr;
        if (dbdf_writer_open_file(output_path.c_str(), &writer) != DBDF_OK) std::_Exit(3);
        GuardedMapping mapped(input_path);
        const std::uint8_t* bytes = mapped.bytes(0, std::size_t{1} << 20);
        if (bytes == nullptr || bytes[4096] != 0x2a) std::_Exit(4);
        fs::resize_file(input_path, 0);
        volatile std::uint8_t lost = bytes[(std::size_t{1} << 20) - 1];  // past the new end: SIGBUS
        (void)lost;
        std::_Exit(5);
    };
    EXPECT_EXIT(read_after_truncation(), ::testing::ExitedWithCode(kExitInvalid),
                "dbdf: .*in\\.bin: the input shrank while it was read \\(it had 1048576 bytes when it was opened\\); "
                "no output was written");
    EXPECT_FALSE(fs::exists(output_path));
    EXPECT_EQ(scratch.file_count(), 1u) << "no temporary file is left either";
}

TEST(GuardedMapping, GivesTheBytesOfTheFileAndRefusesWhatLiesPastItsEnd) {
    const cli_test::ScratchDirectory scratch("dbdf_guarded_mapping");
    std::string bytes(GuardedMapping::kWindowBytes + 5000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 % 251);
    scratch.write("in.bin", bytes);
    GuardedMapping mapped(scratch.path("in.bin"));
    // Across a window's end: a new window is mapped from the page holding the offset.
    for (const std::uint64_t offset :
         {std::uint64_t{0}, std::uint64_t{123}, std::uint64_t{GuardedMapping::kWindowBytes - 10},
          std::uint64_t{bytes.size() - 64}}) {
        const std::uint8_t* got = mapped.bytes(offset, 64);
        ASSERT_NE(got, nullptr);
        EXPECT_EQ(std::memcmp(got, bytes.data() + offset, 64), 0) << offset;
    }
    try {
        mapped.bytes(bytes.size() - 10, 11);
        FAIL() << "bytes past the end were given";
    } catch (const CliError& error) {
        EXPECT_NE(
            std::string(error.what())
                .find("11 bytes at offset " + std::to_string(bytes.size() - 10) + " are past the end of the file"),
            std::string::npos)
            << error.what();
        EXPECT_EQ(error.exit_code(), kExitInvalid);
    }
}

}  // namespace
