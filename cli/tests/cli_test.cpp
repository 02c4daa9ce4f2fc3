// Runs the built dbdf tool: every command, every format in both directions, invalid inputs for each reader.
// Files are checked through dbdf.h, so round trips compare values exactly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dbdf.h"

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

std::string vector_path(const std::string& name) { return std::string(DBDF_VECTORS_DIR) + "/" + name; }

// Reads a whole object as f64 through dbdf.h.
std::vector<double> read_f64(const std::string& path, dbdf_object_info_t* info_out = nullptr) {
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << dbdf_last_error_message();
    if (reader == nullptr) return {};
    dbdf_object_info_t info{};
    dbdf_reader_object_info(reader, &info);
    std::vector<double> values(info.rows * info.cols);
    for (std::uint64_t c = 0; c < info.cols; ++c) {
        std::vector<double> column(info.rows);
        EXPECT_EQ(dbdf_reader_read_column(reader, c, DBDF_VALUE_F64, column.data(), column.size()), DBDF_OK)
            << dbdf_last_error_message();
        for (std::uint64_t r = 0; r < info.rows; ++r) values[r * info.cols + c] = column[r];
    }
    if (info_out != nullptr) *info_out = info;
    dbdf_reader_free(reader);
    return values;
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_cli_test_" + std::to_string(::getpid()) + "_" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(directory_);
        fs::create_directories(directory_);
        // 7 x 5 f64 matrix: mostly zeros, some fractions and large values.
        values_.assign(35, 0.0);
        values_[1] = 0.5;
        values_[7] = -3.0;
        values_[18] = 1e300;
        values_[34] = 2.25;
        write_matrix(path("matrix.dbdf"), DBDF_DATA_CSR);
    }
    void TearDown() override { fs::remove_all(directory_); }

    std::string path(const std::string& name) const { return (directory_ / name).string(); }

    void write_matrix(const std::string& file, dbdf_data_type_t data_type) {
        dbdf_writer_t* writer = nullptr;
        ASSERT_EQ(dbdf_writer_open_file(file.c_str(), &writer), DBDF_OK);
        dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
        options.block_rows = 3;
        options.block_cols = 2;
        ASSERT_EQ(dbdf_writer_begin_matrix(writer, data_type, DBDF_VALUE_F64, 7, 5), DBDF_OK);
        ASSERT_EQ(dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values_.data(), values_.size(), 0, &options), DBDF_OK);
        ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK);
        dbdf_writer_free(writer);
    }

    void write_bytes(const std::string& file, const std::string& bytes) {
        std::ofstream out(path(file), std::ios::binary);
        out << bytes;
    }

    std::size_t files_in_directory() const {
        return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory_), fs::directory_iterator()));
    }

    fs::path directory_;
    std::vector<double> values_;
};

TEST_F(Cli, EveryCommandHasHelp) {
    for (const char* command : {"", "info", "validate", "cat", "convert"}) {
        const ToolRun result = run(std::string(command) + " --help");
        EXPECT_EQ(result.exit_code, 0) << command;
        EXPECT_NE(result.output.find("Usage"), std::string::npos) << result.output;
    }
    EXPECT_NE(run("").exit_code, 0);
    EXPECT_NE(run("frobnicate x").exit_code, 0);
}

