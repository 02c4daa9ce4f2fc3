// Runs the built dbdf tool: every command, every format in both directions, invalid inputs for each reader.
// Files are checked through dbdf.h, so round trips compare values exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dbdf.h"
#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;

using namespace cli_test;

using Cli = CliTest;

TEST_F(Cli, EveryCommandHasHelp) {
    for (const char* command : {"", "info", "validate", "cat", "convert"}) {
        const ToolRun result = run(std::string(command) + " --help");
        EXPECT_EQ(result.exit_code, 0) << command;
        EXPECT_NE(result.out.find("Usage"), std::string::npos) << result.out;
        EXPECT_EQ(result.err, "") << command;
    }
}

TEST_F(Cli, InfoAsTextAndJson) {
    ToolRun result = run("info " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    EXPECT_NE(result.out.find("data type:   csr"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("shape:       7 x 5"), std::string::npos);
    EXPECT_NE(result.out.find("blocks:      9"), std::string::npos);
    result = run("info --json " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const char* field : {"\"data_type\":\"csr\"", "\"rows\":7", "\"cols\":5", "\"value_type\":\"f64\"",
                              "\"block_count\":9", "\"blocks\":[", "\"encoded_bytes\":", "\"space_by_block_type\":{"}) {
        EXPECT_NE(result.out.find(field), std::string::npos) << field << " in " << result.out;
    }
    result = run("info --json " + vector_path("frame_mixed.dbdf"));
    EXPECT_NE(result.out.find("{\"label\":\"prix élevé\",\"value_type\":\"f64\",\"label_hex\":null}"),
              std::string::npos)
        << result.out;
    const ToolRun missing = run("info " + path("missing.dbdf"));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_EQ(missing.out, "");
    EXPECT_NE(missing.err.find(path("missing.dbdf")), std::string::npos) << missing.err;
}

TEST_F(Cli, ValidateExitCodes) {
    ToolRun result = run("validate " + vector_path("multi_block_shuffled.dbdf"));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "ok\n");
    EXPECT_EQ(result.err, "");
    // Findings on stdout, one per line; the count on stderr.
    const std::string unsorted = vector_path("invalid/csr_unsorted_columns.dbdf");
    result = run("validate " + unsorted);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out.rfind(unsorted + ": rule 12 at byte 69: ", 0), 0u) << result.out;
    EXPECT_EQ(result.err, unsorted + ": 1 violation\n");
    result = run("validate " + vector_path("invalid/uncovered_cells.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("rule 1 at byte 44"), std::string::npos) << result.out;
    result = run("validate " + vector_path("invalid/bad_version.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("rule 6"), std::string::npos) << result.out;
    const ToolRun missing = run("validate " + path("missing.dbdf"));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_EQ(missing.out, "");
    EXPECT_NE(missing.err.find(path("missing.dbdf")), std::string::npos) << missing.err;
}

// A CSV (or any text) given where a .dbdf file belongs is named as such, with the rule, not as version 105.
TEST_F(Cli, TextIsNotADbdfFile) {
    write_bytes("prices.csv", "id,price\n1,2.5\n2,3.25\n");
    const std::string csv = path("prices.csv");
    const std::string what =
        "not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A2\"... (text) instead of format version 1";
    const ToolRun info = run("info " + csv);
    EXPECT_EQ(info.exit_code, 1);
    EXPECT_EQ(info.out, "");
    EXPECT_NE(info.err.find(csv + ": " + what + " at byte 0 (rule 6)"), std::string::npos) << info.err;
    const ToolRun validated = run("validate " + csv);
    EXPECT_EQ(validated.exit_code, 1);
    EXPECT_EQ(validated.out, csv + ": rule 6 at byte 0: " + what + "\n");
    EXPECT_EQ(validated.err, csv + ": 1 violation\n");
}

TEST_F(Cli, CatPrintsAlignedWindowsAndFrameLabels) {
    ToolRun result = run("cat " + path("matrix.dbdf") + " --rows 0:2 --cols 0:3");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, "0  0.5   0\n0    0  -3\n");
    EXPECT_EQ(result.err, "");
    result = run("cat " + vector_path("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("prix élevé"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("-9223372036854775808"), std::string::npos) << result.out;
    result = run("cat " + path("matrix.dbdf") + " --limit 2");
    EXPECT_EQ(result.out, "0  0.5   0  0  0\n0    0  -3  0  0\n");
    EXPECT_EQ(result.err, "... showing rows 0:2 of 7 (--rows A:B)\n");
    const ToolRun outside = run("cat " + path("matrix.dbdf") + " --rows 5:9");
    EXPECT_EQ(outside.exit_code, 2);
    EXPECT_EQ(outside.err, "dbdf: " + path("matrix.dbdf") + ": --rows 5:9 is outside 0:7\n");
}

// Without --rows, --cols or --limit a large object shows 20 rows and 10 columns, and says on stderr what it left out
// and how to see it.
TEST_F(Cli, CatShowsADefaultWindowOfALargeObject) {
    std::string values;
    for (std::int64_t v = 0; v < 30 * 15; ++v) values += raw<std::int64_t>({v});
    write_bytes("big.npy", npy_bytes("<i8", "(30, 15)", false, values));
    ASSERT_EQ(run("convert " + path("big.npy") + " " + path("big.dbdf")).exit_code, 0);
    const ToolRun result = run("cat " + path("big.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < result.out.size();) {
        const std::size_t end = result.out.find('\n', start);
        lines.push_back(result.out.substr(start, end - start));
        start = end + 1;
    }
    ASSERT_EQ(lines.size(), 20u) << result.out;
    EXPECT_EQ(lines.front(), "  0    1    2    3    4    5    6    7    8    9");
    EXPECT_EQ(lines.back(), "285  286  287  288  289  290  291  292  293  294");
    EXPECT_EQ(result.err, "... showing rows 0:20 of 30 (--rows A:B) and columns 0:10 of 15 (--cols A:B)\n");
    // Asking for the rest shows it, and says nothing more.
    const ToolRun rest = run("cat " + path("big.dbdf") + " --rows 20: --cols 10:");
    ASSERT_EQ(rest.exit_code, 0) << rest.err;
    EXPECT_EQ(rest.out.substr(0, rest.out.find('\n')), "310  311  312  313  314");
    EXPECT_EQ(rest.err, "");
}

TEST_F(Cli, NpyRoundTripIsExact) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.npy")).exit_code, 0);
    const ToolRun back = run("convert " + path("m.npy") + " " + path("back.dbdf"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(holds_values(path("back.dbdf")));
    dbdf_object_info_t info = object_info_of(path("back.dbdf"));
    EXPECT_EQ(info.data_type, DBDF_DATA_DENSE);
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
    // --data-type csr makes a CSR object of the same values from the dense array.
    const ToolRun csr = run("convert " + path("m.npy") + " " + path("csr.dbdf") + " --data-type csr");
    ASSERT_EQ(csr.exit_code, 0) << csr.err;
    EXPECT_TRUE(holds_values(path("csr.dbdf")));
    info = object_info_of(path("csr.dbdf"));
    EXPECT_EQ(info.data_type, DBDF_DATA_CSR);
}

TEST_F(Cli, MatrixMarketRoundTripsExactly) {
    // CSR objects become coordinate files, dense ones array files.
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.mtx")).exit_code, 0);
    std::ifstream coordinate(path("m.mtx"));
    std::string banner;
    std::getline(coordinate, banner);
    EXPECT_EQ(banner, "%%MatrixMarket matrix coordinate real general");
    ToolRun back = run("convert " + path("m.mtx") + " " + path("back.dbdf"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(holds_values(path("back.dbdf")));
    EXPECT_EQ(object_info_of(path("back.dbdf")).data_type, DBDF_DATA_CSR);
    write_matrix(path("dense.dbdf"), DBDF_DATA_DENSE);
    ASSERT_EQ(run("convert " + path("dense.dbdf") + " " + path("d.mtx")).exit_code, 0);
    back = run("convert " + path("d.mtx") + " " + path("dense_back.dbdf") + " --data-type dense");
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(holds_values(path("dense_back.dbdf")));
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
    write_bytes(
        "wide.mtx",
        "%%MatrixMarket matrix coordinate real general\n4 12222222222222 4\n1 2 -1.25\n1 3 2\n2 1 1.25\n3 1 -2\n");
    ToolRun wide = run("convert " + path("wide.mtx") + " " + path("wide.dbdf"));
    ASSERT_EQ(wide.exit_code, 0) << wide.err;
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

    write_bytes("tall.mtx",
                "%%MatrixMarket matrix coordinate integer general\n10000000000000 3 1\n9999999999999 2 7\n");
    ToolRun tall = run("convert " + path("tall.mtx") + " " + path("tall.dbdf"));
    ASSERT_EQ(tall.exit_code, 0) << tall.err;
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
    ASSERT_EQ(again.exit_code, 0) << again.err;
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
                "%%MatrixMarket matrix coordinate real general\n2 8888888888888889 2\n2 1 185\n1 1 -2\n");
    ToolRun very_wide = run("convert " + path("very_wide.mtx") + " " + path("very_wide.dbdf"));
    EXPECT_EQ(very_wide.exit_code, 2);
    EXPECT_NE(very_wide.err.find("needs more than 262144 blocks"), std::string::npos) << very_wide.err;
    // Found by the mtx fuzz target: 4 x 10^15 rows with two entries needed 931,324 blocks, nearly all of them empty
    // space, and checking the partition of the file took most of the target's time and memory limits.
    write_bytes("tall_sparse.mtx",
                "%%MatrixMarket matrix coordinate pattern general\n0004000000483127881 6 2\n1 3\n4 1\n");
    ToolRun tall_sparse = run("convert " + path("tall_sparse.mtx") + " " + path("tall_sparse.dbdf"));
    EXPECT_EQ(tall_sparse.exit_code, 2);
    EXPECT_NE(tall_sparse.err.find("needs more than 262144 blocks"), std::string::npos) << tall_sparse.err;
    EXPECT_FALSE(fs::exists(path("tall_sparse.dbdf")));

    // Found by the mtx fuzz target (with 10 times more rows): 3 x 10^14 rows without an entry were stepped through
    // in 10^9 empty bands of 262144 rows before the empty run was written; now the run is crossed at once, as
    // 2^32 - 1-row empty blocks.
    write_bytes("tall_empty.mtx", "%%MatrixMarket matrix coordinate integer general\n300000000000003 2 0\n");
    ToolRun tall_empty = run("convert " + path("tall_empty.mtx") + " " + path("tall_empty.dbdf"));
    ASSERT_EQ(tall_empty.exit_code, 0) << tall_empty.err;
    reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(path("tall_empty.dbdf").c_str(), &reader), DBDF_OK);
    ASSERT_EQ(dbdf_reader_build_index(reader, &blocks), DBDF_OK) << dbdf_last_error_message();
    EXPECT_EQ(blocks, (300000000000003u + 0xFFFFFFFEu) / 0xFFFFFFFFu);
    std::uint64_t entries = 1;
    ASSERT_EQ(dbdf_reader_count_entries(reader, &entries), DBDF_OK);
    EXPECT_EQ(entries, 0u);
    dbdf_reader_free(reader);

    // Found by the mtx fuzz target: 23,276 tiles of 2^32 - 1 columns in each row band, whose partition check walked a
    // band from its first block for every block (the file_bench suite's BM_ValidateWideBands measures that case).
    write_bytes("wide_bands.mtx",
                "%%MatrixMarket matrix coordinate real general\n% *%%M\n399999 99966666666245 5\n"
                "2 1 1.5\n3 3 3\n1 1 7\n2 3 24\n3 2 0\n");
    ToolRun wide_bands = run("convert " + path("wide_bands.mtx") + " " + path("wide_bands.dbdf"));
    ASSERT_EQ(wide_bands.exit_code, 0) << wide_bands.err;
    EXPECT_EQ(run("validate " + path("wide_bands.dbdf")).out, "ok\n");
    reader = nullptr;
    ASSERT_EQ(dbdf_reader_open_file(path("wide_bands.dbdf").c_str(), &reader), DBDF_OK);
    ASSERT_EQ(dbdf_reader_build_index(reader, &blocks), DBDF_OK) << dbdf_last_error_message();
    EXPECT_EQ(blocks,
              2 * ((99966666666245u + 0xFFFFFFFEu) / 0xFFFFFFFFu));  // the band of the entries and the run below
    dbdf_reader_free(reader);

    write_bytes("absurd.mtx",
                "%%MatrixMarket matrix coordinate real general\n18446744073709551615 18446744073709551615 0\n");
    ToolRun absurd = run("convert " + path("absurd.mtx") + " " + path("absurd.dbdf"));
    EXPECT_EQ(absurd.exit_code, 2);
    EXPECT_NE(absurd.err.find("needs more than"), std::string::npos) << absurd.err;
    EXPECT_FALSE(fs::exists(path("absurd.dbdf")));
}

TEST_F(Cli, CsvRoundTripsForMatricesAndFrames) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.csv")).exit_code, 0);
    ASSERT_EQ(run("convert " + path("m.csv") + " " + path("back.dbdf")).exit_code, 0);
    EXPECT_TRUE(holds_values(path("back.dbdf")));
    ASSERT_EQ(run("convert " + vector_path("frame_mixed.dbdf") + " " + path("f.csv")).exit_code, 0);
    std::ifstream csv(path("f.csv"));
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header, "id,prix élevé,,count");
    const ToolRun back =
        run("convert " + path("f.csv") + " " + path("f.dbdf") + " --schema 'id:i64,prix élevé:f64,:u8,count:u8'");
    ASSERT_EQ(back.exit_code, 0) << back.err;
    const ToolRun original = run("cat " + vector_path("frame_mixed.dbdf"));
    const ToolRun copy = run("cat " + path("f.dbdf"));
    EXPECT_EQ(copy.out, original.out);
    const ToolRun inferred = run("info --json " + path("f.dbdf"));
    EXPECT_NE(inferred.out.find("\"label\":\"count\",\"value_type\":\"u8\""), std::string::npos) << inferred.out;
    ASSERT_EQ(run("convert " + path("f.csv") + " " + path("g.dbdf")).exit_code, 0);
    const ToolRun types = run("info --json " + path("g.dbdf"));
    EXPECT_NE(types.out.find("\"label\":\"id\",\"value_type\":\"i64\""), std::string::npos) << types.out;
    EXPECT_NE(types.out.find("\"label\":\"prix élevé\",\"value_type\":\"f64\""), std::string::npos);
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
        ASSERT_EQ(result.exit_code, 0) << c.descr << ": " << result.err;
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
        {"dtype.npy", npy_bytes("<c16", "(1, 1)", false, std::string(16, '\0')),
         "not one of the numeric types (u1, u2, u4, u8, i1, i2, i4, i8, f4, f8 "},
        {"rank.npy", npy_bytes("<f8", "(1, 1, 1)", false, raw<double>({1})), "3-dimensional"},
        {"line.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 3.0\n", ":3: malformed"},
        {"range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 3.0\n",
         ":3: malformed or out-of-range"},
        {"count.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 3.000000000\n",
         "2 entries announced, 1 found"},
        // Found by the mtx fuzz target: an array announcing 2.8 billion values in a 110-byte file was given a buffer
        // for all of them (22 GB) before its first value was read.
        {"announced.mtx",
         "%%MatrixMarket matrix array real general\n001412850578 2\n1\n1\n-305\n4\n" + std::string(39, '\n') + "e-3\n",
         ":2: the size line announces 2825701156 entries, but the 54 bytes after it hold at most 27"},
        {"announced-coordinate.mtx", "%%MatrixMarket matrix coordinate real general\n9 9 3\n1 1 1\n2 2 2\n",
         ":2: the size line announces 3 entries, but the 12 bytes after it hold at most 2"},
        {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "not supported"},
        {"skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 3.5\n2 2 1\n",
         ":4: entry (2, 2) is on the diagonal of a skew-symmetric matrix, which holds only zeros there"},
        {"oblong.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n3000000000000003 2 0\n",
         ":2: a symmetric matrix must be square, not 3000000000000003 x 2"},
        {"ragged.csv", "1,2,3\n4,5\n", ":2: 2 fields where the first row has 3"},
        {"text.csv", "1,2\n3,x\n", ":2: column 2: 'x' is not a number"},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.bytes);
        const ToolRun result = run(std::string("convert ") + path(c.file) + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << c.file << ": " << result.err;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << c.file << ": " << result.err;
        EXPECT_NE(result.err.find(c.file), std::string::npos) << "names the file: " << result.err;
        EXPECT_EQ(result.out, "") << c.file;
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << c.file;
    }
    EXPECT_EQ(files_in_directory(), before + std::size(cases));  // only the inputs: no temporary files
    // A value that does not fit the requested type is a range error, and no output is left.
    const ToolRun narrowing = run("convert " + path("matrix.dbdf") + " " + path("ints.dbdf") + " --value-type i32");
    EXPECT_EQ(narrowing.exit_code, 1);
    EXPECT_NE(narrowing.err.find("not exactly representable"), std::string::npos) << narrowing.err;
    EXPECT_FALSE(fs::exists(path("ints.dbdf")));
    const ToolRun to_npy = run("convert " + path("matrix.dbdf") + " " + path("ints.npy") + " --value-type i32");
    EXPECT_EQ(to_npy.exit_code, 1) << to_npy.err;
    EXPECT_FALSE(fs::exists(path("ints.npy")));
    EXPECT_EQ(files_in_directory(), before + std::size(cases));
}

TEST_F(Cli, ReencodingKeepsValuesAndFollowsOptions) {
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("coo.dbdf") + " --encoding coo --block 4x5");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(holds_values(path("coo.dbdf")));
    result = run("info --json " + path("coo.dbdf"));
    EXPECT_NE(result.out.find("\"block_count\":2"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("\"block_type\":\"dense\""), std::string::npos) << result.out;
    result = run("convert " + path("matrix.dbdf") + " " + path("same.dbdf") + " --encoding as-is");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::ifstream a(path("matrix.dbdf"), std::ios::binary), b(path("same.dbdf"), std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(b), {}));
    result = run("convert " + path("matrix.dbdf") + " " + path("frame.dbdf") + " --data-type frame");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(holds_values(path("frame.dbdf")));
    EXPECT_NE(run("cat " + path("frame.dbdf")).out.find("col_4"), std::string::npos);
    EXPECT_EQ(run("convert " + path("matrix.dbdf") + " " + path("x.dbdf") + " --block 0x3").exit_code, 2);
}

}  // namespace
