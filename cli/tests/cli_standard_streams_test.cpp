// `-` as a path: standard input for info, validate, cat, convert and map, standard output for convert and map. The
// tool gets its standard input through a pipe (RunSettings::standard_input) or a redirection of a file (`< FILE`).
#include <string>

#include "cli_fixture.hpp"

namespace {

using namespace cli_test;

using CliStandardStreams = CliTest;

// `dbdf ARGUMENTS` with `bytes` on its standard input, through a pipe.
ToolRun piped_bytes(const std::string& bytes, const std::string& arguments, RunSettings settings = {}) {
    settings.standard_input = bytes;
    return run(arguments, settings);
}

// `dbdf ARGUMENTS` with the file `input` piped into its standard input.
ToolRun piped(const std::string& input, const std::string& arguments) {
    return piped_bytes(contents(input), arguments);
}

TEST_F(CliStandardStreams, ConvertsDbdfFromStandardInputToAFileAndToStandardOutput) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("expected.npy")).exit_code, 0);
    const ToolRun to_file = piped(path("matrix.dbdf"), "convert - " + path("out.npy") + " --from dbdf");
    ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
    EXPECT_EQ(contents(path("out.npy")), contents(path("expected.npy")));
    const ToolRun to_stdout = piped(path("matrix.dbdf"), "convert - - --from dbdf --to npy");
    ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    EXPECT_EQ(to_stdout.out, contents(path("expected.npy")));
    // Standard input that is a regular file is read as it is.
    const ToolRun redirected = run("convert - " + path("redirected.npy") + " --from dbdf < " + path("matrix.dbdf"));
    ASSERT_EQ(redirected.exit_code, 0) << redirected.err;
    EXPECT_EQ(contents(path("redirected.npy")), contents(path("expected.npy")));
}

TEST_F(CliStandardStreams, ConvertsNpyFromStandardInput) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("matrix.npy")).exit_code, 0);
    const ToolRun to_file = piped(path("matrix.npy"), "convert - " + path("back.dbdf") + " --from npy");
    ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
    EXPECT_TRUE(holds_values(path("back.dbdf")));
    ASSERT_EQ(run("convert " + path("back.dbdf") + " " + path("expected.dbdf")).exit_code, 0);
    const ToolRun to_stdout = piped(path("matrix.npy"), "convert - - --from npy --to dbdf");
    ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    write_bytes("streamed.dbdf", to_stdout.out);
    EXPECT_TRUE(holds_values(path("streamed.dbdf")));
    EXPECT_EQ(to_stdout.out, contents(path("back.dbdf")));
}

TEST_F(CliStandardStreams, AnInputLargerThanAPipeIsCopiedWhole) {
    // 2.4 MB, many times a pipe's buffer and more than one read of the copy loop.
    std::string values;
    for (int i = 0; i < 600 * 500; ++i) values += raw<double>({i * 0.25});
    write_raw_matrix(path("large.dbdf"), DBDF_DATA_DENSE, DBDF_VALUE_F64, 600, 500, values);
    ASSERT_EQ(run("convert " + path("large.dbdf") + " " + path("large.npy")).exit_code, 0);
    const ToolRun from_npy = piped(path("large.npy"), "convert - " + path("back.dbdf") + " --from npy");
    ASSERT_EQ(from_npy.exit_code, 0) << from_npy.err;
    EXPECT_TRUE(same_bits(values, read_bits(path("back.dbdf"), DBDF_VALUE_F64), sizeof(double)));
    const ToolRun from_dbdf = piped(path("large.dbdf"), "convert - - --from dbdf --to npy");
    ASSERT_EQ(from_dbdf.exit_code, 0) << from_dbdf.err;
    EXPECT_EQ(from_dbdf.out, contents(path("large.npy")));
}

TEST_F(CliStandardStreams, APipeGivenByNameIsRefusedWithAPointerToStandardInput) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("matrix.npy")).exit_code, 0);
    const ToolRun named = run_script("cat matrix.npy | dbdf convert /dev/stdin out.dbdf --from npy", scratch_.root());
    EXPECT_NE(named.out.find("is a FIFO, not a regular file"), std::string::npos) << named.out;
    EXPECT_NE(named.out.find("give - to have standard input copied into one"), std::string::npos) << named.out;
}

TEST_F(CliStandardStreams, StandardOutputGetsTheBytesOfTheFileOutput) {
    for (const std::string format : {"npy", "csv", "mtx", "dbdf"}) {
        SCOPED_TRACE(format);
        ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("file." + format)).exit_code, 0);
        const ToolRun streamed = run("convert " + path("matrix.dbdf") + " - --to " + format);
        ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
        EXPECT_EQ(streamed.out, contents(path("file." + format)));
    }
}

