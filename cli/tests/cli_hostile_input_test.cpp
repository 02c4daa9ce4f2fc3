// The readers of .npy, .mtx and .csv inputs facing legal but unusual files and hostile ones: .npy headers of any
// legal length, malformed shapes, a CSV line of a million fields in bounded memory, inputs that are not regular files
// (a FIFO without a writer, /dev/zero, a directory), lines beyond the limit, and messages that quote huge or binary
// input as short escaped excerpts.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"
#include "sanitizer_detection.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cli_test;

using CliHostileInput = CliTest;

bool built_with_sanitizers() {
#ifdef DBDF_TEST_UNDER_SANITIZER
    return true;
#else
    return false;
#endif
}

// A 2 x 3 array of f64: 0 1 2 / 3 4 5.
const std::string kSixValues = raw<double>({0, 1, 2, 3, 4, 5});

// NumPy loads these (np.load, with max_header_size raised above its default of 10,000 bytes): Python's syntax allows
// any whitespace between the tokens of the header's dictionary. A parser by regular expressions recursed once per
// character of such a run and overflowed the stack at 40-60 kB.
TEST_F(CliHostileInput, NpyHeadersOfAnyLegalLengthParse) {
    const std::string spaces(50000, ' ');
    struct Case {
        const char* file;
        std::string bytes;
    };
    const Case cases[] = {
        {"in_shape.npy",
         npy_with_dictionary("{'descr': '<f8', 'fortran_order': False, 'shape': (2, " + spaces + "3), }", kSixValues)},
        {"after_colon.npy",
         npy_with_dictionary("{'descr':" + spaces + " '<f8', 'fortran_order': False, 'shape': (2, 3), }", kSixValues)},
        {"between_keys.npy",
         npy_with_dictionary("{'descr': '<f8', " + spaces + "'fortran_order': False, 'shape': (2, 3), }", kSixValues)},
        {"version2.npy",
         npy_with_dictionary("{'descr': '<f8', 'fortran_order': False, 'shape': (2,\n" + spaces + spaces + "3)}",
                             kSixValues, 2)},
        {"double_quotes.npy",
         npy_with_dictionary("{\"shape\": (2, 3), \"fortran_order\": False, \"descr\": \"<f8\"}", kSixValues, 3)},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.bytes);
        const ToolRun result = run("convert " + path(c.file) + " " + path("out.dbdf"));
        ASSERT_EQ(result.exit_code, 0) << c.file << ": " << result.err;
        dbdf_object_info_t info{};
        EXPECT_EQ(read_f64(path("out.dbdf"), &info), (std::vector<double>{0, 1, 2, 3, 4, 5})) << c.file;
        EXPECT_EQ(info.rows, 2u) << c.file;
        EXPECT_EQ(info.cols, 3u) << c.file;
    }
}

