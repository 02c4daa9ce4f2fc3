// Every invalid golden file (tests/vectors/invalid/, described in vectors.json) through every conversion from .dbdf:
// each is refused as invalid input (exit 1) naming the rule and byte offset that vectors.json gives, which `validate`
// reports too, never as memory running out or an I/O error (exit 2); and nothing is written.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tool_run.hpp"

namespace {

using cli_test::run;
using cli_test::ToolRun;
using nlohmann::json;

std::vector<json> invalid_vectors() {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/vectors.json");
    return json::parse(file)["invalid"].get<std::vector<json>>();
}

class CliInvalidInput : public ::testing::TestWithParam<json> {};

TEST_P(CliInvalidInput, EveryConversionNamesTheRule) {
    const json& vector = GetParam();
    const std::string input = cli_test::vector_path(vector["file"].get<std::string>());
    const int rule = vector["rule"].get<int>();
    const std::string where = "at byte " + std::to_string(vector["offset"].get<std::uint64_t>()) + " (" +
                              (rule == 0 ? std::string("spec layout") : "rule " + std::to_string(rule)) + ")";
    const ToolRun validated = run("validate " + input);
    EXPECT_EQ(validated.exit_code, 1);
    const std::string finding = (rule == 0 ? std::string("spec layout") : "rule " + std::to_string(rule)) +
                                " at byte " + std::to_string(vector["offset"].get<std::uint64_t>()) + ": ";
    EXPECT_NE(validated.out.find(finding), std::string::npos) << validated.out;
    const cli_test::ScratchDirectory scratch("dbdf_cli_invalid");
    for (const std::string output : {"out.dbdf", "out.dbdf --encoding as-is", "out.dbdf --block 2x2",
                                     "out.dbdf --dialect-out daphne", "out.npy", "out.mtx", "out.csv"}) {
        const ToolRun result = run("convert " + input + " " + scratch.path(output));
        EXPECT_EQ(result.exit_code, 1) << output << ": " << result.err;
        EXPECT_NE(result.err.find(where), std::string::npos)
            << output << ": expected '" << where << "' in " << result.err;
        EXPECT_EQ(scratch.file_count(), 0u) << output;
    }
}

std::string test_name(const ::testing::TestParamInfo<json>& info) {
    std::string name = info.param["file"].get<std::string>();
    name = name.substr(name.rfind('/') + 1);
    name = name.substr(0, name.rfind('.'));
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, CliInvalidInput, ::testing::ValuesIn(invalid_vectors()), test_name);

}  // namespace
