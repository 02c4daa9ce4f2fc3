// The CLI's --dialect options against the files DAPHNE's runtime wrote.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "cli_fixture.hpp"
#include "tool_run.hpp"

namespace {

namespace fs = std::filesystem;

using cli_test::contents;
using cli_test::run;
using cli_test::ToolRun;

std::string corpus(const std::string& name) { return cli_test::vector_path("daphne-runtime/" + name); }

class CliDialect : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return scratch_.path(name); }
    cli_test::ScratchDirectory scratch_{"dbdf_cli_dialect"};
};

TEST_F(CliDialect, InfoSuggestsTheDialectButNeverGuesses) {
    ToolRun result = run("info " + corpus("dense_f64_3x4.dbdf"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.err.find("this looks like the daphne dialect; try --dialect daphne"), std::string::npos)
        << result.err;
    result = run("info --dialect daphne " + corpus("dense_f64_3x4.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("dialect:     daphne"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("shape:       3 x 4"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("value type:  f64"), std::string::npos) << result.out;
    EXPECT_EQ(run("info --dialect klingon " + corpus("dense_f64_3x4.dbdf")).exit_code, 2);
}

TEST_F(CliDialect, InfoSaysWhenLabelsAreNotRecoverable) {
    ToolRun result = run("info --dialect daphne " + corpus("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("labels:      not recoverable"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("col_1"), std::string::npos) << result.out;
    result = run("info --json --dialect daphne " + corpus("frame_mixed.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"dialect\":\"daphne\""), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"labels_recoverable\":false"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("{\"label\":\"col_2\",\"value_type\":\"f32\",\"label_hex\":null}"),
              std::string::npos)
        << result.out;
}

TEST_F(CliDialect, ValidateAndCat) {
    EXPECT_EQ(run("validate --dialect daphne " + corpus("csr_f64_6x5.dbdf")).out, "ok\n");
    ToolRun spec = run("validate " + corpus("frame_mixed.dbdf"));
    EXPECT_EQ(spec.exit_code, 1);
    EXPECT_NE(spec.err.find("this looks like the daphne dialect; try --dialect daphne"), std::string::npos)
        << spec.err;
    ToolRun truncated = run("validate --dialect daphne " + corpus("frame_strcol_partial.dbdf"));
    EXPECT_EQ(truncated.exit_code, 1);
    EXPECT_NE(truncated.out.find("the file is truncated"), std::string::npos) << truncated.out;
    ToolRun strings = run("info --dialect daphne " + corpus("dense_str_2x2.dbdf"));
    EXPECT_EQ(strings.exit_code, 1);
    EXPECT_NE(strings.err.find("cannot be recovered"), std::string::npos) << strings.err;
    ToolRun cat = run("cat --dialect daphne " + corpus("csr_i64_4x4.dbdf"));
    ASSERT_EQ(cat.exit_code, 0) << cat.err;
    EXPECT_NE(cat.out.find("1000000000000"), std::string::npos) << cat.out;
    EXPECT_NE(cat.out.find("-42"), std::string::npos) << cat.out;
}

// A violation of the layout itself (no numbered rule) is named after the dialect whose layout it breaks, as the
// library's messages end in "(spec layout)" or "(daphne dialect)" (docs/format-decisions.md).
TEST_F(CliDialect, ValidateNamesLayoutViolationsAfterTheDialect) {
    const std::string trailing = path("trailing_byte.dbdf");
    scratch_.write("trailing_byte.dbdf", contents(corpus("dense_f64_3x4.dbdf")) + "x");
    ToolRun result = run("validate --dialect daphne " + trailing);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, trailing + ": daphne dialect at byte 141: 1 bytes follow the dense block's values; a daphne "
                                     "dialect file ends with its single block\n");
    EXPECT_EQ(result.err, trailing + ": 1 violation\n");
    const std::string spec_file = cli_test::vector_path("invalid/block_type_4.dbdf");
    result = run("validate " + spec_file);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out.rfind(spec_file + ": spec layout at byte 43: ", 0), 0u) << result.out;
}

TEST_F(CliDialect, ConvertBetweenDialectsReproducesTheRuntimeBytes) {
    for (const char* name : {"csr_f64_6x5.dbdf", "dense_si8_2x5.dbdf", "dense_f64_empty_0x3.dbdf", "csr_f64_empty_3x3.dbdf"}) {
        SCOPED_TRACE(name);
        ToolRun to_spec = run("convert " + corpus(name) + " " + path("spec.dbdf") + " --dialect-in daphne --dialect-out spec");
        ASSERT_EQ(to_spec.exit_code, 0) << to_spec.err;
        EXPECT_EQ(run("validate " + path("spec.dbdf")).out, "ok\n");
        EXPECT_FALSE(fs::exists(path("spec.dbdf.meta")));
        ToolRun back = run("convert " + path("spec.dbdf") + " " + path("back.dbdf") + " --dialect-out daphne");
        ASSERT_EQ(back.exit_code, 0) << back.err;
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
    EXPECT_NE(i16.err.find("cannot express"), std::string::npos) << i16.err;
}

// A dense matrix of more than one 4 MiB band, from every input that holds one: the output is the runtime's layout,
// byte for byte (header, block header, the values row-major), whatever the bands' boundaries.
TEST_F(CliDialect, DenseOutputInRowBandsIsOneBlockByteForByte) {
    constexpr std::uint64_t kRows = 600, kCols = 1000;  // 4.8 MB of f64: two bands
    std::string values;
    std::string csv;
    for (std::uint64_t r = 0; r < kRows; ++r) {
        for (std::uint64_t c = 0; c < kCols; ++c) {
            const double value = static_cast<double>(r * kCols + c) + 0.5;
            values.append(reinterpret_cast<const char*>(&value), sizeof value);
            csv += (c ? "," : "") + std::to_string(r * kCols + c) + ".5";
        }
        csv += '\n';
    }
    std::string mtx = "%%MatrixMarket matrix array real general\n600 1000\n";
    for (std::uint64_t c = 0; c < kCols; ++c) {
        for (std::uint64_t r = 0; r < kRows; ++r) mtx += std::to_string(r * kCols + c) + ".5\n";
    }
    // DIALECT.md 4.1, field by field: version, data type, #r, #c, value type f64 (7), rx, cx, block #r, #c, block
    // type dense, block value type.
    std::string expected;
    auto put = [&expected](auto field) { expected.append(reinterpret_cast<const char*>(&field), sizeof field); };
    put(std::uint8_t{1});
    put(std::uint8_t{1});
    put(kRows);
    put(kCols);
    put(std::uint8_t{7});
    put(std::uint64_t{0});
    put(std::uint64_t{0});
    put(static_cast<std::uint32_t>(kRows));
    put(static_cast<std::uint32_t>(kCols));
    put(std::uint8_t{1});
    put(std::uint8_t{7});
    expected += values;

    scratch_.write("m.npy", cli_test::npy_bytes("<f8", "(600, 1000)", false, values));
    scratch_.write("m.csv", csv);
    scratch_.write("m.mtx", mtx);
    // A spec input whose blocks do not line up with the bands.
    ASSERT_EQ(run("convert " + path("m.npy") + " " + path("m.dbdf") + " --block 70x300").exit_code, 0);
    for (const char* input : {"m.npy", "m.csv", "m.mtx", "m.dbdf"}) {
        SCOPED_TRACE(input);
        const std::string output = path(std::string(input) + ".daphne.dbdf");
        const ToolRun result = run("convert " + path(input) + " " + output + " --dialect-out daphne");
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_TRUE(contents(output) == expected) << "the output differs from the runtime's layout";
        EXPECT_EQ(contents(output + ".meta"), R"({"numCols":1000,"numRows":600,"valueType":"f64"})");
    }
}

TEST_F(CliDialect, ConvertKeepsADaphneScalarInDaphneOutput) {
    for (const char* name : {"value_f64_serialized.bin", "value_i64_serialized.bin"}) {
        SCOPED_TRACE(name);
        // .bin says no format, hence --from/--to.
        for (const char* encoding : {"", " --encoding as-is"}) {
            ToolRun same = run("convert " + corpus(name) + " " + path("out.bin") +
                               " --from dbdf --to dbdf --dialect-in daphne --dialect-out daphne" + encoding);
            ASSERT_EQ(same.exit_code, 0) << same.err;
            EXPECT_EQ(contents(path("out.bin")), contents(corpus(name)));
            // The runtime writes no .meta for a scalar, so neither does the conversion.
            EXPECT_FALSE(fs::exists(path("out.bin.meta")));
        }
        ToolRun info = run("info --dialect daphne --json " + path("out.bin"));
        ASSERT_EQ(info.exit_code, 0) << info.err;
        EXPECT_NE(info.out.find("\"data_type\":\"scalar\""), std::string::npos) << info.out;
    }
    // The spec has no scalar: spec output holds a 1 x 1 dense matrix, as --data-type dense does in daphne output.
    ASSERT_EQ(run("convert " + corpus("value_f64_serialized.bin") + " " + path("spec.dbdf") +
                  " --from dbdf --dialect-in daphne --dialect-out spec")
                  .exit_code,
              0);
    ToolRun spec = run("info --json " + path("spec.dbdf"));
    ASSERT_EQ(spec.exit_code, 0) << spec.err;
    EXPECT_NE(spec.out.find("\"data_type\":\"dense\""), std::string::npos) << spec.out;
    ASSERT_EQ(run("convert " + corpus("value_f64_serialized.bin") + " " + path("dense.dbdf") +
                  " --from dbdf --dialect-in daphne --dialect-out daphne --data-type dense")
                  .exit_code,
              0);
    EXPECT_EQ(contents(path("dense.dbdf")).size(), 45u + 8u);
    EXPECT_EQ(contents(path("dense.dbdf.meta")), R"({"numCols":1,"numRows":1,"valueType":"f64"})");
}

TEST_F(CliDialect, ConvertsFramesAndScalarsToOtherFormats) {
    const std::string note = "dbdf: " + corpus("frame_mixed.dbdf") +
                             ": note: the frame's labels cannot be recovered from the daphne dialect (DAPHNE's runtime "
                             "writes memory bytes instead of the text); the columns are named as DAPHNE names them: "
                             "col_0, col_1, ...\n";
    ToolRun frame = run("convert " + corpus("frame_mixed.dbdf") + " " + path("frame.csv") + " --dialect daphne");
    ASSERT_EQ(frame.exit_code, 0) << frame.err;
    EXPECT_EQ(contents(path("frame.csv")).substr(0, 18), "col_0,col_1,col_2\n");
    // The labels written are made up, and the tool says so; also into a .dbdf, which keeps them as real labels.
    EXPECT_EQ(frame.err, note);
    frame = run("convert " + corpus("frame_mixed.dbdf") + " " + path("frame.dbdf") + " --dialect-in daphne");
    ASSERT_EQ(frame.exit_code, 0) << frame.err;
    EXPECT_EQ(frame.err, note);
    frame = run("cat --dialect daphne " + corpus("frame_mixed.dbdf"));
    ASSERT_EQ(frame.exit_code, 0) << frame.err;
    EXPECT_EQ(frame.out.substr(0, frame.out.find('\n')).find("col_0"), frame.out.find("col_0")) << frame.out;
    EXPECT_EQ(frame.err, note);
    // A frame whose labels the file holds gets no note.
    frame = run("convert " + path("frame.dbdf") + " " + path("again.csv"));
    ASSERT_EQ(frame.exit_code, 0) << frame.err;
    EXPECT_EQ(frame.err, "");
    ToolRun scalar = run("convert " + corpus("value_i64_serialized.bin") + " " + path("v.csv") + " --from dbdf --dialect daphne");
    ASSERT_EQ(scalar.exit_code, 0) << scalar.err;
    EXPECT_EQ(contents(path("v.csv")), "-7\n");
}

// The bytes DAPHNE's runtime writes for an f64 matrix with a zero dimension (DIALECT.md 4 and 5): header, (rx, cx)
// and the header of its one block, whose shape is the matrix's; a CSR block then holds #nzb = 0 and #r + 1 zero row
// offsets, a dense block no values.
std::string daphne_f64_matrix_without_cells(bool csr, std::uint64_t rows, std::uint64_t cols) {
    using cli_test::raw;
    const auto type = static_cast<std::uint8_t>(csr ? 2 : 1);
    std::string bytes = raw<std::uint8_t>({1, type}) + raw<std::uint64_t>({rows, cols}) + raw<std::uint8_t>({7}) +
                        raw<std::uint64_t>({0, 0}) +
                        raw<std::uint32_t>({static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols)}) +
                        raw<std::uint8_t>({type, 7});
    if (csr) bytes += std::string((rows + 2) * sizeof(std::uint64_t), '\0');
    return bytes;
}

TEST_F(CliDialect, ConvertsMatricesWithAZeroDimensionFromTheDaphneDialectWithEveryEncoding) {
    struct Case {
        bool csr;
        std::uint64_t rows, cols;
        std::size_t runtime_bytes;  // the size of the runtime's own file of this shape
    };
    for (const Case& shape : {Case{true, 0, 3, 61}, Case{true, 3, 0, 85}, Case{false, 0, 3, 45}, Case{false, 3, 0, 45},
                              Case{false, 0, 0, 45}}) {
        const std::string daphne = daphne_f64_matrix_without_cells(shape.csr, shape.rows, shape.cols);
        ASSERT_EQ(daphne.size(), shape.runtime_bytes);
        scratch_.write("zero.dbdf", daphne);
        for (const char* encoding : {"auto", "as-is", "dense", "csr", "coo"}) {
            SCOPED_TRACE(std::string(shape.csr ? "csr " : "dense ") + std::to_string(shape.rows) + " x " +
                         std::to_string(shape.cols) + ", --encoding " + encoding);
            fs::remove(path("spec.dbdf"));
            ToolRun result = run("convert --dialect daphne --encoding " + std::string(encoding) + " " +
                                 path("zero.dbdf") + " " + path("spec.dbdf"));
            ASSERT_EQ(result.exit_code, 0) << result.err;
            EXPECT_EQ(result.err, "");
            const dbdf_object_info_t info = cli_test::object_info_of(path("spec.dbdf"));
            EXPECT_EQ(info.data_type, shape.csr ? DBDF_DATA_CSR : DBDF_DATA_DENSE);
            EXPECT_EQ(info.rows, shape.rows);
            EXPECT_EQ(info.cols, shape.cols);
            // Rule 4: an object without cells has no blocks, so the file is its 19-byte header.
            EXPECT_EQ(cli_test::block_types(path("spec.dbdf")).size(), 0u);
            EXPECT_EQ(fs::file_size(path("spec.dbdf")), 19u);
            EXPECT_EQ(run("validate " + path("spec.dbdf")).out, "ok\n");
        }
        // Into the daphne dialect, directly and through the spec file: the runtime's bytes again.
        ToolRun direct = run("convert --dialect-in daphne --dialect-out daphne --no-meta " + path("zero.dbdf") + " " +
                             path("again.dbdf"));
        ASSERT_EQ(direct.exit_code, 0) << direct.err;
        EXPECT_EQ(contents(path("again.dbdf")), daphne);
        ToolRun back = run("convert --dialect-out daphne --no-meta " + path("spec.dbdf") + " " + path("back.dbdf"));
        ASSERT_EQ(back.exit_code, 0) << back.err;
        EXPECT_EQ(contents(path("back.dbdf")), daphne);
    }
}

TEST_F(CliDialect, DaphneOutputRefusesFrameLabelsThatDaphnesReaderWouldOverflowOn) {
    scratch_.write("long.csv", "id,a_label_that_is_much_longer_than_thirty_two_bytes\n1,2.5\n2,3.5\n");
    ToolRun refused = run("convert " + path("long.csv") + " " + path("long.dbdf") + " --data-type frame --dialect-out daphne");
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_EQ(refused.err, "dbdf: " + path("long.dbdf") +
                               ": frame column 1 label 'a_label_that_is_much\u2026' is 49 bytes; DAPHNE's reader copies "
                               "each label's bytes over a 32-byte std::string object, so a longer label overflows its "
                               "heap: the daphne dialect takes labels of at most 32 bytes\n");
    EXPECT_FALSE(fs::exists(path("long.dbdf")));
    EXPECT_FALSE(fs::exists(path("long.dbdf.meta")));
    // The spec dialect keeps the label; 32 bytes are fine in the daphne dialect.
    ASSERT_EQ(run("convert " + path("long.csv") + " " + path("spec.dbdf") + " --data-type frame").exit_code, 0);
    scratch_.write("fits.csv", "id," + std::string(32, 'x') + "\n1,2.5\n");
    ToolRun fits = run("convert " + path("fits.csv") + " " + path("fits.dbdf") + " --data-type frame --dialect-out daphne");
    EXPECT_EQ(fits.exit_code, 0) << fits.err;
    EXPECT_NE(contents(path("fits.dbdf")).find(std::string(32, 'x')), std::string::npos);
}

}  // namespace
