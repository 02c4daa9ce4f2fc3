// A frame of one row and 200,000 columns converts to .csv: each column is read through a window, and finding a
// window's blocks costs a logarithm, not a walk over every block (which made this quadratic: 160,000 columns took
// 11 s, a million did not finish in minutes). The million-column case runs in the release build's hostile-input
// suite (tests/hostile); here, under the sanitizers too, a fifth of it keeps the suite brief.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "dbdf.h"
#include "tool_run.hpp"

namespace {

using cli_test::run;
using cli_test::ToolRun;

constexpr std::uint64_t kColumns = 200000;

std::string label_of(std::uint64_t column) { return "c" + std::to_string(column); }
std::uint8_t value_of(std::uint64_t column) { return static_cast<std::uint8_t>(column % 7); }

// The 1 x kColumns frame of u8 columns labelled c0, c1, ..., column c holding c % 7, one block per column.
void write_wide_frame(const std::string& path) {
    std::vector<std::string> labels;
    std::vector<const char*> label_pointers;
    labels.reserve(kColumns);
    for (std::uint64_t c = 0; c < kColumns; ++c) labels.push_back(label_of(c));
    for (const std::string& label : labels) label_pointers.push_back(label.c_str());
    const std::vector<dbdf_value_type_t> types(kColumns, DBDF_VALUE_U8);
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path.c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_frame(writer, 1, kColumns, types.data(), label_pointers.data(), nullptr), DBDF_OK)
        << dbdf_last_error_message();
    for (std::uint64_t c = 0; c < kColumns; ++c) {
        const std::uint8_t value = value_of(c);
        ASSERT_EQ(dbdf_writer_add_dense(writer, 0, c, 1, 1, DBDF_VALUE_U8, &value, 1, 0, nullptr), DBDF_OK)
            << dbdf_last_error_message();
    }
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);
}

TEST(CliWideFrame, AFrameOf200kColumnsConvertsToCsv) {
    const cli_test::ScratchDirectory scratch("dbdf_cli_wide_frame");
    const std::string frame = scratch.path("wide.dbdf");
    const std::string csv = scratch.path("wide.csv");
    write_wide_frame(frame);
    const ToolRun result = run("convert " + frame + " " + csv);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::string expected_header, expected_row;
    for (std::uint64_t c = 0; c < kColumns; ++c) {
        expected_header += (c ? "," : "") + label_of(c);
        expected_row += (c ? "," : "") + std::to_string(value_of(c));
    }
    std::ifstream text(csv);
    std::string header, row, rest;
    ASSERT_TRUE(std::getline(text, header));
    ASSERT_TRUE(std::getline(text, row));
    EXPECT_FALSE(std::getline(text, rest)) << "more than one row";
    EXPECT_EQ(header.size(), expected_header.size());
    EXPECT_TRUE(header == expected_header) << header.substr(0, 60);
    EXPECT_EQ(row.size(), expected_row.size());
    EXPECT_TRUE(row == expected_row) << row.substr(0, 60);
}

}  // namespace
