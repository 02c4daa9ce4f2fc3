// Futhark binary data, both ways: ranks 0, 1 and 2 as 1 x 1, n x 1 and r x c matrices, every element type (f16
// exactly into f32, bool into u8 and back with --bool), several values as a frame, and a clear error for every
// malformed input. The files are written byte by byte here; bindings/python/tests/test_cli_futhark.py checks the same
// mapping against the futhark-data package.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>

#include "cli_fixture.hpp"
#include "dbdf.h"

namespace {

using namespace cli_test;
using CliFuthark = CliTest;

std::string u64_bytes(std::uint64_t value) { return raw<std::uint64_t>({value}); }

// One Futhark value: 'b', version 2, rank, the four-byte type, the lengths, the data.
std::string futhark_value(const std::string& type, std::initializer_list<std::uint64_t> shape, const std::string& data,
                          std::uint8_t version = 2) {
    std::string bytes{'b', static_cast<char>(version), static_cast<char>(shape.size())};
    bytes += type;
    for (std::uint64_t length : shape) bytes += u64_bytes(length);
    return bytes + data;
}

TEST_F(CliFuthark, RankTwoArrayIsAMatrixAndComesBackByteForByte) {
    const std::string file = futhark_value(" i32", {2, 3}, raw<std::int32_t>({1, -2, 3, 4, 5, -6}));
    write_bytes("a.fut", file);
    ToolRun result = run("convert " + path("a.fut") + " " + path("a.dbdf") + " --from futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    dbdf_object_info_t info{};
    EXPECT_EQ(read_f64(path("a.dbdf"), &info), (std::vector<double>{1, -2, 3, 4, 5, -6}));
    EXPECT_EQ(info.rows, 2u);
    EXPECT_EQ(info.cols, 3u);
    EXPECT_EQ(info.value_type, DBDF_VALUE_I32);
    result = run("convert " + path("a.dbdf") + " " + path("b.fut") + " --to futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("b.fut")), file);
}

TEST_F(CliFuthark, ScalarsAndRankOneArraysKeepTheirRank) {
    const std::string scalar = futhark_value(" f64", {}, raw<double>({-0.5}));
    const std::string column = futhark_value(" u16", {3}, raw<std::uint16_t>({7, 65535, 0}));
    const std::string empty = futhark_value(" i64", {0}, "");
    for (const auto& [name, file, rows] :
         {std::tuple{"scalar", scalar, 1u}, std::tuple{"column", column, 3u}, std::tuple{"empty", empty, 0u}}) {
        SCOPED_TRACE(name);
        write_bytes("in.fut", file);
        ToolRun result = run("convert " + path("in.fut") + " " + path("x.dbdf") + " --from futhark");
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(object_info_of(path("x.dbdf")).rows, rows);
        EXPECT_EQ(object_info_of(path("x.dbdf")).cols, 1u);
        result = run("convert " + path("x.dbdf") + " " + path("out.fut") + " --to futhark");
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(contents(path("out.fut")), file);
    }
}

TEST_F(CliFuthark, HalfFloatsReadExactlyIntoF32) {
    // 1.0, -2.5, the smallest subnormal (2^-24), infinity, -0.0 and 65504 (the largest half).
    write_bytes("h.fut",
                futhark_value(" f16", {6}, raw<std::uint16_t>({0x3C00, 0xC100, 0x0001, 0x7C00, 0x8000, 0x7BFF})));
    ToolRun result = run("convert " + path("h.fut") + " " + path("h.dbdf") + " --from futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(object_info_of(path("h.dbdf")).value_type, DBDF_VALUE_F32);
    const std::string expected = raw<float>({1.0f, -2.5f, 5.9604644775390625e-8f, __builtin_inff(), -0.0f, 65504.0f});
    EXPECT_TRUE(same_bits(expected, read_bits(path("h.dbdf"), DBDF_VALUE_F32), 4));
}

TEST_F(CliFuthark, BoolBecomesU8AndReturnsOnlyWithBool) {
    const std::string file = futhark_value("bool", {4}, std::string("\x01\x00\x00\x01", 4));
    write_bytes("b.fut", file);
    ToolRun result = run("convert " + path("b.fut") + " " + path("b.dbdf") + " --from futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(object_info_of(path("b.dbdf")).value_type, DBDF_VALUE_U8);
    result = run("convert " + path("b.dbdf") + " " + path("u8.fut") + " --to futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("u8.fut")), futhark_value("  u8", {4}, std::string("\x01\x00\x00\x01", 4)));
    result = run("convert " + path("b.dbdf") + " " + path("bool.fut") + " --to futhark --bool");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("bool.fut")), file);
    // A value other than 0 and 1 cannot be a bool, either way.
    write_bytes("two.fut", futhark_value("bool", {2}, std::string("\x01\x02", 2)));
    result = run("convert " + path("two.fut") + " " + path("two.dbdf") + " --from futhark");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("bool element 1 is 2, not 0 or 1"), std::string::npos) << result.err;
    write_raw_matrix(path("three.dbdf"), DBDF_DATA_DENSE, DBDF_VALUE_U8, 2, 1, std::string("\x01\x03", 2));
    result = run("convert " + path("three.dbdf") + " " + path("three.fut") + " --to futhark --bool");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("value 3 at (1, 0) cannot be a Futhark bool"), std::string::npos) << result.err;
    // --bool where there is no u8 value is refused rather than ignored.
    result = run("convert " + path("matrix.dbdf") + " " + path("m.fut") + " --to futhark --bool --densify");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("holds none"), std::string::npos) << result.err;
}

TEST_F(CliFuthark, SeveralValuesAreAFrameOfColumns) {
    const std::string file = futhark_value("  i8", {3}, raw<std::int8_t>({-1, 0, 1})) + "\n " +
                             futhark_value(" f64", {3}, raw<double>({0.25, 1e300, -3}));
    write_bytes("two.fut", file);
    ToolRun result = run("convert " + path("two.fut") + " " + path("f.dbdf") + " --from futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const dbdf_object_info_t info = object_info_of(path("f.dbdf"));
    EXPECT_EQ(info.data_type, DBDF_DATA_FRAME);
    EXPECT_EQ(info.rows, 3u);
    EXPECT_EQ(info.cols, 2u);
    result = run("cat " + path("f.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("1e+300"), std::string::npos) << result.out;
    // Back: one rank-1 value per column, each in its type (the whitespace between values is not kept).
    result = run("convert " + path("f.dbdf") + " " + path("back.fut") + " --to futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(contents(path("back.fut")), futhark_value("  i8", {3}, raw<std::int8_t>({-1, 0, 1})) +
                                              futhark_value(" f64", {3}, raw<double>({0.25, 1e300, -3})));
    // Lengths that differ, or a value of another rank, cannot be columns of one frame.
    write_bytes("ragged.fut", futhark_value(" i32", {2}, raw<std::int32_t>({1, 2})) +
                                  futhark_value(" i32", {1}, raw<std::int32_t>({3})));
    result = run("convert " + path("ragged.fut") + " " + path("r.dbdf") + " --from futhark");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("value 2 at byte 23 has 1 elements where value 1 has 2"), std::string::npos)
        << result.err;
    write_bytes("scalar.fut",
                futhark_value(" i32", {1}, raw<std::int32_t>({1})) + futhark_value(" i32", {}, raw<std::int32_t>({3})));
    result = run("convert " + path("scalar.fut") + " " + path("r.dbdf") + " --from futhark");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("value 2 at byte 19 is of rank 0"), std::string::npos) << result.err;
}

TEST_F(CliFuthark, SeveralValuesOfOneTypeMakeAMatrixWhenAsked) {
    write_bytes("cols.fut", futhark_value(" i64", {3}, raw<std::int64_t>({1, 2, 3})) +
                                futhark_value(" i64", {3}, raw<std::int64_t>({-4, -5, -6})));
    ToolRun result =
        run("convert " + path("cols.fut") + " " + path("m.dbdf") + " --from futhark --data-type dense --block 2x2");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(read_f64(path("m.dbdf")), (std::vector<double>{1, -4, 2, -5, 3, -6}));
    write_bytes("mixed.fut",
                futhark_value(" i64", {1}, raw<std::int64_t>({1})) + futhark_value(" f32", {1}, raw<float>({0.5f})));
    result = run("convert " + path("mixed.fut") + " " + path("x.dbdf") + " --from futhark --data-type dense");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("its 2 values differ in element type"), std::string::npos) << result.err;
}

TEST_F(CliFuthark, SparseInputNeedsDensify) {
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("m.fut") + " --to futhark");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("give --densify"), std::string::npos) << result.err;
    result = run("convert " + path("matrix.dbdf") + " " + path("m.fut") + " --to futhark --densify");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = run("convert " + path("m.fut") + " " + path("m.dbdf") + " --from futhark");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(holds_values(path("m.dbdf")));
    // The Futhark output options apply to Futhark outputs only.
    result = run("convert " + path("matrix.dbdf") + " " + path("m.npy") + " --densify");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--densify applies to --from/--to futhark outputs only"), std::string::npos)
        << result.err;
}

