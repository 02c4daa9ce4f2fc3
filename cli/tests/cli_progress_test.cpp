// Conversions show a progress bar on a terminal, and nothing when stderr is redirected: one case per way the tool
// goes through its input (re-encoding block by block, copying blocks as they are, gathering a daphne CSR object,
// tiling a dense one, reading a .mtx file before writing it) and per conversion to and from .npy, .csv and .mtx.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using namespace cli_test;

using CliProgress = CliTest;

TEST_F(CliProgress, ConversionsShowProgressOnATerminalOnly) {
    write_bytes("coordinate.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n3 1 1.5\n1 2 -2\n");
    write_bytes("array.mtx", "%%MatrixMarket matrix array integer general\n2 1\n9223372036854775808\n3\n");
    struct Case {
        std::string arguments;
        std::vector<std::string> phases;  // the progress lines shown, in order
    };
    const std::string matrix = path("matrix.dbdf");
    const Case cases[] = {
        {matrix + " " + path("reencoded.dbdf"), {"converting"}},
        {matrix + " " + path("same.dbdf") + " --encoding as-is", {"converting"}},
        {matrix + " " + path("daphne.dbdf") + " --dialect-out daphne", {"converting"}},
        {matrix + " " + path("tiles.dbdf") + " --block 2x2", {"converting"}},
        {path("coordinate.mtx") + " " + path("coordinate.dbdf"), {"reading", "converting"}},
        {path("array.mtx") + " " + path("array.dbdf"), {"reading", "converting"}},
        // To and from the other formats, each output read back by the next case.
        {matrix + " " + path("out.npy"), {"converting"}},
        {path("out.npy") + " " + path("from_npy.dbdf"), {"converting"}},
        {matrix + " " + path("out.csv"), {"converting"}},
        {path("out.csv") + " " + path("from_csv.dbdf"), {"converting"}},
        {matrix + " " + path("out.mtx"), {"converting"}},
        {path("array.dbdf") + " " + path("array_out.mtx"), {"converting"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.arguments);
        const ToolRun terminal = run_on_terminal("convert " + c.arguments);
        ASSERT_EQ(terminal.exit_code, 0) << terminal.out;
        std::size_t from = 0;
        for (const std::string& phase : c.phases) {
            const std::string full = "\r" + phase + " [#########################] 100%";
            const std::size_t at = terminal.out.find(full, from);
            EXPECT_NE(at, std::string::npos) << phase << " in " << terminal.out;
            if (at != std::string::npos) from = at + full.size();
        }
        const std::string cleared = "\r" + std::string(60, ' ') + "\r";
        ASSERT_GE(terminal.out.size(), cleared.size()) << terminal.out;
        EXPECT_EQ(terminal.out.substr(terminal.out.size() - cleared.size()), cleared) << "the line is cleared";
        const ToolRun redirected = run("convert " + c.arguments);
        ASSERT_EQ(redirected.exit_code, 0) << redirected.err;
        EXPECT_EQ(redirected.err, "");
        EXPECT_EQ(redirected.out, "");
    }
}

}  // namespace
