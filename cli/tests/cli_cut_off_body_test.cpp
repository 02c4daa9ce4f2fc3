// A daphne file whose object has no cells (0 x N, N x 0) but whose body is cut off after the 19-byte header is
// refused by every command with the same error: none of them may print or convert its (absent) values and exit 0.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "cli_fixture.hpp"

namespace {

using namespace cli_test;

using CliCutOffBody = CliTest;

std::string runtime_file(const std::string& name) {
    std::ifstream file(vector_path("daphne-runtime/" + name), std::ios::binary);
    EXPECT_TRUE(file.good()) << name;
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

TEST_F(CliCutOffBody, EveryCommandRefusesAHeaderWithoutItsBlock) {
    for (const char* name : {"dense_f64_empty_0x3.dbdf", "dense_f64_3x0.dbdf", "dense_f64_empty_0x0.dbdf",
                             "csr_f64_0x3_d0.1.dbdf", "csr_f64_3x0_d0.1.dbdf"}) {
        SCOPED_TRACE(name);
        const std::string whole = runtime_file(name);
        ASSERT_GT(whole.size(), 19u);
        const std::string input = path(std::string("cut_") + name);
        write_bytes(std::string("cut_") + name, whole.substr(0, 19));
        // The whole file reads: the refusal is the cut, not the shape.
        EXPECT_EQ(run("cat --dialect daphne " + vector_path(std::string("daphne-runtime/") + name)).exit_code, 0);

        const std::string expected = "dbdf: " + input +
                                     ": input ends inside the block header (26 bytes from byte 19) at byte 19 (daphne "
                                     "dialect)\n";
        for (const std::string command : {"info", "cat"}) {
            const ToolRun result = run(command + " --dialect daphne " + input);
            EXPECT_EQ(result.exit_code, 1) << command << ": " << result.out;
            EXPECT_EQ(result.out, "") << command;
            EXPECT_EQ(result.err, expected) << command;
        }
        const ToolRun validated = run("validate --dialect daphne " + input);
        EXPECT_EQ(validated.exit_code, 1) << validated.out << validated.err;
        EXPECT_NE(validated.out.find("input ends inside the block header"), std::string::npos) << validated.out;
        for (const char* extension : {".npy", ".csv", ".mtx", ".dbdf"}) {
            const std::string output = path(std::string("out_") + name + extension);
            const ToolRun converted = run("convert --dialect-in daphne " + input + " " + output);
            EXPECT_EQ(converted.exit_code, 1) << extension;
            EXPECT_EQ(converted.err, expected) << extension;
            EXPECT_FALSE(std::ifstream(output).good()) << extension << ": nothing is written";
        }
    }
}

// The spec dialect's analogue: a 0 x 3 object followed by bytes that are no block. Printing its zero values read
// nothing, so cat accepted it while info, validate and convert refused it.
TEST_F(CliCutOffBody, CatRefusesASpecObjectWithoutCellsFollowedByBytesThatAreNoBlock) {
    std::string header = raw<std::uint8_t>({1, 1});
    header += raw<std::uint64_t>({0, 3});
    header += raw<std::uint8_t>({10});
    write_bytes("zero_by_three.dbdf", header);
    EXPECT_EQ(run("cat " + path("zero_by_three.dbdf")).exit_code, 0);
    write_bytes("zero_by_three_junk.dbdf", header + std::string(5, '\0'));
    const std::string input = path("zero_by_three_junk.dbdf");
    const std::string expected = "dbdf: " + input +
                                 ": block 0: 5 trailing bytes do not form a complete block header (25 bytes needed) at "
                                 "byte 19 (rule 5)\n";
    for (const std::string command : {"info ", "cat ", "convert "}) {
        const std::string output = command == "convert " ? " " + path("out.npy") : "";
        const ToolRun result = run(command + input + output);
        EXPECT_EQ(result.exit_code, 1) << command << result.out;
        EXPECT_EQ(result.err, expected) << command;
    }
}

}  // namespace