TEST_F(Cli, InfoAsTextAndJson) {
    ToolRun result = run("info " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("data type:   csr"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("shape:       7 x 5"), std::string::npos);
    EXPECT_NE(result.output.find("blocks:      9"), std::string::npos);
    result = run("info --json " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    for (const char* field : {"\"data_type\":\"csr\"", "\"rows\":7", "\"cols\":5", "\"value_type\":\"f64\"",
                              "\"block_count\":9", "\"blocks\":[", "\"encoded_bytes\":", "\"space_by_block_type\":{"}) {
        EXPECT_NE(result.output.find(field), std::string::npos) << field << " in " << result.output;
    }
    result = run("info --json " + vector_path("frame_mixed.dbdf"));
    EXPECT_NE(result.output.find("{\"label\":\"prix élevé\",\"value_type\":\"f64\"}"), std::string::npos)
        << result.output;
    EXPECT_EQ(run("info " + path("missing.dbdf")).exit_code, 2);
}

TEST_F(Cli, ValidateExitCodes) {
    ToolRun result = run("validate " + vector_path("multi_block_shuffled.dbdf"));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.output, "ok\n");
    result = run("validate " + vector_path("invalid/csr_unsorted_columns.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("rule 12 at byte 69"), std::string::npos) << result.output;
    result = run("validate " + vector_path("invalid/uncovered_cells.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("rule 1 at byte 44"), std::string::npos) << result.output;
    result = run("validate " + vector_path("invalid/bad_version.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("rule 6"), std::string::npos) << result.output;
    EXPECT_EQ(run("validate " + path("missing.dbdf")).exit_code, 2);
    EXPECT_EQ(run("validate").exit_code, 106);  // CLI11's usage error code
}

TEST_F(Cli, CatPrintsAlignedWindowsAndFrameLabels) {
    ToolRun result = run("cat " + path("matrix.dbdf") + " --rows 0:2 --cols 0:3");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(result.output, "0  0.5   0\n0    0  -3\n");
    result = run("cat " + vector_path("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("prix élevé"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("-9223372036854775808"), std::string::npos) << result.output;
    result = run("cat " + path("matrix.dbdf") + " --limit 2");
    EXPECT_NE(result.output.find("showing rows 0:2"), std::string::npos) << result.output;
    EXPECT_EQ(run("cat " + path("matrix.dbdf") + " --rows 5:9").exit_code, 2);
}

TEST_F(Cli, NpyRoundTripIsExact) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.npy")).exit_code, 0);
    const ToolRun back = run("convert " + path("m.npy") + " " + path("back.dbdf"));
    ASSERT_EQ(back.exit_code, 0) << back.output;
    dbdf_object_info_t info{};
    EXPECT_EQ(read_f64(path("back.dbdf"), &info), values_);
    EXPECT_EQ(info.data_type, DBDF_DATA_DENSE);
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
}

TEST_F(Cli, MatrixMarketRoundTripsExactly) {
    // CSR objects become coordinate files, dense ones array files.
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.mtx")).exit_code, 0);
    std::ifstream coordinate(path("m.mtx"));
    std::string banner;
    std::getline(coordinate, banner);
    EXPECT_EQ(banner, "%%MatrixMarket matrix coordinate real general");
    ToolRun back = run("convert " + path("m.mtx") + " " + path("back.dbdf"));
    ASSERT_EQ(back.exit_code, 0) << back.output;
    dbdf_object_info_t info{};
    EXPECT_EQ(read_f64(path("back.dbdf"), &info), values_);
    EXPECT_EQ(info.data_type, DBDF_DATA_CSR);
    write_matrix(path("dense.dbdf"), DBDF_DATA_DENSE);
    ASSERT_EQ(run("convert " + path("dense.dbdf") + " " + path("d.mtx")).exit_code, 0);
    back = run("convert " + path("d.mtx") + " " + path("dense_back.dbdf") + " --data-type dense");
    ASSERT_EQ(back.exit_code, 0) << back.output;
    EXPECT_EQ(read_f64(path("dense_back.dbdf")), values_);
}

TEST_F(Cli, MatrixMarketPatternAndSymmetricInputs) {
    write_bytes("p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% comment\n3 3 2\n2 1\n3 3\n");
    ASSERT_EQ(run("convert " + path("p.mtx") + " " + path("p.dbdf")).exit_code, 0);
    EXPECT_EQ(read_f64(path("p.dbdf")), (std::vector<double>{0, 1, 0, 1, 0, 0, 0, 0, 1}));
    write_bytes("i.mtx", "%%MatrixMarket matrix array integer general\n2 2\n1\n-2\n3\n4\n");
    ASSERT_EQ(run("convert " + path("i.mtx") + " " + path("i.dbdf")).exit_code, 0);
    dbdf_object_info_t info{};
    EXPECT_EQ(read_f64(path("i.dbdf"), &info), (std::vector<double>{1, 3, -2, 4}));  // column-major input
    EXPECT_EQ(info.value_type, DBDF_VALUE_I64);
}

// Found by the mtx fuzz target: a sparse matrix whose area is huge must convert in time and space that follow its
// entries (tiles without entries are empty blocks), and a shape needing absurdly many blocks is refused at once.
TEST_F(Cli, HugeSparseMatrixMarketInputsConvertByTheirEntries) {
    write_bytes("wide.mtx",
                "%%MatrixMarket matrix coordinate real skew-symmetric\n4 12222222222222 2\n2 1 1.25\n3 1 -2\n");
    ToolRun wide = run("convert " + path("wide.mtx") + " " + path("wide.dbdf"));
    ASSERT_EQ(wide.exit_code, 0) << wide.output;
    dbdf_reader_t* reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(path("wide.dbdf").c_str(), &reader), DBDF_OK);
    dbdf_object_info_t info{};
    dbdf_reader_object_info(reader, &info);
    EXPECT_EQ(info.rows, 4u);
    EXPECT_EQ(info.cols, 12222222222222u);
    EXPECT_EQ(info.data_type, DBDF_DATA_CSR);
    std::uint64_t blocks = 0;
    ASSERT_EQ(dbdf_reader_build_index(reader, &blocks), DBDF_OK) << dbdf_last_error_message();
    EXPECT_EQ(blocks, (12222222222222u + 0xFFFFFFFEu) / 0xFFFFFFFFu);  // one band of full-width tiles
    double window[4 * 2] = {};
    ASSERT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_F64, 0, 0, 4, 2, window, 8, 0), DBDF_OK);
    EXPECT_EQ(std::vector<double>(window, window + 8), (std::vector<double>{0, -1.25, 1.25, 0, -2, 0, 0, 0}));
    dbdf_reader_free(reader);

    write_bytes("tall.mtx", "%%MatrixMarket matrix coordinate integer general\n10000000000000 3 1\n9999999999999 2 7\n");
    ToolRun tall = run("convert " + path("tall.mtx") + " " + path("tall.dbdf"));
    ASSERT_EQ(tall.exit_code, 0) << tall.output;
    reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(path("tall.dbdf").c_str(), &reader), DBDF_OK);
    ASSERT_EQ(dbdf_reader_build_index(reader, &blocks), DBDF_OK) << dbdf_last_error_message();
    EXPECT_LT(blocks, 4000u);  // empty runs of rows are merged into blocks of up to 2^32 - 1 rows
    std::int64_t cell = 0;
    ASSERT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_I64, 9999999999998u, 1, 1, 1, &cell, 1, 0), DBDF_OK);
    EXPECT_EQ(cell, 7);
    dbdf_reader_free(reader);
    // Re-encoding keeps the input's block boundaries, so it costs no more than the input's blocks.
    ToolRun again = run("convert " + path("tall.dbdf") + " " + path("again.dbdf") + " --value-type i8");
    ASSERT_EQ(again.exit_code, 0) << again.output;
    reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(path("again.dbdf").c_str(), &reader), DBDF_OK);
    cell = 0;
    ASSERT_EQ(dbdf_reader_read_dense_window(reader, DBDF_VALUE_I64, 9999999999998u, 1, 1, 1, &cell, 1, 0), DBDF_OK);
    EXPECT_EQ(cell, 7);
    dbdf_object_info_t again_info{};
    dbdf_reader_object_info(reader, &again_info);
    EXPECT_EQ(again_info.value_type, DBDF_VALUE_I8);
    dbdf_reader_free(reader);

    // Found by the mtx fuzz target: 2 x 8888888888888889 needs over two million blocks of at most 2^32 - 1 columns.
    write_bytes("very_wide.mtx",
                "%%MatrixMarket matrix coordinate real skew-symmetric\n2 8888888888888889 2\n2 1 185\n1 1 -2\n");
    ToolRun very_wide = run("convert " + path("very_wide.mtx") + " " + path("very_wide.dbdf"));
    EXPECT_EQ(very_wide.exit_code, 2);
    EXPECT_NE(very_wide.output.find("needs more than 1048576 blocks"), std::string::npos) << very_wide.output;

    write_bytes("absurd.mtx", "%%MatrixMarket matrix coordinate real general\n18446744073709551615 18446744073709551615 0\n");
    ToolRun absurd = run("convert " + path("absurd.mtx") + " " + path("absurd.dbdf"));
    EXPECT_EQ(absurd.exit_code, 2);
    EXPECT_NE(absurd.output.find("needs more than"), std::string::npos) << absurd.output;
    EXPECT_FALSE(fs::exists(path("absurd.dbdf")));
}

TEST_F(Cli, CsvRoundTripsForMatricesAndFrames) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.csv")).exit_code, 0);
    ASSERT_EQ(run("convert " + path("m.csv") + " " + path("back.dbdf")).exit_code, 0);
    EXPECT_EQ(read_f64(path("back.dbdf")), values_);
    ASSERT_EQ(run("convert " + vector_path("frame_mixed.dbdf") + " " + path("f.csv")).exit_code, 0);
    std::ifstream csv(path("f.csv"));
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header, "id,prix élevé,,count");
    const ToolRun back = run("convert " + path("f.csv") + " " + path("f.dbdf") + " --schema 'id:i64,prix élevé:f64,:u8,count:u8'");
    ASSERT_EQ(back.exit_code, 0) << back.output;
    const ToolRun original = run("cat " + vector_path("frame_mixed.dbdf"));
    const ToolRun copy = run("cat " + path("f.dbdf"));
    EXPECT_EQ(copy.output, original.output);
    const ToolRun inferred = run("info --json " + path("f.dbdf"));
    EXPECT_NE(inferred.output.find("\"label\":\"count\",\"value_type\":\"u8\""), std::string::npos) << inferred.output;
    ASSERT_EQ(run("convert " + path("f.csv") + " " + path("g.dbdf")).exit_code, 0);
    const ToolRun types = run("info --json " + path("g.dbdf"));
    EXPECT_NE(types.output.find("\"label\":\"id\",\"value_type\":\"i64\""), std::string::npos) << types.output;
    EXPECT_NE(types.output.find("\"label\":\"prix élevé\",\"value_type\":\"f64\""), std::string::npos);
}

