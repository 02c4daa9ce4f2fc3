// The exit codes every command shares (cli/README.md): 0 success, 1 an input that is invalid or that dbdf refuses
// to serve, 2 a usage or I/O error. Results go to stdout, errors to stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tool_run.hpp"

namespace {

using cli_test::run;
using cli_test::ToolRun;
using cli_test::vector_path;

// A string matrix written by DAPHNE's runtime: the file reads in the daphne dialect, but its strings are not in it.
const std::string kRefusedFile = vector_path("daphne-runtime/dense_str_2x2.dbdf");

TEST(CliExitCodes, EveryUsageErrorExitsTwo) {
    const std::string file = vector_path("multi_block_shuffled.dbdf");
    // Each of these is a different CLI11 error (and exit code) underneath: missing subcommand, unknown subcommand,
    // missing positional, unknown option, extra positional, value that does not convert, missing option value.
    const std::string usage_errors[] = {
        "",
        "frobnicate " + file,
        "validate",
        "info --bogus " + file,
        "cat " + file + " " + file,
        "cat " + file + " --limit many",
        "convert " + file,
        "info " + file + " --dialect",
    };
    for (const std::string& arguments : usage_errors) {
        const ToolRun result = run(arguments);
        EXPECT_EQ(result.exit_code, 2) << "dbdf " << arguments << "\n" << result.err;
        EXPECT_EQ(result.out, "") << "dbdf " << arguments;
        EXPECT_EQ(result.err.rfind("dbdf: ", 0), 0u) << "dbdf " << arguments << "\n" << result.err;
        EXPECT_NE(result.err.find("--help"), std::string::npos) << result.err;
    }
    // Usage errors the tool finds itself after parsing exit 2 as well.
    for (const std::string& arguments : {"info --dialect klingon " + file, "convert " + file + " x.dbdf --block 0x3"}) {
        const ToolRun result = run(arguments);
        EXPECT_EQ(result.exit_code, 2) << "dbdf " << arguments << "\n" << result.err;
        EXPECT_EQ(result.out, "");
    }
}

TEST(CliExitCodes, HelpAndVersionExitZero) {
    for (const char* arguments : {"--help", "info --help", "convert --help", "--version"}) {
        const ToolRun result = run(arguments);
        EXPECT_EQ(result.exit_code, 0) << arguments;
        EXPECT_NE(result.out, "") << arguments;
        EXPECT_EQ(result.err, "") << arguments;
    }
}

TEST(CliExitCodes, AFileThatCannotBeReadIsAnIoErrorNamingIt) {
    const std::string missing = vector_path("no_such_file.dbdf");
    for (const char* command : {"info", "validate", "cat"}) {
        const ToolRun result = run(std::string(command) + " " + missing);
        EXPECT_EQ(result.exit_code, 2) << command;
        EXPECT_EQ(result.out, "") << command;
        EXPECT_EQ(result.err.rfind("dbdf: " + missing + ": ", 0), 0u) << command << ": " << result.err;
    }
}

// A file dbdf refuses (DBDF_ERR_UNSUPPORTED) was named correctly and opened: it is not a usage error but input dbdf
// cannot use, so every command exits 1, like for a malformed file.
TEST(CliExitCodes, ARefusedFileIsInvalidInputForEveryCommand) {
    const ToolRun validate = run("validate --dialect daphne " + kRefusedFile);
    EXPECT_EQ(validate.exit_code, 1);
    EXPECT_EQ(validate.out.rfind(kRefusedFile + ": unsupported: ", 0), 0u) << validate.out;
    EXPECT_NE(validate.out.find("cannot be recovered from the file"), std::string::npos) << validate.out;
    EXPECT_EQ(validate.err, kRefusedFile + ": not valid: dbdf cannot serve this file\n");

    const cli_test::ScratchDirectory scratch("dbdf_cli_exit_codes");
    const std::string output = scratch.path("strings.npy");
    for (const std::string& arguments :
         {"info --dialect daphne " + kRefusedFile, "cat --dialect daphne " + kRefusedFile,
          "convert --dialect daphne " + kRefusedFile + " " + output}) {
        const ToolRun result = run(arguments);
        EXPECT_EQ(result.exit_code, 1) << arguments;
        EXPECT_EQ(result.out, "") << arguments;
        EXPECT_EQ(result.err.rfind("dbdf: " + kRefusedFile + ": ", 0), 0u) << result.err;
        EXPECT_NE(result.err.find("cannot be recovered from the file"), std::string::npos) << result.err;
    }
    EXPECT_EQ(scratch.file_count(), 0u);
}

}  // namespace
