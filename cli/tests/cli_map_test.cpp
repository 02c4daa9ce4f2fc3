// dbdf map: the SVG is well-formed XML, holds one rectangle per block for small files (with its tooltip), stays under
// a size bound for a file of a million blocks (drawn by aggregation), keeps thin blocks visible, and is the same bytes
// every time. bindings/python/tests/test_plot.py parses it with a real XML parser as well.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"

namespace {

using namespace cli_test;
using CliMap = CliTest;

std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
    return count;
}

// Whether every element is closed in order: a minimal XML check (tags, self-closing tags, the declaration); the
// attribute values and text never hold '<' or '>' since the tool escapes them.
::testing::AssertionResult well_formed(const std::string& svg) {
    std::vector<std::string> open;
    std::size_t at = 0;
    while ((at = svg.find('<', at)) != std::string::npos) {
        const std::size_t end = svg.find('>', at);
        if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << at;
        const std::string tag = svg.substr(at + 1, end - at - 1);
        at = end + 1;
        if (tag.starts_with("?")) continue;
        if (tag.ends_with("/")) continue;
        const std::string name = tag.substr(tag.starts_with("/") ? 1 : 0, tag.find_first_of(" /", 1) - (tag[0] == '/'));
        if (tag.starts_with("/")) {
            if (open.empty() || open.back() != name)
                return ::testing::AssertionFailure()
                       << "</" << name << "> closes " << (open.empty() ? "nothing" : open.back());
            open.pop_back();
        } else {
            open.push_back(name);
        }
    }
    if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> is never closed";
    return ::testing::AssertionSuccess();
}

TEST_F(CliMap, OneRectanglePerBlockWithItsTooltip) {
    // matrix.dbdf (7 x 5) again in 2 x 2 blocks: 4 x 3 = 12 blocks.
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("tiles.dbdf") + " --block 2x2");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = run("map " + path("tiles.dbdf") + " " + path("tiles.svg"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string svg = contents(path("tiles.svg"));
    EXPECT_TRUE(well_formed(svg));
    EXPECT_EQ(occurrences(svg, "<rect class=\"block\""), 12u);
    EXPECT_EQ(occurrences(svg, "<title>block "), 12u);
    EXPECT_NE(svg.find("<title>block 11 at (6, 4): 1 x 1, "), std::string::npos) << svg;
    EXPECT_NE(svg.find("7 x 5 csr of f64"), std::string::npos);
    EXPECT_NE(svg.find("12 blocks"), std::string::npos);
    // The same bytes each time.
    result = run("map " + path("tiles.dbdf") + " " + path("again.svg"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("again.svg")), svg);
    // info points to it.
    result = run("info " + path("tiles.dbdf"));
    EXPECT_NE(result.out.find("dbdf map " + path("tiles.dbdf") + " OUT.svg"), std::string::npos) << result.out;
}

TEST_F(CliMap, ThinBlocksStayVisible) {
    // 100,000 x 3 in 10-row blocks: drawn to one scale on 800 px the matrix would be 0.024 px wide and each block
    // 0.08 px high.
    write_raw_matrix(path("thin.dbdf"), DBDF_DATA_DENSE, DBDF_VALUE_U8, 100000, 3, std::string(300000, '\x01'), 10, 3);
    const ToolRun result = run("map " + path("thin.dbdf") + " " + path("thin.svg"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string svg = contents(path("thin.svg"));
    EXPECT_TRUE(well_formed(svg));
    EXPECT_EQ(occurrences(svg, "<rect class=\"block\""), 10000u);
    EXPECT_NE(svg.find("<title>block 9999 at (99990, 0): 10 x 3, dense"), std::string::npos);
    EXPECT_NE(svg.find("not to scale"), std::string::npos);
    EXPECT_EQ(svg.find(" width=\"0."), std::string::npos) << "a block narrower than a pixel";
    EXPECT_EQ(svg.find(" height=\"0."), std::string::npos) << "a block lower than a pixel";
}

TEST_F(CliMap, AMillionBlocksAreAggregatedWithinABound) {
    // 1000 x 1000 of 1 x 1 empty blocks: a million blocks, written in about a second.
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path("million.dbdf").c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000), DBDF_OK);
    for (std::uint64_t r = 0; r < 1000; ++r) {
        for (std::uint64_t c = 0; c < 1000; ++c) ASSERT_EQ(dbdf_writer_add_empty(writer, r, c, 1, 1), DBDF_OK);
    }
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK);
    dbdf_writer_free(writer);
    const ToolRun result = run("map " + path("million.dbdf") + " " + path("million.svg"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string svg = contents(path("million.svg"));
    EXPECT_TRUE(well_formed(svg));
    EXPECT_LT(svg.size(), std::size_t{8} << 20);
    EXPECT_EQ(occurrences(svg, "<rect class=\"block\""), 0u);
    EXPECT_EQ(occurrences(svg, "<rect class=\"cell\""), 160u * 160u);
    EXPECT_NE(svg.find("1000000 blocks, drawn as a 160 x 160 grid"), std::string::npos);
    EXPECT_NE(svg.find("empty: 1000000 blocks"), std::string::npos);
}

TEST_F(CliMap, AnInvalidFileIsNamedAndNothingIsWritten) {
    write_bytes("bad.dbdf", "not a dbdf file");
    const ToolRun result = run("map " + path("bad.dbdf") + " " + path("bad.svg"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("bad.dbdf"), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(path("bad.svg")));
}

}  // namespace