std::string npy_bytes(const std::string& descr, const std::string& shape, bool fortran, const std::string& data) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
    while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(dict.size() & 0xFF);
    bytes += static_cast<char>(dict.size() >> 8);
    return bytes + dict + data;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
    std::string bytes;
    for (T value : values) bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    return bytes;
}

TEST_F(Cli, NpyInputOfAllTenDtypes) {
    struct Case {
        const char* descr;
        std::string data;
        dbdf_value_type_t type;
    };
    const Case cases[] = {
        {"|u1", raw<std::uint8_t>({0, 255, 7, 1}), DBDF_VALUE_U8},
        {"<u2", raw<std::uint16_t>({0, 65535, 7, 1}), DBDF_VALUE_U16},
        {"<u4", raw<std::uint32_t>({0, 4294967295u, 7, 1}), DBDF_VALUE_U32},
        {"<u8", raw<std::uint64_t>({0, 1ull << 40, 7, 1}), DBDF_VALUE_U64},
        {"|i1", raw<std::int8_t>({-128, 127, 7, 1}), DBDF_VALUE_I8},
        {"<i2", raw<std::int16_t>({-32768, 32767, 7, 1}), DBDF_VALUE_I16},
        {"<i4", raw<std::int32_t>({-5, 2147483647, 7, 1}), DBDF_VALUE_I32},
        {"<i8", raw<std::int64_t>({-5, 1ll << 50, 7, 1}), DBDF_VALUE_I64},
        {"<f4", raw<float>({-0.5f, 1e30f, 7, 1}), DBDF_VALUE_F32},
        {"<f8", raw<double>({-0.25, 1e300, 7, 1}), DBDF_VALUE_F64},
    };
    for (const Case& c : cases) {
        write_bytes("in.npy", npy_bytes(c.descr, "(2, 2)", false, c.data));
        const ToolRun result = run("convert " + path("in.npy") + " " + path("out.dbdf"));
        ASSERT_EQ(result.exit_code, 0) << c.descr << ": " << result.output;
        dbdf_object_info_t info{};
        const auto values = read_f64(path("out.dbdf"), &info);
        EXPECT_EQ(info.value_type, c.type) << c.descr;
        EXPECT_EQ(values[2], 7.0) << c.descr;
        EXPECT_EQ(values[3], 1.0) << c.descr;
        // And back out: the npy written by the tool holds the same bytes.
        ASSERT_EQ(run("convert " + path("out.dbdf") + " " + path("again.npy")).exit_code, 0);
        std::ifstream again(path("again.npy"), std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(again), std::istreambuf_iterator<char>()};
        EXPECT_EQ(bytes.substr(bytes.size() - c.data.size()), c.data) << c.descr;
        EXPECT_EQ(bytes.size() % 64, c.data.size() % 64) << "header padded to 64 bytes";
    }
}