TEST_F(CliHostileInput, NpyHeaderBeyondTheLimitIsRefusedBeforeItIsRead) {
    // 1 MiB and 116 bytes of header: version 2.0 allows 4 GiB, dbdf reads at most 1 MiB.
    const std::string dictionary =
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }" + std::string(std::size_t{1} << 20, ' ');
    write_bytes("long.npy", npy_with_dictionary(dictionary, kSixValues, 2));
    const ToolRun result = run("convert " + path("long.npy") + " " + path("out.dbdf"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_EQ(result.err, "dbdf: " + path("long.npy") +
                              ": the .npy header is 1048692 bytes long; dbdf reads headers of at most 1048576 bytes\n");
    EXPECT_FALSE(fs::exists(path("out.dbdf")));
}

TEST_F(CliHostileInput, NpyShapeEntriesThatAreNoDimensionAreRefused) {
    struct Case {
        const char* shape;
        const char* message;  // after "FILE: the .npy header at byte N: "
    };
    const Case cases[] = {
        {"(-2, -3)", "dimension 0 of 'shape' is negative ('-2')"},
        {"(2, -3)", "dimension 1 of 'shape' is negative ('-3')"},
        {"(2, - 3)", "dimension 1 of 'shape' is negative ('- 3')"},
        {"(6)", "'shape' is an integer in parentheses, not a tuple (a 1-D shape is written (n,))"},
        {"(2, x)", "dimension 1 of 'shape' is not a non-negative integer: 'x'"},
        {"(2, 3.0)", "expected ',' or ')' in 'shape', found '.0), }"},
        {"(18446744073709551616, 1)", "dimension 0 of 'shape' is above 2^64 - 1: '18446744073709551616'"},
        {"[2, 3]", "expected 'shape' as a tuple such as (3, 4), found '[2, 3], }"},
    };
    for (const Case& c : cases) {
        write_bytes("shape.npy", npy_bytes("<f8", c.shape, false, kSixValues));
        const ToolRun result = run("convert " + path("shape.npy") + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << c.shape << ": " << result.err;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << c.shape << ": " << result.err;
        EXPECT_EQ(result.err.rfind("dbdf: " + path("shape.npy") + ": the .npy header at byte ", 0), 0u) << result.err;
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << c.shape;
    }
}

// A 10 MB line of 1.3 million fields. Each field once cost a string in the line's split and five witnesses of what
// its column needs (about 360 bytes: 500 MB here); now it costs a 4-byte offset, a byte of needs and its value.
TEST_F(CliHostileInput, CsvLineOfMillionsOfFieldsConvertsInBoundedMemory) {
    if (built_with_sanitizers()) GTEST_SKIP() << "sanitizers reserve terabytes of address space";
    constexpr std::uint64_t kFields = 1300000;
    {
        std::ofstream file(path("wide.csv"), std::ios::binary);
        std::string line;
        for (std::uint64_t c = 0; c < kFields; ++c) line += (c ? "," : "") + std::to_string(c % 1000000);
        ASSERT_GT(line.size(), std::size_t{7} << 20);
        file << line << '\n';
    }
    const ToolRun result =
        run("convert " + path("wide.csv") + " " + path("wide.dbdf"), RunSettings{{}, std::uint64_t{128} << 20});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    dbdf_object_info_t info{};
    const std::vector<double> values = read_f64(path("wide.dbdf"), &info);
    EXPECT_EQ(info.rows, 1u);
    EXPECT_EQ(info.cols, kFields);
    EXPECT_EQ(info.value_type, DBDF_VALUE_I64);
    ASSERT_EQ(values.size(), kFields);
    EXPECT_EQ(values[0], 0.0);
    EXPECT_EQ(values[999999], 999999.0);
    EXPECT_EQ(values[1000000], 0.0);
    EXPECT_EQ(values[kFields - 1], 299999.0);
}

// What cannot be read twice or by its size is refused by name, at once: a FIFO without a writer used to block the
// open for ever, /dev/zero as .csv to be read into one endless line. Each run has 20 s and 256 MiB to fail in.
TEST_F(CliHostileInput, InputsThatAreNotRegularFilesAreRefusedAtOnce) {
    for (const char* fifo : {"fifo.csv", "fifo.npy", "fifo.mtx"}) {
        ASSERT_EQ(::mkfifo(path(fifo).c_str(), 0600), 0) << fifo;
    }
    fs::create_directory(path("directory.csv"));
    struct Case {
        std::string input;
        std::string options;
        std::string kind;
    };
    const Case cases[] = {
        {"fifo.csv", "", "a FIFO"},
        {"fifo.npy", "", "a FIFO"},
        {"fifo.mtx", "", "a FIFO"},
        {"/dev/zero", "--from csv", "a character device"},
        {"/dev/zero", "--from mtx", "a character device"},
        {"/dev/null", "--from npy", "a character device"},
        {"directory.csv", "", "a directory"},
    };
    // Sanitizers reserve terabytes of address space: there the time limit alone has to do.
    const std::string address_space_limit = built_with_sanitizers() ? "" : "ulimit -v 262144; ";
    for (const Case& c : cases) {
        const ToolRun result = run_script(
            address_space_limit + "timeout 20 dbdf convert " + c.input + " out.dbdf " + c.options, scratch_.root());
        EXPECT_EQ(result.exit_code, 2) << c.input << " " << c.options << ": " << result.out;
        const std::string pipe_hint = c.kind == "a FIFO" ? "; give - to have standard input copied into one" : "";
        EXPECT_EQ(result.out, "dbdf: " + c.input + ": is " + c.kind +
                                  ", not a regular file (an input is read twice or by its size, so it must be a "
                                  "regular file" +
                                  pipe_hint + ")\n");
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << c.input;
    }
}

TEST_F(CliHostileInput, LinesLongerThanTheLimitAreRefused) {
    // 32 MiB of "0," (16 million fields) and one more byte: refused when the line passes the limit, before it is split.
    std::string line;
    line.reserve((std::size_t{32} << 20) + 1);
    while (line.size() < (std::size_t{32} << 20)) line += "0,";
    line += '0';
    write_bytes("long.csv", "1,2\n" + line + "\n");
    write_bytes("long.mtx", "%%MatrixMarket matrix array real general\n" + line + "\n");
    for (const char* file : {"long.csv", "long.mtx"}) {
        const ToolRun result = run(std::string("convert ") + path(file) + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << file << ": " << result.err;
        EXPECT_EQ(result.err, "dbdf: " + path(file) +
                                  ":2: the line is longer than 33554432 bytes, the most a line of a text input may "
                                  "hold\n");
        EXPECT_FALSE(fs::exists(path("out.dbdf"))) << file;
    }
}

// Messages quote at most 40 bytes of a field, a line or a header, then its length; control characters and bytes that
// are not UTF-8 are escaped, so an error never floods or drives the terminal.
TEST_F(CliHostileInput, MessagesQuoteShortEscapedExcerptsOfTheInput) {
    const std::string huge(10 << 20, 'x');
    struct Case {
        const char* file;
        std::string bytes;
        std::string message;
    };
    const Case cases[] = {
        {"huge.csv", "1,2\n3," + huge + "\n",
         ":2: column 2: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (10485760 bytes) is not a number"},
        {"huge_digits.csv", "1\n0.5\n" + std::string(10 << 20, '7') + "\n",
         ":3: column 1: 7777777777777777777777777777777777777777... (10485760 bytes) is not exactly representable in "
         "f64, which 0.5 (line 2, column 1) needs; no value type holds both"},
        {"escapes.csv", "1,2\n3,a\x1b[31m\xff\xc3\xa9\t\n",
         ":2: column 2: 'a\\x1b[31m\\xff\xc3\xa9\\t' is not a number"},
        {"huge.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 " + huge + "\n",
         ":3: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (10485760 bytes) is not a real number"},
        {"line.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 \x07 " + huge + "\n",
         ":3: malformed or out-of-range entry '1 \\x07 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (10485764 bytes)"},
        {"header.npy",
         npy_with_dictionary(
             "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)} \x1b]0;" + std::string(50000, 'x'), kSixValues),
         ": the .npy header at byte 68: expected only spaces and a newline after the dictionary, found "
         "'\\x1b]0;" +
             std::string(36, 'x') + "'... (50044 bytes)"},
    };
    for (const Case& c : cases) {
        write_bytes(c.file, c.bytes);
        const ToolRun result = run(std::string("convert ") + path(c.file) + " " + path("out.dbdf"));
        EXPECT_EQ(result.exit_code, 1) << c.file << ": " << result.err.substr(0, 400);
        EXPECT_EQ(result.err, "dbdf: " + path(c.file) + c.message + "\n") << c.file;
        EXPECT_LT(result.err.size(), 400u) << c.file;
    }
    // The labels a --schema error lists come from the file too: ten of them at most, each as an excerpt.
    std::string header = huge;
    for (int c = 1; c < 12; ++c) header += ",l" + std::to_string(c);
    write_bytes("labels.csv", header + "\n" + std::string(11, '1') + std::string(11, ',') + "1\n");
    const ToolRun result = run("convert " + path("labels.csv") + " " + path("out.dbdf") + " --schema nope:i64");
    EXPECT_EQ(result.exit_code, 2) << result.err.substr(0, 400);
    EXPECT_EQ(result.err, "dbdf: " + path("labels.csv") +
                              ": --schema names column 'nope', which the file does not have "
                              "(its columns: '" +
                              std::string(40, 'x') +
                              "'... (10485760 bytes), 'l1', 'l2', 'l3', "
                              "'l4', 'l5', 'l6', 'l7', 'l8', 'l9', ... (12 columns))\n");
}

}  // namespace
