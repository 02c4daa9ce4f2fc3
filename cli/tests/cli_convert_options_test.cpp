// convert's options one by one (--from, --to, --encoding, --data-type, the dialect options), the rarer input
// forms of each format, what happens to options that do not apply, and that every error names its file.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"

namespace {

namespace fs = std::filesystem;
using namespace cli_test;

using CliConvert = CliTest;

// Every format written and read under names whose extensions say nothing: --from and --to decide.
TEST_F(CliConvert, ToAndFromNameTheFormatsWhateverTheExtensions) {
    const std::string dense = path("dense.bin");
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + dense + " --to dbdf --data-type dense");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    struct Case {
        const char* format;
        std::string beginning;
    };
    for (const Case& c : {Case{"npy", "\x93NUMPY"}, Case{"mtx", "%%MatrixMarket matrix array real general\n"},
                          Case{"csv", "0,0.5,0,0,0\n0,0,-3,0,0\n"}}) {
        const std::string exported = path(std::string("exported_") + c.format + ".data");
        const std::string imported = path(std::string("imported_") + c.format + ".bin");
        result = run("convert " + dense + " " + exported + " --from dbdf --to " + c.format);
        ASSERT_EQ(result.exit_code, 0) << c.format << ": " << result.err;
        EXPECT_EQ(contents(exported).substr(0, c.beginning.size()), c.beginning) << c.format;
        result = run("convert " + exported + " " + imported + " --from " + c.format + " --to dbdf");
        ASSERT_EQ(result.exit_code, 0) << c.format << ": " << result.err;
        EXPECT_TRUE(holds_values(imported)) << c.format;
    }
    result = run("convert " + dense + " " + path("x.dbdf") + " --from xlsx");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "dbdf: --from xlsx: unknown format (one of dbdf, npy, mtx, csv, futhark)\n");
    result = run("convert " + dense + " " + path("x.dbdf"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "dbdf: " + dense + ": cannot tell the format (use .dbdf, .npy, .mtx, .csv or --from/--to)\n");
}

TEST_F(CliConvert, EncodingChoosesTheBlockType) {
    struct Case {
        const char* encoding;
        dbdf_block_type_t block_type;
    };
    // One 7 x 5 block: 4 values of 35 are COO's smallest encoding.
    for (const Case& c : {Case{"dense", DBDF_BLOCK_DENSE}, Case{"csr", DBDF_BLOCK_CSR}, Case{"coo", DBDF_BLOCK_COO},
                          Case{"auto", DBDF_BLOCK_COO}}) {
        const std::string output = path(std::string(c.encoding) + ".dbdf");
        const ToolRun result =
            run("convert " + path("matrix.dbdf") + " " + output + " --block 7x5 --encoding " + c.encoding);
        ASSERT_EQ(result.exit_code, 0) << c.encoding << ": " << result.err;
        EXPECT_EQ(block_types(output), std::vector<dbdf_block_type_t>{c.block_type}) << c.encoding;
        EXPECT_TRUE(holds_values(output)) << c.encoding;
    }
    const ToolRun unknown = run("convert " + path("matrix.dbdf") + " " + path("x.dbdf") + " --encoding rle");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_EQ(unknown.err, "dbdf: --encoding must be auto, dense, csr, coo or as-is\n");
}

TEST_F(CliConvert, NpyFormatVersionsTwoAndThree) {
    for (int major : {2, 3}) {
        const std::string bytes = npy_bytes("<i2", "(2, 2)", false, raw<std::int16_t>({-7, 300, 0, 1}), major);
        ASSERT_EQ(bytes[6], static_cast<char>(major));
        write_bytes("v.npy", bytes);
        const ToolRun result = run("convert " + path("v.npy") + " " + path("v.dbdf"));
        ASSERT_EQ(result.exit_code, 0) << major << ": " << result.err;
        dbdf_object_info_t info{};
        EXPECT_EQ(read_f64(path("v.dbdf"), &info), (std::vector<double>{-7, 300, 0, 1})) << major;
        EXPECT_EQ(info.value_type, DBDF_VALUE_I16) << major;
    }
}

TEST_F(CliConvert, IntegerDataWritesIntegerMatrixMarketFiles) {
    write_bytes("i.mtx", "%%MatrixMarket matrix coordinate integer general\n3 2 2\n3 1 -9000000000\n1 2 7\n");
    ASSERT_EQ(run("convert " + path("i.mtx") + " " + path("csr.dbdf")).exit_code, 0);
    ToolRun result = run("convert " + path("csr.dbdf") + " " + path("coordinate.mtx"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("coordinate.mtx")),
              "%%MatrixMarket matrix coordinate integer general\n% written by dbdf\n3 2 2\n1 2 7\n3 1 -9000000000\n");
    ASSERT_EQ(run("convert " + path("csr.dbdf") + " " + path("dense.dbdf") + " --data-type dense").exit_code, 0);
    result = run("convert " + path("dense.dbdf") + " " + path("array.mtx"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("array.mtx")),
              "%%MatrixMarket matrix array integer general\n% written by dbdf\n3 2\n0\n0\n-9000000000\n7\n0\n0\n");
}