TEST_F(Cli, NpyFortranOrderOneDimensionalAndBigEndian) {
    write_bytes("f.npy", npy_bytes("<f8", "(2, 3)", true, raw<double>({1, 4, 2, 5, 3, 6})));
    ASSERT_EQ(run("convert " + path("f.npy") + " " + path("f.dbdf")).exit_code, 0);
    EXPECT_EQ(read_f64(path("f.dbdf")), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    write_bytes("v.npy", npy_bytes("<i4", "(3,)", false, raw<std::int32_t>({9, 8, 7})));
    ASSERT_EQ(run("convert " + path("v.npy") + " " + path("v.dbdf")).exit_code, 0);
    dbdf_object_info_t info{};
    EXPECT_EQ(read_f64(path("v.dbdf"), &info), (std::vector<double>{9, 8, 7}));
    EXPECT_EQ(info.cols, 1u);
    write_bytes("b.npy", npy_bytes(">i2", "(1, 2)", false, std::string("\x01\x02\xff\xfe", 4)));
    ASSERT_EQ(run("convert " + path("b.npy") + " " + path("b.dbdf")).exit_code, 0);
    EXPECT_EQ(read_f64(path("b.dbdf")), (std::vector<double>{258, -2}));
}

TEST_F(Cli, InvalidInputsFailCleanlyAndLeaveNothingBehind) {
    const std::size_t before = files_in_directory();
    struct Case {
        const char* file;
        std::string bytes;
        const char* message;
    };
    const Case cases[] = {
        {"truncated.npy", npy_bytes("<f8", "(2, 2)", false, raw<double>({1, 2, 3})), "needs 32 data bytes"},
        {"magic.npy", "NUMPY no", "bad magic"},
        {"dtype.npy", npy_bytes("<c16", "(1, 1)", false, std::string(16, '\0')), "not one of the ten"},
        {"rank.npy", npy_bytes("<f8", "(1, 1, 1)", false, raw<double>({1})), "3-dimensional"},
        {"line.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 3.0\n", ":3: malformed"},
        {"range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 3.0\n", ":3: malformed or out-of-range"},
        {"count.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 3.0\n", "2 entries announced, 1 found"},
        {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "not supported"},
        {"ragged.csv", "1,2,3\n4,5\n", ":2: 2 fields where the first row has 3"},
        {"text.csv", "1,2\n3,x\n", ":2: field 2 'x' is not a number"},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.bytes);
        const ToolRun result = run(std::string("convert ") + path(c.file) + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << c.file << ": " << result.output;
        EXPECT_NE(result.output.find(c.message), std::string::npos) << c.file << ": " << result.output;
        EXPECT_NE(result.output.find(c.file), std::string::npos) << "names the file: " << result.output;
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << c.file;
    }
    EXPECT_EQ(files_in_directory(), before + std::size(cases));  // only the inputs: no temporary files
    // A value that does not fit the requested type is a range error, and no output is left.
    const ToolRun narrowing = run("convert " + path("matrix.dbdf") + " " + path("ints.dbdf") + " --value-type i32");
    EXPECT_EQ(narrowing.exit_code, 1);
    EXPECT_NE(narrowing.output.find("not exactly representable"), std::string::npos) << narrowing.output;
    EXPECT_FALSE(fs::exists(path("ints.dbdf")));
    const ToolRun to_npy = run("convert " + path("matrix.dbdf") + " " + path("ints.npy") + " --value-type i32");
    EXPECT_EQ(to_npy.exit_code, 1) << to_npy.output;
    EXPECT_FALSE(fs::exists(path("ints.npy")));
    EXPECT_EQ(files_in_directory(), before + std::size(cases));
}

TEST_F(Cli, ReencodingKeepsValuesAndFollowsOptions) {
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("coo.dbdf") + " --encoding coo --block 4x5");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(read_f64(path("coo.dbdf")), values_);
    result = run("info --json " + path("coo.dbdf"));
    EXPECT_NE(result.output.find("\"block_count\":2"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("\"block_type\":\"dense\""), std::string::npos) << result.output;
    result = run("convert " + path("matrix.dbdf") + " " + path("same.dbdf") + " --encoding as-is");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    std::ifstream a(path("matrix.dbdf"), std::ios::binary), b(path("same.dbdf"), std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(b), {}));
    result = run("convert " + path("matrix.dbdf") + " " + path("frame.dbdf") + " --data-type frame");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(read_f64(path("frame.dbdf")), values_);
    EXPECT_NE(run("cat " + path("frame.dbdf")).output.find("col_4"), std::string::npos);
    EXPECT_EQ(run("convert " + path("matrix.dbdf") + " " + path("x.dbdf") + " --block 0x3").exit_code, 2);
}

}  // namespace
