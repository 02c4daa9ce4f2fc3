// The CLI's --dialect options against the files DAPHNE's runtime wrote.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

struct ToolRun {
    int exit_code;
    std::string output;  // stdout and stderr
};

ToolRun run(const std::string& arguments) {
    const std::string command = std::string(DBDF_CLI_PATH) + " " + arguments + " 2>&1";
    ToolRun result{-1, ""};
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    char buffer[4096];
    std::size_t read = 0;
    while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, read);
    const int status = ::pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string corpus(const std::string& name) { return std::string(DBDF_VECTORS_DIR) + "/daphne-runtime/" + name; }

std::string contents(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

class CliDialect : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_cli_dialect_" + std::to_string(::getpid()) + "_" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(directory_);
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }
    std::string path(const std::string& name) const { return (directory_ / name).string(); }
    fs::path directory_;
};

TEST_F(CliDialect, InfoSuggestsTheDialectButNeverGuesses) {
    ToolRun result = run("info " + corpus("dense_f64_3x4.dbdf"));
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("this looks like the daphne dialect; try --dialect daphne"), std::string::npos)
        << result.output;
    result = run("info --dialect daphne " + corpus("dense_f64_3x4.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("dialect:     daphne"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("shape:       3 x 4"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("value type:  f64"), std::string::npos) << result.output;
    EXPECT_EQ(run("info --dialect klingon " + corpus("dense_f64_3x4.dbdf")).exit_code, 2);
}

TEST_F(CliDialect, InfoSaysWhenLabelsAreNotRecoverable) {
    ToolRun result = run("info --dialect daphne " + corpus("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("labels:      not recoverable"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("col_1"), std::string::npos) << result.output;
    result = run("info --json --dialect daphne " + corpus("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("\"dialect\":\"daphne\""), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("\"labels_recoverable\":false"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("{\"label\":\"col_2\",\"value_type\":\"f32\"}"), std::string::npos) << result.output;
}

TEST_F(CliDialect, ValidateAndCat) {
    EXPECT_EQ(run("validate --dialect daphne " + corpus("csr_f64_6x5.dbdf")).output, "ok\n");
    ToolRun spec = run("validate " + corpus("frame_mixed.dbdf"));
    EXPECT_EQ(spec.exit_code, 1);
    EXPECT_NE(spec.output.find("this looks like the daphne dialect; try --dialect daphne"), std::string::npos)
        << spec.output;
    ToolRun truncated = run("validate --dialect daphne " + corpus("frame_strcol_partial.dbdf"));
    EXPECT_EQ(truncated.exit_code, 1);
    EXPECT_NE(truncated.output.find("truncated"), std::string::npos) << truncated.output;
    ToolRun strings = run("info --dialect daphne " + corpus("dense_str_2x2.dbdf"));
    EXPECT_NE(strings.exit_code, 0);
    EXPECT_NE(strings.output.find("cannot be recovered"), std::string::npos) << strings.output;
    ToolRun cat = run("cat --dialect daphne " + corpus("csr_i64_4x4.dbdf"));
    ASSERT_EQ(cat.exit_code, 0) << cat.output;
    EXPECT_NE(cat.output.find("1000000000000"), std::string::npos) << cat.output;
    EXPECT_NE(cat.output.find("-42"), std::string::npos) << cat.output;
}

TEST_F(CliDialect, ConvertBetweenDialectsReproducesTheRuntimeBytes) {
    for (const char* name : {"csr_f64_6x5.dbdf", "dense_si8_2x5.dbdf", "dense_f64_empty_0x3.dbdf", "csr_f64_empty_3x3.dbdf"}) {
        SCOPED_TRACE(name);
        ToolRun to_spec = run("convert " + corpus(name) + " " + path("spec.dbdf") + " --dialect-in daphne --dialect-out spec");
        ASSERT_EQ(to_spec.exit_code, 0) << to_spec.output;
        EXPECT_EQ(run("validate " + path("spec.dbdf")).output, "ok\n");
        EXPECT_FALSE(fs::exists(path("spec.dbdf.meta")));
        ToolRun back = run("convert " + path("spec.dbdf") + " " + path("back.dbdf") + " --dialect-out daphne");
        ASSERT_EQ(back.exit_code, 0) << back.output;
        EXPECT_EQ(contents(path("back.dbdf")), contents(corpus(name)));
        EXPECT_TRUE(fs::exists(path("back.dbdf.meta")));
    }
    EXPECT_EQ(contents(path("back.dbdf.meta")), R"({"numCols":3,"numNonZeros":0,"numRows":3,"valueType":"f64"})");
    ASSERT_EQ(run("convert " + corpus("dense_u8_4x4.dbdf") + " " + path("u8.dbdf") + " --dialect daphne --dialect-out daphne").exit_code, 0);
    EXPECT_EQ(contents(path("u8.dbdf.meta")), contents(corpus("dense_u8_4x4.dbdf.meta")));
    ASSERT_EQ(run("convert " + corpus("dense_u8_4x4.dbdf") + " " + path("nometa.dbdf") +
                  " --dialect-in daphne --dialect-out daphne --no-meta").exit_code, 0);
    EXPECT_FALSE(fs::exists(path("nometa.dbdf.meta")));
    EXPECT_EQ(contents(path("nometa.dbdf")), contents(corpus("dense_u8_4x4.dbdf")));
    EXPECT_EQ(run("convert " + corpus("dense_u8_4x4.dbdf") + " " + path("x.dbdf") + " --dialect-out daphne --block 2x2").exit_code, 2);
    ToolRun i16 = run("convert " + path("spec.dbdf") + " " + path("i16.dbdf") + " --dialect-out daphne --value-type i16");
    EXPECT_EQ(i16.exit_code, 2);
    EXPECT_NE(i16.output.find("cannot express"), std::string::npos) << i16.output;
}

TEST_F(CliDialect, ConvertsFramesAndScalarsToOtherFormats) {
    ASSERT_EQ(run("convert " + corpus("frame_mixed.dbdf") + " " + path("frame.csv") + " --dialect daphne").exit_code, 0);
    EXPECT_EQ(contents(path("frame.csv")).substr(0, 18), "col_0,col_1,col_2\n");
    ToolRun scalar = run("convert " + corpus("value_i64_serialized.bin") + " " + path("v.csv") + " --from dbdf --dialect daphne");
    ASSERT_EQ(scalar.exit_code, 0) << scalar.output;
    EXPECT_EQ(contents(path("v.csv")), "-7\n");
}

}  // namespace
