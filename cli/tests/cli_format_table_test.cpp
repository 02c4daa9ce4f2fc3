// The format table of `dbdf convert`: its rows are unambiguous (names, extensions and each row's options unique),
// every row is complete, paths find their row by extension, and `dbdf convert --help` lists every row and every
// option the table names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>
#include <string>

#include "cli_fixture.hpp"
#include "formats/format_table.hpp"

namespace {

using namespace cli_test;
using dbdf_cli::ConversionFormat;

std::string upper_case(std::string_view text) {
    std::string upper(text);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return upper;
}

TEST(CliFormatTable, RowsAreUniqueAndComplete) {
    const auto formats = dbdf_cli::conversion_formats();
    ASSERT_FALSE(formats.empty());
    EXPECT_EQ(&formats[0], &dbdf_cli::dbdf_format());
    EXPECT_EQ(formats[0].name, "dbdf");
    std::set<std::string_view> names, extensions;
    for (const ConversionFormat& format : formats) {
        SCOPED_TRACE(format.name);
        EXPECT_TRUE(names.insert(format.name).second) << "a second row named " << format.name;
        EXPECT_NE(format.to_dbdf, nullptr);
        EXPECT_NE(format.from_dbdf, nullptr);
        EXPECT_FALSE(format.description.empty());
        // A format without a standard extension (Futhark's binary data) has none: --from and --to name it. The
        // .dbdf row must have its own.
        if (&format == &dbdf_cli::dbdf_format()) {
            EXPECT_FALSE(format.extensions.empty());
        }
        for (std::string_view extension : format.extensions) {
            EXPECT_TRUE(extensions.insert(extension).second) << extension << " names two formats";
            EXPECT_TRUE(extension.size() > 1 && extension[0] == '.') << extension;
            EXPECT_TRUE(
                std::none_of(extension.begin(), extension.end(), [](unsigned char c) { return std::isupper(c); }))
                << extension << " is compared in lower case";
        }
        for (const auto options : {format.input_options, format.output_options}) {
            const std::set<std::string_view> unique(options.begin(), options.end());
            EXPECT_EQ(unique.size(), options.size()) << "an option listed twice";
            for (std::string_view option : options) EXPECT_TRUE(option.starts_with("--")) << option;
        }
    }
}

TEST(CliFormatTable, PathsFindTheirRowByExtensionWhateverTheCase) {
    for (const ConversionFormat& format : dbdf_cli::conversion_formats()) {
        for (std::string_view extension : format.extensions) {
            const std::string name = "data" + std::string(extension);
            EXPECT_EQ(dbdf_cli::format_of_path(name), &format) << name;
            EXPECT_EQ(dbdf_cli::format_of_path("dir/DATA" + upper_case(extension)), &format) << extension;
            EXPECT_EQ(dbdf_cli::format_of_path(name + ".bak"), nullptr) << name << ".bak";
        }
        EXPECT_EQ(dbdf_cli::format_named(format.name), &format);
    }
    EXPECT_EQ(dbdf_cli::format_of_path("dir.npy/data"), nullptr);
    EXPECT_EQ(dbdf_cli::format_named("xlsx"), nullptr);
}

// Every row reaches the user: its name, extensions, description and options are in `dbdf convert --help`, as
// names in the help of --from and --to, and every option it lists is one the command takes.
TEST(CliFormatTable, ConvertHelpListsEveryRow) {
    const ToolRun help = run("convert --help");
    ASSERT_EQ(help.exit_code, 0) << help.err;
    for (const ConversionFormat& format : dbdf_cli::conversion_formats()) {
        SCOPED_TRACE(format.name);
        std::string extensions;
        for (std::string_view extension : format.extensions)
            extensions += (extensions.empty() ? "" : " ") + std::string(extension);
        const auto line_start = help.out.find("\n  " + std::string(format.name) + " ");
        ASSERT_NE(line_start, std::string::npos) << help.out;
        const std::string line = help.out.substr(line_start + 1, help.out.find('\n', line_start + 1) - line_start - 1);
        EXPECT_NE(line.find(extensions), std::string::npos) << line;
        EXPECT_NE(line.find(format.description), std::string::npos) << line;
        // The row's options are listed under it, and each is an option the command defines (a line of its own).
        for (const auto& [side, options] : {std::pair{"input options: ", format.input_options},
                                            std::pair{"output options: ", format.output_options}}) {
            std::string listed;
            for (std::string_view option : options) {
                listed += (listed.empty() ? "" : " ") + std::string(option);
                EXPECT_NE(help.out.find("\n  " + std::string(option) + " "), std::string::npos) << option;
            }
            if (!options.empty()) {
                EXPECT_NE(help.out.find(side + listed + "\n", line_start), std::string::npos) << side << listed;
            }
        }
    }
    EXPECT_NE(help.out.find("input format: " + dbdf_cli::format_names()), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("output format: " + dbdf_cli::format_names()), std::string::npos) << help.out;
}

}  // namespace