// Every malformed input: an error naming the value, its byte offset and what is wrong, exit code 1, nothing written.
TEST_F(CliFuthark, MalformedInputIsNamedAndNothingIsWritten) {
    struct Case {
        const char* name;
        std::string bytes;
        const char* message;
    };
    const Case cases[] = {
        {"magic", "x\x02\x01 i32", "value 1 at byte 0: not Futhark binary data: it starts with byte 0x78"},
        {"version", std::string("b\x01\x01 i32", 7), "value 1 at byte 0: binary format version 1 is not supported"},
        {"rank", std::string("b\x02\x03 i32", 7), "an array of rank 3 cannot be a .dbdf object"},
        {"type", std::string("b\x02\x01 i33", 7), "unknown element type \" i33\""},
        {"short header", std::string("b\x02\x01 i", 5), "truncated header: 5 bytes"},
        {"short shape", std::string("b\x02\x02 i32", 7) + u64_bytes(2), "truncated shape: 8 bytes where 2 lengths"},
        {"short data", futhark_value(" i32", {3}, raw<std::int32_t>({1, 2})),
         "truncated data: shape [3] of i32 needs 12 bytes, the file has 8"},
        {"huge shape", futhark_value(" f64", {std::uint64_t{1} << 40, std::uint64_t{1} << 40}, ""),
         "needs 2^64 bytes or more, the file has 0"},
        {"huge length", futhark_value("  u8", {std::uint64_t{1} << 62}, "xy"),
         "needs 4611686018427387904 bytes, the file has 2"},
        {"second value", futhark_value(" i32", {}, raw<std::int32_t>({1})) + "\nb\x02", "value 2 at byte 12"},
        {"empty", "", "no Futhark value"},
        {"whitespace", " \n\t", "no Futhark value"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        write_bytes("bad.fut", c.bytes);
        const ToolRun result = run("convert " + path("bad.fut") + " " + path("bad.dbdf") + " --from futhark");
        EXPECT_EQ(result.exit_code, 1) << result.err;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
        EXPECT_FALSE(std::filesystem::exists(path("bad.dbdf")));
    }
}

}  // namespace
