// Labels are bytes (docs/format-rules.md, rule 16): a file may hold escape sequences, line breaks and invalid UTF-8 in
// them. Whatever the tool prints of them (info, cat, error messages) shows control characters and invalid bytes as
// escapes, so no file can recolour the terminal or forge a line; info --json stays valid JSON with the same labels.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"
#include "tool_run.hpp"

namespace {

using cli_test::run;
using cli_test::ToolRun;

const std::vector<std::string> kLabels = {
    "\x1b[31mred",  // an escape sequence that would turn the terminal red
    "two\nlines",   // a line break that would forge a line of output
    "bad\xff",      // not UTF-8
    "c1\xc2\x9b"
    "2J",           // U+009B, the C1 control sequence introducer: "clear the screen" on some terminals
    "caf\xc3\xa9",  // well-formed UTF-8 (café), shown as it is
};
const std::vector<std::string> kShown = {"\\x1b[31mred", "two\\nlines", "bad\\xff", "c1\\u009b2J", "caf\xc3\xa9"};

// No byte that a terminal obeys: C0 controls other than the line breaks the tool prints, DEL, and no C1 control.
::testing::AssertionResult printable(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const unsigned char byte = static_cast<unsigned char>(text[i]);
        const bool c1 = byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if ((byte < 0x20 && byte != '\n') || byte == 0x7F || c1) {
            return ::testing::AssertionFailure() << "byte " << int{byte} << " at " << i << " in: " << text;
        }
    }
    return ::testing::AssertionSuccess();
}

class CliTerminalText : public cli_test::CliTest {
protected:
    CliTerminalText() {
        frame_ = path("labels.dbdf");
        std::vector<const char*> labels;
        std::vector<std::size_t> lengths;
        for (const std::string& label : kLabels) {
            labels.push_back(label.data());
            lengths.push_back(label.size());
        }
        const std::vector<dbdf_value_type_t> types(kLabels.size(), DBDF_VALUE_I32);
        dbdf_writer_t* writer = nullptr;
        EXPECT_EQ(dbdf_writer_open_file(frame_.c_str(), &writer), DBDF_OK);
        EXPECT_EQ(dbdf_writer_begin_frame(writer, 1, kLabels.size(), types.data(), labels.data(), lengths.data()),
                  DBDF_OK)
            << dbdf_last_error_message();
        for (std::uint64_t c = 0; c < kLabels.size(); ++c) {
            const std::int32_t value = static_cast<std::int32_t>(c);
            EXPECT_EQ(dbdf_writer_add_dense(writer, 0, c, 1, 1, DBDF_VALUE_I32, &value, 1, 0, nullptr), DBDF_OK)
                << dbdf_last_error_message();
        }
        EXPECT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
        dbdf_writer_free(writer);
    }

    std::string frame_;
};

TEST_F(CliTerminalText, InfoEscapesLabels) {
    const ToolRun result = run("info " + frame_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(printable(result.out));
    for (std::size_t c = 0; c < kShown.size(); ++c) {
        EXPECT_NE(result.out.find("  " + std::to_string(c) + "  i32   " + kShown[c] + "\n"), std::string::npos)
            << kShown[c] << " in\n"
            << result.out;
    }
}

TEST_F(CliTerminalText, InfoJsonIsValidAndSafeToPrint) {
    const ToolRun result = run("info --json " + frame_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(printable(result.out));
    const nlohmann::json document = nlohmann::json::parse(result.out);
    const auto& columns = document["columns"];
    ASSERT_EQ(columns.size(), kLabels.size());
    for (std::size_t c = 0; c < kLabels.size(); ++c) {
        if (c == 2) {
            EXPECT_EQ(columns[c]["label"], "bad\xef\xbf\xbd");  // the invalid byte as U+FFFD, its bytes in hex
            EXPECT_EQ(columns[c]["label_hex"], "626164ff");
        } else {
            EXPECT_EQ(columns[c]["label"], kLabels[c]) << c;
            EXPECT_TRUE(columns[c]["label_hex"].is_null()) << c;
        }
    }
}

TEST_F(CliTerminalText, CatEscapesTheHeaderRow) {
    const ToolRun result = run("cat " + frame_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(printable(result.out));
    const std::string header = result.out.substr(0, result.out.find('\n'));
    std::size_t from = 0;
    for (const std::string& shown : kShown) {
        const std::size_t at = header.find(shown, from);
        EXPECT_NE(at, std::string::npos) << shown << " in " << header;
        if (at != std::string::npos) from = at + shown.size();
    }
}

TEST_F(CliTerminalText, ErrorMessagesEscapeFileNames) {
    const ToolRun result = run("info \"$(printf 'no\\033[2Jsuch\\nfile.dbdf')\"");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(printable(result.err));
    EXPECT_EQ(result.err.rfind("dbdf: no\\x1b[2Jsuch\\nfile.dbdf: ", 0), 0u) << result.err;
}

}  // namespace