TEST_F(CliConvert, AnUnterminatedCsvQuoteIsAnErrorAtItsLine) {
    write_bytes("quote.csv", "a,b\n1,\"2\n3,4\n");
    const ToolRun result = run("convert " + path("quote.csv") + " " + path("q.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "dbdf: " + path("quote.csv") + ":2: unterminated quoted field\n");
    EXPECT_FALSE(fs::exists(path("q.dbdf")));
}

TEST_F(CliConvert, FramesConvertToTheDaphneDialect) {
    write_bytes("f.csv", "id,score\n1,0.5\n-2,1e300\n3,-0.25\n");
    const ToolRun result = run("convert " + path("f.csv") + " " + path("f.dbdf") + " --dialect-out daphne");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("f.dbdf.meta")), R"({"numCols":2,"numRows":3,"schema":[{"label":"id","valueType":"si64"},)"
                                             R"({"label":"score","valueType":"f64"}]})");
    EXPECT_EQ(run("validate --dialect daphne " + path("f.dbdf")).out, "ok\n");
    // dbdf reads daphne frame labels as DAPHNE's reader names them, whatever the file holds.
    EXPECT_EQ(run("cat --dialect daphne " + path("f.dbdf")).out,
              "col_0   col_1\n    1     0.5\n   -2  1e+300\n    3   -0.25\n");
    // Back to the spec dialect, then to CSV: the values made the whole trip.
    ASSERT_EQ(run("convert " + path("f.dbdf") + " " + path("g.csv") + " --dialect-in daphne").exit_code, 0);
    EXPECT_EQ(contents(path("g.csv")), "col_0,col_1\n1,0.5\n-2,1e+300\n3,-0.25\n");
}

