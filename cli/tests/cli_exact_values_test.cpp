// Nothing is rounded on the way through a text format: every value type round-trips through .mtx and .csv bit for
// bit (-0.0, NaN and infinities included), .csv type inference picks a type that holds every value exactly or fails
// naming the value, and a frame's header survives whatever its labels look like.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"

namespace {

namespace fs = std::filesystem;
using namespace cli_test;

using CliExactValues = CliTest;

template <class T>
std::string bytes_of(const std::vector<T>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Twelve values of T (a 3 x 4 matrix) that text easily gets wrong: the extremes, zeros between them and, for the
// float types, 0.1 (which no float holds exactly), -0.0, NaN of either sign, infinities and the smallest subnormal.
template <class T>
std::string awkward_values() {
    using Limits = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
        return bytes_of(std::vector<T>{T(0.1), -T(0), Limits::quiet_NaN(), -Limits::quiet_NaN(), Limits::infinity(),
                                       -Limits::infinity(), Limits::denorm_min(), Limits::max(), Limits::lowest(),
                                       T(1) / T(3), 0, T(-2.5)});
    } else {
        return bytes_of(std::vector<T>{0, 1, Limits::max(), Limits::min(), 0, T(Limits::max() - 1), 7, 0,
                                       T(Limits::min() + 1), 0, 42, 0});
    }
}

struct TypeCase {
    dbdf_value_type_t type;
    std::string values;  // awkward_values of the type
};

std::vector<TypeCase> every_value_type() {
    return {{DBDF_VALUE_U8, awkward_values<std::uint8_t>()},   {DBDF_VALUE_U16, awkward_values<std::uint16_t>()},
            {DBDF_VALUE_U32, awkward_values<std::uint32_t>()}, {DBDF_VALUE_U64, awkward_values<std::uint64_t>()},
            {DBDF_VALUE_I8, awkward_values<std::int8_t>()},    {DBDF_VALUE_I16, awkward_values<std::int16_t>()},
            {DBDF_VALUE_I32, awkward_values<std::int32_t>()},  {DBDF_VALUE_I64, awkward_values<std::int64_t>()},
            {DBDF_VALUE_F32, awkward_values<float>()},         {DBDF_VALUE_F64, awkward_values<double>()}};
}

TEST_F(CliExactValues, EveryValueTypeRoundTripsThroughMatrixMarketBitForBit) {
    for (const TypeCase& c : every_value_type()) {
        const std::string name = dbdf_value_type_name(c.type);
        const std::size_t width = dbdf_value_type_size(c.type);
        // Dense objects become array files, CSR objects coordinate files.
        for (const dbdf_data_type_t data_type : {DBDF_DATA_DENSE, DBDF_DATA_CSR}) {
            SCOPED_TRACE(name + (data_type == DBDF_DATA_DENSE ? " array" : " coordinate"));
            write_raw_matrix(path("in.dbdf"), data_type, c.type, 3, 4, c.values, 2, 3);
            ToolRun result = run("convert " + path("in.dbdf") + " " + path("out.mtx"));
            ASSERT_EQ(result.exit_code, 0) << result.err;
            result = run("convert " + path("out.mtx") + " " + path("back.dbdf"));
            ASSERT_EQ(result.exit_code, 0) << result.err << contents(path("out.mtx"));
            EXPECT_TRUE(same_bits(c.values, read_bits(path("back.dbdf"), c.type), width)) << contents(path("out.mtx"));
            result = run("convert " + path("out.mtx") + " " + path("typed.dbdf") + " --value-type " + name);
            ASSERT_EQ(result.exit_code, 0) << result.err;
            dbdf_object_info_t info{};
            EXPECT_TRUE(same_bits(c.values, read_bits(path("typed.dbdf"), c.type, &info), width));
            EXPECT_EQ(info.value_type, c.type);
        }
    }
}

TEST_F(CliExactValues, EveryValueTypeRoundTripsThroughCsvBitForBit) {
    for (const TypeCase& c : every_value_type()) {
        const std::string name = dbdf_value_type_name(c.type);
        const std::size_t width = dbdf_value_type_size(c.type);
        SCOPED_TRACE(name);
        write_raw_matrix(path("in.dbdf"), DBDF_DATA_DENSE, c.type, 3, 4, c.values, 2, 3);
        ToolRun result = run("convert " + path("in.dbdf") + " " + path("out.csv"));
        ASSERT_EQ(result.exit_code, 0) << result.err;
        // Inferred: i64, u64 or f64, holding every value exactly.
        result = run("convert " + path("out.csv") + " " + path("back.dbdf"));
        ASSERT_EQ(result.exit_code, 0) << result.err << contents(path("out.csv"));
        EXPECT_TRUE(same_bits(c.values, read_bits(path("back.dbdf"), c.type), width)) << contents(path("out.csv"));
        // Read in the type itself.
        result = run("convert " + path("out.csv") + " " + path("typed.dbdf") + " --value-type " + name);
        ASSERT_EQ(result.exit_code, 0) << result.err;
        dbdf_object_info_t info{};
        EXPECT_TRUE(same_bits(c.values, read_bits(path("typed.dbdf"), c.type, &info), width));
        EXPECT_EQ(info.value_type, c.type);
    }
}

// 0.1f is 0.100000001490116..., which "0.1" is not: a text file gets the f32's exact value in f64's shortest form.
TEST_F(CliExactValues, FloatValuesAreWrittenAsTheExactValueTheyHold) {
    const float tenth = 0.1f;
    write_raw_matrix(path("f32.dbdf"), DBDF_DATA_DENSE, DBDF_VALUE_F32, 1, 1, bytes_of(std::vector<float>{tenth}));
    ASSERT_EQ(run("convert " + path("f32.dbdf") + " " + path("f32.csv")).exit_code, 0);
    EXPECT_EQ(contents(path("f32.csv")), "0.10000000149011612\n");
    ASSERT_EQ(run("convert " + path("f32.dbdf") + " " + path("f32.mtx")).exit_code, 0);
    EXPECT_EQ(contents(path("f32.mtx")),
              "%%MatrixMarket matrix array real general\n% written by dbdf\n1 1\n"
              "0.10000000149011612\n");
    ASSERT_EQ(run("convert " + path("f32.csv") + " " + path("back.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<double>{static_cast<double>(tenth)}),
                          read_bits(path("back.dbdf"), DBDF_VALUE_F64), 8));
    // cat is for people: there the f32 shows as the shortest text that reads back as that f32.
    EXPECT_EQ(run("cat " + path("f32.dbdf")).out, "0.1\n");
}

TEST_F(CliExactValues, CsvIntegersThatNeedU64BecomeU64) {
    write_bytes("u64.csv", "18446744073709551615,1\n9223372036854775808,0\n");
    const ToolRun result = run("convert " + path("u64.csv") + " " + path("u64.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    dbdf_object_info_t info{};
    const std::string bits = read_bits(path("u64.dbdf"), DBDF_VALUE_U64, &info);
    EXPECT_EQ(info.value_type, DBDF_VALUE_U64);
    EXPECT_TRUE(
        same_bits(bytes_of(std::vector<std::uint64_t>{18446744073709551615u, 1, 9223372036854775808u, 0}), bits, 8));
    // A negative value and one above 2^63 - 1 fit f64 when it holds both exactly.
    write_bytes("mixed.csv", "-1\n9223372036854775808\n");
    ASSERT_EQ(run("convert " + path("mixed.csv") + " " + path("mixed.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<double>{-1.0, 9223372036854775808.0}),
                          read_bits(path("mixed.dbdf"), DBDF_VALUE_F64, &info), 8));
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
    // An integer beyond 64 bits that f64 holds exactly.
    write_bytes("huge.csv", "1\n100000000000000000000\n");
    ASSERT_EQ(run("convert " + path("huge.csv") + " " + path("huge.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<double>{1.0, 1e20}), read_bits(path("huge.dbdf"), DBDF_VALUE_F64), 8));
}

TEST_F(CliExactValues, CsvValuesNoTypeHoldsAreErrorsNamingLineColumnAndValue) {
    struct Case {
        const char* file;
        const char* text;
        std::string message;  // after "dbdf: FILE:"
    };
    const Case cases[] = {
        {"fraction.csv", "1,2\n9007199254740993,0.5\n",
         "2: column 1: 9007199254740993 is not exactly representable in f64, which 0.5 (line 2, column 2) needs; no "
         "value type holds both; as a frame (--data-type frame) each column gets its own type"},
        {"same_column.csv", "0.5\n9007199254740993\n",
         "2: column 1: 9007199254740993 is not exactly representable in f64, which 0.5 (line 1, column 1) needs; no "
         "value type holds both"},
        {"signs.csv", "-1\n18446744073709551615\n",
         "2: column 1: 18446744073709551615 is not exactly representable in f64, which -1 (line 1, column 1) and "
         "18446744073709551615 (line 2, column 1) need together; no value type holds them all"},
        {"beyond.csv", "1\n100000000000000000001\n",
         "2: column 1: 100000000000000000001 fits no integer type and is not exactly representable in f64"},
        {"negative_zero.csv", "-0,9007199254740993\n",
         "1: column 2: 9007199254740993 is not exactly representable in f64, which -0 (line 1, column 1) needs; no "
         "value type holds both; as a frame (--data-type frame) each column gets its own type; with --value-type i64 "
         "(--schema for a frame's columns) -0 reads as 0"},
        {"range.csv", "1,2\n1e400,3\n", "2: column 1: '1e400' is outside the range of f64"},
        {"frame.csv", "id,x\n1,0.5\n9007199254740993,0.25\n2.5,1\n",
         "3: column 1: 9007199254740993 is not exactly representable in f64, which 2.5 (line 4, column 1) needs; no "
         "value type holds both"},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.text);
        const std::string output = path(std::string(c.file) + ".dbdf");
        const ToolRun result = run("convert " + path(c.file) + " " + output);
        EXPECT_EQ(result.exit_code, 1) << c.file;
        EXPECT_EQ(result.err, "dbdf: " + path(c.file) + ":" + c.message + "\n");
        EXPECT_FALSE(fs::exists(output)) << c.file;
    }
    // Given a type, a value it does not hold is refused at its line and column.
    write_bytes("f32.csv", "1\n16777217\n");
    const ToolRun f32 = run("convert " + path("f32.csv") + " " + path("f32.dbdf") + " --value-type f32");
    EXPECT_EQ(f32.exit_code, 1);
    EXPECT_EQ(f32.err, "dbdf: " + path("f32.csv") + ":2: column 1: '16777217' is not exactly representable in f32\n");
    write_bytes("schema.csv", "a,b\n1,0.5\n");
    const ToolRun schema = run("convert " + path("schema.csv") + " " + path("schema.dbdf") + " --schema a:i64,b:i64");
    EXPECT_EQ(schema.exit_code, 1);
    EXPECT_EQ(schema.err, "dbdf: " + path("schema.csv") + ":2: column 2: '0.5' is not a value of type i64\n");
}

TEST_F(CliExactValues, CsvFramesInferEachColumnsTypeExactly) {
    write_bytes("f.csv", "id,x,big\n9007199254740993,0.5,1\n-2,0.25,18446744073709551615\n");
    const ToolRun result = run("convert " + path("f.csv") + " " + path("f.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const ToolRun info = run("info --json " + path("f.dbdf"));
    EXPECT_NE(info.out.find("\"label\":\"id\",\"value_type\":\"i64\""), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("\"label\":\"x\",\"value_type\":\"f64\""), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("\"label\":\"big\",\"value_type\":\"u64\""), std::string::npos) << info.out;
    EXPECT_EQ(run("cat " + path("f.dbdf")).out,
              "              id     x                   big\n"
              "9007199254740993   0.5                     1\n"
              "              -2  0.25  18446744073709551615\n");
    // --schema reads a column's text in its type: "0.1" as the f32 nearest to it.
    write_bytes("s.csv", "x\n0.1\n");
    ASSERT_EQ(run("convert " + path("s.csv") + " " + path("s.dbdf") + " --schema x:f32").exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<float>{0.1f}), read_bits(path("s.dbdf"), DBDF_VALUE_F32), 4));
}

// --schema types the columns it names; the others are inferred as without it. A name that is no column's label, or
// a column given two types, is refused before anything is written.
TEST_F(CliExactValues, CsvSchemaTypesTheColumnsItNamesAndInfersTheRest) {
    write_bytes("p.csv", "id,x,big\n7,0.5,1\n-2,0.25,18446744073709551615\n");
    ToolRun result = run("convert " + path("p.csv") + " " + path("p.dbdf") + " --schema x:f32");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const ToolRun info = run("info --json " + path("p.dbdf"));
    EXPECT_NE(info.out.find("\"label\":\"id\",\"value_type\":\"i64\""), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("\"label\":\"x\",\"value_type\":\"f32\""), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("\"label\":\"big\",\"value_type\":\"u64\""), std::string::npos) << info.out;
    // A typed column is read in its type ("1.0" is the i8 1), the others are inferred from their own values.
    write_bytes("r.csv", "a,b\n1.0,2\n2,2.5\n");
    result = run("convert " + path("r.csv") + " " + path("r.dbdf") + " --schema a:i8");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const ToolRun typed = run("info --json " + path("r.dbdf"));
    EXPECT_NE(typed.out.find("\"label\":\"a\",\"value_type\":\"i8\""), std::string::npos) << typed.out;
    EXPECT_NE(typed.out.find("\"label\":\"b\",\"value_type\":\"f64\""), std::string::npos) << typed.out;
    EXPECT_EQ(read_f64(path("r.dbdf")), (std::vector<double>{1, 2, 2, 2.5}));
    result = run("convert " + path("r.csv") + " " + path("r.dbdf") + " --schema b:i8");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("r.csv") + ":3: column 2: '2.5' is not a value of type i8\n");
    // An inferred column still refuses text that is no number.
    write_bytes("q.csv", "a,b\n1.0,2\n2,x\n");
    result = run("convert " + path("q.csv") + " " + path("q.dbdf") + " --schema a:i8");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("q.csv") + ":3: column 2: 'x' is not a number\n");

    // A usage error (exit 2): the file is fine, the command line does not fit it.
    result = run("convert " + path("p.csv") + " " + path("bad.dbdf") + " --schema idd:i64");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "dbdf: " + path("p.csv") +
                              ": --schema names column 'idd', which the file does not have (its columns: 'id', 'x', "
                              "'big')\n");
    result = run("convert " + path("p.csv") + " " + path("bad.dbdf") + " --schema id:i64,id:i8");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "dbdf: --schema: column 'id' is given a type twice\n");
    write_bytes("empty.csv", "");
    result = run("convert " + path("empty.csv") + " " + path("bad.dbdf") + " --schema a:i8");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, "dbdf: " + path("empty.csv") +
                              ": --schema names column 'a', which the file does not have (it has no columns)\n");
    EXPECT_FALSE(fs::exists(path("bad.dbdf")));
}

TEST_F(CliExactValues, CsvKeepsTheSignOfZeroWhereTheTypeCan) {
    write_bytes("z.csv", "1,-0\n2,3\n");
    ToolRun result = run("convert " + path("z.csv") + " " + path("z.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    dbdf_object_info_t info{};
    EXPECT_TRUE(
        same_bits(bytes_of(std::vector<double>{1, -0.0, 2, 3}), read_bits(path("z.dbdf"), DBDF_VALUE_F64, &info), 8));
    EXPECT_EQ(info.value_type, DBDF_VALUE_F64);
    write_bytes("zf.csv", "-0.0\n");
    ASSERT_EQ(run("convert " + path("zf.csv") + " " + path("zf.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<double>{-0.0}), read_bits(path("zf.dbdf"), DBDF_VALUE_F64), 8));
    // An integer type has no -0: asked for one, -0 is 0, as the library converts -0.0.
    write_bytes("zi.csv", "-0,9007199254740993\n");
    result = run("convert " + path("zi.csv") + " " + path("zi.dbdf") + " --value-type i64");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(same_bits(bytes_of(std::vector<std::int64_t>{0, 9007199254740993}),
                          read_bits(path("zi.dbdf"), DBDF_VALUE_I64), 8));
    // Float texts whose value is an integer are that integer in an integer type; others are refused.
    write_bytes("integral.csv", "1.0,2.5e1\n-0.0,300e-2\n");
    result = run("convert " + path("integral.csv") + " " + path("integral.dbdf") + " --value-type i8");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(
        same_bits(bytes_of(std::vector<std::int8_t>{1, 25, 0, 3}), read_bits(path("integral.dbdf"), DBDF_VALUE_I8), 1));
    write_bytes("fraction.csv", "1.0\n2.05e1\n");
    result = run("convert " + path("fraction.csv") + " " + path("fraction.dbdf") + " --value-type i64");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err, "dbdf: " + path("fraction.csv") + ":2: column 1: '2.05e1' is not a value of type i64\n");
}

// Labels that read as numbers are quoted on output, and a quoted first row is a header.
TEST_F(CliExactValues, AFrameWhoseLabelsAreNumbersKeepsItsHeader) {
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path("numbers.dbdf").c_str(), &writer), DBDF_OK);
    const dbdf_value_type_t types[] = {DBDF_VALUE_I64, DBDF_VALUE_F64, DBDF_VALUE_I64};
    const char* labels[] = {"1", "2.5", "-0"};
    ASSERT_EQ(dbdf_writer_begin_frame(writer, 2, 3, types, labels, nullptr), DBDF_OK) << dbdf_last_error_message();
    const std::int64_t first[] = {10, 20}, third[] = {5, 6};
    const double second[] = {0.5, -1};
    ASSERT_EQ(dbdf_writer_write_column(writer, 0, DBDF_VALUE_I64, first, 2, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_write_column(writer, 1, DBDF_VALUE_F64, second, 2, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_write_column(writer, 2, DBDF_VALUE_I64, third, 2, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);

    ASSERT_EQ(run("convert " + path("numbers.dbdf") + " " + path("numbers.csv")).exit_code, 0);
    EXPECT_EQ(contents(path("numbers.csv")), "\"1\",\"2.5\",\"-0\"\n10,0.5,5\n20,-1,6\n");
    const ToolRun back = run("convert " + path("numbers.csv") + " " + path("back.dbdf"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(run("cat " + path("back.dbdf")).out, run("cat " + path("numbers.dbdf")).out);
    EXPECT_EQ(object_info_of(path("back.dbdf")).data_type, DBDF_DATA_FRAME);

    // --header says it where quotes do not: an unquoted row of numbers as labels, or a first row of values.
    write_bytes("plain.csv", "0,1\n5,6\n");
    ASSERT_EQ(run("convert " + path("plain.csv") + " " + path("plain.dbdf") + " --header yes").exit_code, 0);
    EXPECT_EQ(run("cat " + path("plain.dbdf")).out, "0  1\n5  6\n");
    EXPECT_EQ(object_info_of(path("plain.dbdf")).rows, 1u);
    ASSERT_EQ(run("convert " + path("plain.csv") + " " + path("values.dbdf") + " --header auto").exit_code, 0);
    EXPECT_EQ(object_info_of(path("values.dbdf")).data_type, DBDF_DATA_DENSE);
    ASSERT_EQ(
        run("convert " + path("plain.csv") + " " + path("cols.dbdf") + " --header no --data-type frame").exit_code, 0);
    EXPECT_EQ(run("cat " + path("cols.dbdf")).out, "col_0  col_1\n    0      1\n    5      6\n");
    // Quoted numbers are numbers all the same: without the header, they are the first row of values.
    ASSERT_EQ(run("convert " + path("numbers.csv") + " " + path("no_header.dbdf") + " --header no").exit_code, 0);
    EXPECT_EQ(run("cat " + path("no_header.dbdf")).out, " 1  2.5  -0\n10  0.5   5\n20   -1   6\n");
    write_bytes("labels.csv", "a,b\n1,2\n");
    const ToolRun text = run("convert " + path("labels.csv") + " " + path("x.dbdf") + " --header no");
    EXPECT_EQ(text.exit_code, 1);
    EXPECT_EQ(text.err, "dbdf: " + path("labels.csv") + ":1: column 1: 'a' is not a number\n");
}

TEST_F(CliExactValues, MatrixMarketIntegersAboveI64BecomeU64) {
    write_bytes("u.mtx",
                "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 18446744073709551615\n"
                "2 2 9223372036854775808\n");
    ToolRun result = run("convert " + path("u.mtx") + " " + path("u.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    dbdf_object_info_t info{};
    EXPECT_TRUE(same_bits(bytes_of(std::vector<std::uint64_t>{18446744073709551615u, 0, 0, 9223372036854775808u}),
                          read_bits(path("u.dbdf"), DBDF_VALUE_U64, &info), 8));
    EXPECT_EQ(info.value_type, DBDF_VALUE_U64);
    write_bytes("ua.mtx", "%%MatrixMarket matrix array integer general\n2 1\n9223372036854775808\n3\n");
    ASSERT_EQ(run("convert " + path("ua.mtx") + " " + path("ua.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(bytes_of(std::vector<std::uint64_t>{9223372036854775808u, 3}),
                          read_bits(path("ua.dbdf"), DBDF_VALUE_U64, &info), 8));
    EXPECT_EQ(info.value_type, DBDF_VALUE_U64);

    struct Case {
        const char* file;
        const char* text;
        const char* message;  // after "dbdf: FILE:"
    };
    const Case cases[] = {
        {"signs.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 -1\n2 2 9223372036854775808\n",
         "4: no integer type holds both -1 (line 3) and 9223372036854775808 (line 4)"},
        {"skew.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 9223372036854775808\n",
         "3: 9223372036854775808 has no negative for the mirrored entry in any integer type"},
        {"wide.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 18446744073709551616\n",
         "3: '18446744073709551616' fits neither i64 nor u64"},
        {"real.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 9007199254740993\n",
         "3: '9007199254740993' is not exactly representable in f64"},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.text);
        result = run("convert " + path(c.file) + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << c.file;
        EXPECT_EQ(result.err, "dbdf: " + path(c.file) + ":" + c.message + "\n");
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << c.file;
    }
}

// The fixture's matrix holds -0.0 and a NaN; every conversion keeps their bits, .npy even a NaN's payload.
TEST_F(CliExactValues, NegativeZeroAndNanSurviveEveryConversion) {
    const std::string dense = path("dense.dbdf");
    write_matrix(dense, DBDF_DATA_DENSE);
    for (const std::string& source : {path("matrix.dbdf"), dense}) {
        for (const char* format : {"npy", "mtx", "csv"}) {
            SCOPED_TRACE(source + " via " + format);
            const std::string text = path(std::string("out.") + format);
            ASSERT_EQ(run("convert " + source + " " + text).exit_code, 0);
            const ToolRun back = run("convert " + text + " " + path("back.dbdf"));
            ASSERT_EQ(back.exit_code, 0) << back.err;
            EXPECT_TRUE(holds_values(path("back.dbdf")));
        }
        for (const char* options : {"", " --encoding dense", " --encoding csr", " --encoding coo", " --encoding as-is",
                                    " --block 2x2", " --data-type frame", " --dialect-out daphne"}) {
            SCOPED_TRACE(source + options);
            const ToolRun copy = run("convert " + source + " " + path("copy.dbdf") + options);
            ASSERT_EQ(copy.exit_code, 0) << copy.err;
            const bool daphne = std::string(options).find("daphne") != std::string::npos;
            const std::string expected(reinterpret_cast<const char*>(values_.data()), values_.size() * 8);
            EXPECT_TRUE(same_bits(
                expected,
                read_bits(path("copy.dbdf"), DBDF_VALUE_F64, nullptr, daphne ? DBDF_DIALECT_DAPHNE : DBDF_DIALECT_SPEC),
                8));
        }
    }
    // A NaN with a payload and its sign: only a binary format can carry them.
    const std::uint64_t payload_nan_bits = 0xFFF0000000012345u;
    double payload_nan = 0;
    std::memcpy(&payload_nan, &payload_nan_bits, sizeof payload_nan);
    const std::string values = bytes_of(std::vector<double>{payload_nan, -0.0, 1.5, 0});
    write_raw_matrix(path("payload.dbdf"), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2, values);
    ASSERT_EQ(run("convert " + path("payload.dbdf") + " " + path("payload.npy")).exit_code, 0);
    ASSERT_EQ(run("convert " + path("payload.npy") + " " + path("payload_back.dbdf")).exit_code, 0);
    EXPECT_TRUE(same_bits(values, read_bits(path("payload_back.dbdf"), DBDF_VALUE_F64), 8));
}

// Daphne CSR output gathers the whole object's entries from the input's blocks: blocks in bands of one block, in
// bands of several, and in a layout that is no bands at all (blocks of different heights side by side).
TEST_F(CliExactValues, DaphneCsrOutputGathersEveryBlockLayout) {
    // 4 x 4, row-major. ragged.dbdf: columns 0..1 one 4-row block, columns 2..3 two 2-row blocks.
    const double values[16] = {1, 0, 2, 0, 0, 3, 0, 4, 5, 0, -0.0, 6, 0, 7, 8, 0};
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path("ragged.dbdf").c_str(), &writer), DBDF_OK);
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_CSR, DBDF_VALUE_F64, 4, 4), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer, 0, 2, 2, 2, DBDF_VALUE_F64, values + 2, 14, 4, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer, 0, 0, 4, 2, DBDF_VALUE_F64, values, 16, 4, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_add_dense(writer, 2, 2, 2, 2, DBDF_VALUE_F64, values + 10, 6, 4, nullptr), DBDF_OK);
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);
    const std::string expected(reinterpret_cast<const char*>(values), sizeof values);
    write_raw_matrix(path("one.dbdf"), DBDF_DATA_CSR, DBDF_VALUE_F64, 4, 4, expected);
    write_raw_matrix(path("bands.dbdf"), DBDF_DATA_CSR, DBDF_VALUE_F64, 4, 4, expected, 3, 2);
    write_raw_matrix(path("rows.dbdf"), DBDF_DATA_CSR, DBDF_VALUE_F64, 4, 4, expected, 1, 4);
    for (const char* name : {"ragged.dbdf", "one.dbdf", "bands.dbdf", "rows.dbdf"}) {
        SCOPED_TRACE(name);
        const ToolRun result = run("convert " + path(name) + " " + path("daphne.dbdf") + " --dialect-out daphne");
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(run("validate --dialect daphne " + path("daphne.dbdf")).out, "ok\n");
        const std::string back = read_bits(path("daphne.dbdf"), DBDF_VALUE_F64, nullptr, DBDF_DIALECT_DAPHNE);
        EXPECT_TRUE(same_bits(expected, back, 8));
    }
}

}  // namespace