TEST_F(CliStandardStreams, InfoValidateCatAndMapReadStandardInput) {
    const std::string file = path("matrix.dbdf");
    for (const std::string command : {"info", "info --json", "cat", "validate"}) {
        SCOPED_TRACE(command);
        const ToolRun named = run(command + " " + file);
        const ToolRun streamed = piped(file, command + " -");
        EXPECT_EQ(streamed.exit_code, named.exit_code) << streamed.err;
        std::string expected = named.out;
        for (std::size_t at = expected.find(file); at != std::string::npos; at = expected.find(file, at + 1)) {
            expected.replace(at, file.size(), "-");
        }
        EXPECT_EQ(streamed.out, expected);
    }
    ASSERT_EQ(run("map " + file + " " + path("map.svg")).exit_code, 0);
    const ToolRun map = piped(file, "map - -");
    ASSERT_EQ(map.exit_code, 0) << map.err;
    EXPECT_NE(map.out.find("<svg"), std::string::npos);
    const ToolRun invalid = piped_bytes("id,price\n1,2\n", "validate -");
    EXPECT_EQ(invalid.exit_code, 1);
    EXPECT_NE(invalid.out.find("-: "), std::string::npos) << invalid.out;
}

TEST_F(CliStandardStreams, StandardStreamsNeedTheirFormatNamed) {
    const ToolRun no_from = piped(path("matrix.dbdf"), "convert - " + path("out.npy"));
    EXPECT_EQ(no_from.exit_code, 2);
    EXPECT_NE(no_from.err.find("standard input has no name to tell its format by: give --from"), std::string::npos)
        << no_from.err;
    const ToolRun no_to = run("convert " + path("matrix.dbdf") + " -");
    EXPECT_EQ(no_to.exit_code, 2);
    EXPECT_NE(no_to.err.find("standard output has no name to tell its format by: give --to"), std::string::npos)
        << no_to.err;
    EXPECT_TRUE(no_to.out.empty());
}

TEST_F(CliStandardStreams, EmptyStandardInputIsAnError) {
    for (const std::string& command : {std::string("info -"), std::string("validate -"), std::string("cat -"),
                                       std::string("map - -"), "convert - " + path("out.npy") + " --from dbdf"}) {
        SCOPED_TRACE(command);
        const ToolRun empty = piped_bytes("", command);
        EXPECT_EQ(empty.exit_code, 2);
        EXPECT_NE(empty.err.find("dbdf: -: standard input is empty"), std::string::npos) << empty.err;
        EXPECT_TRUE(empty.out.empty());
    }
    EXPECT_EQ(files_in_directory(), 1u);
    const ToolRun redirected = run("info - < /dev/null");
    EXPECT_EQ(redirected.exit_code, 2);
    EXPECT_NE(redirected.err.find("standard input is empty"), std::string::npos) << redirected.err;
    write_bytes("empty", "");
    const ToolRun empty_file = run("info - < " + path("empty"));
    EXPECT_EQ(empty_file.exit_code, 2);
    EXPECT_NE(empty_file.err.find("standard input is empty"), std::string::npos) << empty_file.err;
}

TEST_F(CliStandardStreams, ATerminalIsNotReadAsStandardInput) {
    const ToolRun run = run_on_terminal("info -");
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.out.find("dbdf: -: standard input is a terminal"), std::string::npos) << run.out;
}

TEST_F(CliStandardStreams, ACopyThatCannotBeWrittenStopsWithAnError) {
    // The copy of a piped standard input outgrows the file size limit, as it would a full disk.
    RunSettings limited;
    limited.file_size_bytes = 4096;
    const ToolRun too_large = piped_bytes(std::string(100000, '\0'), "info -", limited);
    EXPECT_EQ(too_large.exit_code, 2);
    EXPECT_NE(too_large.err.find("dbdf: -: cannot copy standard input into a temporary file"), std::string::npos)
        << too_large.err;
    EXPECT_NE(too_large.err.find("File too large"), std::string::npos) << too_large.err;
    const ToolRun no_directory =
        run_script("cat matrix.dbdf | TMPDIR='" + path("missing") + "' dbdf info -; echo \"exit $?\"", scratch_.root());
    EXPECT_NE(no_directory.out.find("exit 2"), std::string::npos) << no_directory.out;
    EXPECT_NE(no_directory.out.find("cannot create a temporary file in " + path("missing")), std::string::npos)
        << no_directory.out;
}

TEST_F(CliStandardStreams, AFailedConversionToStandardOutputWritesNothingBeforeItsError) {
    write_bytes("bad.dbdf", "id,price\n1,2\n");
    const ToolRun refused = run("convert " + path("bad.dbdf") + " - --to npy");
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_TRUE(refused.out.empty());
    const ToolRun refused_stdin = piped(path("bad.dbdf"), "convert - - --from dbdf --to npy");
    EXPECT_EQ(refused_stdin.exit_code, 1);
    EXPECT_TRUE(refused_stdin.out.empty());
}

TEST_F(CliStandardStreams, DaphneOutputToStandardOutputHasNoMeta) {
    const ToolRun run =
        run_script("dbdf convert matrix.dbdf - --to dbdf --dialect-out daphne > daphne.dbdf", scratch_.root());
    ASSERT_EQ(run.exit_code, 0) << run.out;
    EXPECT_EQ(files_in_directory(), 2u);
    const std::string expected(reinterpret_cast<const char*>(values_.data()), values_.size() * sizeof(double));
    EXPECT_TRUE(same_bits(expected, read_bits(path("daphne.dbdf"), DBDF_VALUE_F64, nullptr, DBDF_DIALECT_DAPHNE), 8));
}

}  // namespace