TEST_F(CliConvert, DuplicateMatrixMarketEntriesNameBothLines) {
    write_bytes("dup.mtx", "%%MatrixMarket matrix coordinate real general\n% comment\n3 3 3\n1 1 1\n2 2 2\n1 1 3\n");
    ToolRun result = run("convert " + path("dup.mtx") + " " + path("dup.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("dup.mtx") + ":6: entry (1, 1) appears twice (also on line 4)\n");
    // In a symmetric file a mirror counts: line 4's (1, 2) is line 3's (2, 1) mirrored.
    write_bytes("sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n1 2 5\n");
    result = run("convert " + path("sym.mtx") + " " + path("sym.dbdf"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("sym.mtx") + ":4: entry (1, 2) appears twice (also on line 3)\n");
    EXPECT_FALSE(fs::exists(path("dup.dbdf")));
    EXPECT_FALSE(fs::exists(path("sym.dbdf")));
}

TEST_F(CliConvert, OptionsForTheOtherSideAreRefusedNotIgnored) {
    ASSERT_EQ(run("convert " + path("matrix.dbdf") + " " + path("m.npy")).exit_code, 0);
    write_bytes("m.csv", "1,2\n");
    const std::string npy = path("m.npy"), csv = path("m.csv"), dbdf = path("matrix.dbdf");
    // The outputs are named in the scratch directory, so that any file a refused conversion left would be counted.
    const std::string out_dbdf = path("out.dbdf"), out_npy = path("out.npy"), out_csv = path("out.csv"),
                      out_mtx = path("out.mtx");
    struct Case {
        std::string arguments;
        std::string message;
    };
    const Case cases[] = {
        {npy + " " + out_dbdf + " --dialect daphne",
         "--dialect applies to .dbdf inputs only, not to " + npy + " (npy)"},
        {csv + " " + out_dbdf + " --dialect-in spec",
         "--dialect-in applies to .dbdf inputs only, not to " + csv + " (csv)"},
        {npy + " " + out_dbdf + " --schema a:i64", "--schema applies to .csv inputs only, not to " + npy + " (npy)"},
        {npy + " " + out_dbdf + " --header yes", "--header applies to .csv inputs only, not to " + npy + " (npy)"},
        {dbdf + " " + out_npy + " --dialect-out daphne",
         "--dialect-out applies to .dbdf outputs only, not to " + out_npy + " (npy)"},
        {dbdf + " " + out_npy + " --encoding coo",
         "--encoding applies to .dbdf outputs only, not to " + out_npy + " (npy)"},
        {dbdf + " " + out_csv + " --block 2x2", "--block applies to .dbdf outputs only, not to " + out_csv + " (csv)"},
        {dbdf + " " + out_mtx + " --data-type csr",
         "--data-type applies to .dbdf outputs only, not to " + out_mtx + " (mtx)"},
        {dbdf + " " + out_dbdf + " --no-meta", "--no-meta applies to daphne outputs only (--dialect-out daphne)"},
        {csv + " " + out_dbdf + " --header maybe", "--header must be yes, no or auto"},
        {csv + " " + out_dbdf + " --schema a:i64 --data-type dense",
         "--schema gives the types of a frame's columns; it does not apply to --data-type dense"},
    };
    const std::size_t before = files_in_directory();
    for (const Case& c : cases) {
        const ToolRun result = run("convert " + c.arguments);
        EXPECT_EQ(result.exit_code, 2) << c.arguments;
        EXPECT_EQ(result.err, "dbdf: " + c.message + "\n") << c.arguments;
    }
    EXPECT_EQ(files_in_directory(), before);
    // The count can fail: a conversion that is not refused adds its output there.
    ASSERT_EQ(run("convert " + npy + " " + out_dbdf).exit_code, 0);
    EXPECT_EQ(files_in_directory(), before + 1);
}

// Writer errors concern the output, whichever converter meets them; the message says which file. A .csv input is
// read in the --value-type itself, so there the error names the input's line and column.
TEST_F(CliConvert, ValuesThatDoNotFitNameTheOutputFile) {
    write_bytes("big.npy", npy_bytes("<i4", "(1, 2)", false, raw<std::int32_t>({1, 300})));
    write_bytes("big.mtx", "%%MatrixMarket matrix coordinate integer general\n1 2 1\n1 2 300\n");
    for (const char* input : {"big.npy", "big.mtx"}) {
        const std::string output = path(std::string(input) + ".dbdf");
        const ToolRun result = run("convert " + path(input) + " " + output + " --value-type u8");
        EXPECT_EQ(result.exit_code, 1) << input;
        EXPECT_EQ(result.out, "") << input;
        // "writing the block at (0, 0): ..." from tiles, "writing the matrix: block at (0, 0) of shape 1 x 2: ..." from
        // a whole mapped .npy (mapped_matrix.hpp): either way the output and the block are named.
        EXPECT_EQ(result.err.rfind("dbdf: " + output + ": writing the ", 0), 0u) << result.err;
        EXPECT_NE(result.err.find("block at (0, 0)"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find("not exactly representable"), std::string::npos) << result.err;
        EXPECT_FALSE(fs::exists(output)) << input;
    }
    write_bytes("big.csv", "1,2\n3,300\n");
    const ToolRun csv = run("convert " + path("big.csv") + " " + path("big.csv.dbdf") + " --value-type u8");
    EXPECT_EQ(csv.exit_code, 1);
    EXPECT_EQ(csv.err, "dbdf: " + path("big.csv") + ":2: column 2: '300' is not a value of type u8\n");
    EXPECT_FALSE(fs::exists(path("big.csv.dbdf")));
}

// The tool's own atomic outputs are created 0666 and narrowed by the umask, like any new file.
TEST_F(CliConvert, OutputFilesFollowTheUmask) {
    for (const mode_t umask : {mode_t{027}, mode_t{002}}) {
        for (const char* extension : {"npy", "mtx", "csv"}) {
            const std::string output = path(std::string("out.") + extension);
            fs::remove(output);
            const ToolRun result = run("convert " + path("matrix.dbdf") + " " + output, RunSettings{umask, {}});
            ASSERT_EQ(result.exit_code, 0) << result.err;
            struct stat status {};
            ASSERT_EQ(::stat(output.c_str(), &status), 0);
            EXPECT_EQ(status.st_mode & 0777, 0666 & ~umask) << extension << " with umask " << umask;
        }
    }
}

// An .npy's tiles are gathered into buffers kept from tile to tile: whole-row tiles read at once, others through the
// window, Fortran-order ones cell by cell, narrower tiles at a band's end and shorter ones at the bottom, and a
// frame's columns. Every shape gives back every value, none left over from an earlier tile.
TEST_F(CliConvert, NpyTilesOfEveryShapeHoldTheirOwnValues) {
    constexpr std::int64_t kRows = 7, kCols = 11;
    std::string row_major, column_major;
    for (std::int64_t r = 0; r < kRows; ++r) {
        for (std::int64_t c = 0; c < kCols; ++c) row_major += raw<std::int64_t>({r * 1000 + c + 1});
    }
    for (std::int64_t c = 0; c < kCols; ++c) {
        for (std::int64_t r = 0; r < kRows; ++r) column_major += raw<std::int64_t>({r * 1000 + c + 1});
    }
    write_bytes("c.npy", npy_bytes("<i8", "(7, 11)", false, row_major));
    write_bytes("f.npy", npy_bytes("<i8", "(7, 11)", true, column_major));
    for (const std::string input : {"c.npy", "f.npy"}) {
        for (const std::string options :
             {"", " --block 2x11", " --block 3x4", " --block 1x4", " --block 3x4 --encoding dense",
              " --data-type frame", " --data-type frame --block 3x1"}) {
            SCOPED_TRACE(input + options);
            fs::remove(path("tiles.dbdf"));
            fs::remove(path("back.npy"));
            const ToolRun to_dbdf = run("convert " + path(input) + " " + path("tiles.dbdf") + options);
            ASSERT_EQ(to_dbdf.exit_code, 0) << to_dbdf.err;
            const ToolRun back = run("convert " + path("tiles.dbdf") + " " + path("back.npy"));
            ASSERT_EQ(back.exit_code, 0) << back.err;
            std::ifstream file(path("back.npy"), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
            ASSERT_GE(bytes.size(), row_major.size());
            EXPECT_EQ(bytes.substr(bytes.size() - row_major.size()), row_major);
        }
    }
}

}  // namespace
