// The sessions shown in README.md and cli/README.md are replayed with the built tool and must match it exactly:
// every "$ " line is run in order in one shell (so `echo $?` sees the previous command), and what follows it up to
// the next "$ " line is its output, stdout and stderr together as on a terminal.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tool_run.hpp"

namespace {

namespace fs = std::filesystem;

// The input every session starts from; cli/README.md shows it with `cat small.mtx`.
constexpr const char* kSmallMtx =
    "%%MatrixMarket matrix coordinate real general\n4 5 4\n1 1 1.5\n2 4 -2\n4 2 0.25\n4 5 1e10\n";

// The text of the first fenced block after the line `heading` in `file`, with a final newline.
std::string session_after(const std::string& file, const std::string& heading) {
    std::istringstream lines(cli_test::contents(std::string(DBDF_SOURCE_DIR) + "/" + file));
    std::string line, block;
    bool after_heading = false, inside = false;
    while (std::getline(lines, line)) {
        if (!after_heading) {
            after_heading = line == heading;
        } else if (line.rfind("```", 0) == 0) {
            if (inside) return block;
            inside = true;
        } else if (inside) {
            block += line + "\n";
        }
    }
    ADD_FAILURE() << file << " has no session block after '" << heading << "'";
    return block;
}

std::vector<std::string> commands_of(const std::string& session) {
    std::vector<std::string> commands;
    std::istringstream lines(session);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("$ ", 0) == 0) commands.push_back(line.substr(2));
    }
    return commands;
}

// Runs the commands as one script and rebuilds the transcript. A marker line after each command separates the
// outputs; the command's exit status is restored after it.
std::string replay(const std::vector<std::string>& commands) {
    const cli_test::ScratchDirectory scratch("dbdf_cli_readme");
    scratch.write("small.mtx", kSmallMtx);
    fs::create_directories(scratch.root() / "tests");
    fs::create_directory_symlink(DBDF_VECTORS_DIR, scratch.root() / "tests" / "vectors");
    const std::string marker = "@@ end of a session step @@";
    std::string script;
    for (const std::string& command : commands) {
        script += command + "\nstatus=$?\nprintf '\\n%s\\n' '" + marker + "'\n(exit $status)\n";
    }
    const cli_test::ToolRun run = cli_test::run_script(script, scratch.root());
    std::string transcript;
    std::size_t start = 0;
    for (const std::string& command : commands) {
        const std::size_t end = run.out.find("\n" + marker + "\n", start);
        if (end == std::string::npos) {
            ADD_FAILURE() << "the session stopped before '" << command << "':\n" << run.out;
            break;
        }
        transcript += "$ " + command + "\n" + run.out.substr(start, end - start);
        start = end + marker.size() + 2;
    }
    return transcript;
}

TEST(CliReadmeSession, CliReadmeShowsTheToolsRealOutput) {
    const std::string session = session_after("cli/README.md", "## A session");
    ASSERT_FALSE(commands_of(session).empty());
    EXPECT_EQ(replay(commands_of(session)), session);
}

TEST(CliReadmeSession, TopReadmeShowsTheToolsRealOutput) {
    const std::string session = session_after("README.md", "## The command-line tool");
    ASSERT_FALSE(commands_of(session).empty());
    EXPECT_EQ(replay(commands_of(session)), session);
}

}  // namespace
