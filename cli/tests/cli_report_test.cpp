// What info and validate report: stored values from the block records alone and, on request, the non-zeros of
// every block, labels that are not UTF-8 in valid JSON, and
// violations found in the header printed like every other violation.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "dbdf.h"

namespace {

using namespace cli_test;

using CliReport = CliTest;

// Whether `text` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, surrogates or code points above
// U+10FFFF), written here independently of the tool's own check.
bool is_utf8(const std::string& text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const unsigned char lead = static_cast<unsigned char>(text[i]);
        std::size_t length = 1;
        unsigned char second_low = 0x80, second_high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) second_low = 0xA0;
            if (lead == 0xED) second_high = 0x9F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) second_low = 0x90;
            if (lead == 0xF4) second_high = 0x8F;
        } else if (lead >= 0x80) {
            return false;
        }
        if (i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned char next = static_cast<unsigned char>(text[i + k]);
            if (next < (k == 1 ? second_low : 0x80) || next > (k == 1 ? second_high : 0xBF)) return false;
        }
        i += length;
    }
    return true;
}

TEST_F(CliReport, InfoCountsTheNonZerosOfEveryBlockOnRequest) {
    // One dense block of the 7 x 5 matrix: 35 stored values, of which 6 are non-zeros (-0.0 and NaN count).
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("dense.dbdf") + " --encoding dense --block 7x5");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = run("info --non-zeros " + path("dense.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("      stored     non-zeros         bytes\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("  dense  f64             35             6           "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("stored values: 35\nnon-zeros:     6\n"), std::string::npos) << result.out;
    result = run("info --json --non-zeros " + path("dense.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"stored_values\":35,\"non_zeros\":6,\"blocks\":["), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"value_type\":\"f64\",\"stored_values\":35,\"non_zeros\":6,\"offset\":"),
              std::string::npos)
        << result.out;

    // The fixture's 3 x 2 blocks: sparse ones store their entries, blocks of zeros are empty.
    result = run("info --json --non-zeros " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"non_zeros\":6,\"blocks\":["), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"block_type\":\"empty\",\"value_type\":null,\"stored_values\":0,\"non_zeros\":0,"),
              std::string::npos)
        << result.out;
}

TEST_F(CliReport, InfoShowsStoredValuesWithoutCountingNonZeros) {
    ToolRun result = run("convert " + path("matrix.dbdf") + " " + path("dense.dbdf") + " --encoding dense --block 7x5");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = run("info " + path("dense.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("      stored         bytes\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("  dense  f64             35           "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("stored values: 35\nnon-zeros:     not counted (--non-zeros counts them"),
              std::string::npos)
        << result.out;
    result = run("info --json " + path("dense.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"stored_values\":35,\"non_zeros\":null,\"blocks\":["), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"value_type\":\"f64\",\"stored_values\":35,\"non_zeros\":null,\"offset\":"),
              std::string::npos)
        << result.out;
    // Sparse blocks' stored values come from their records.
    result = run("info --json " + path("matrix.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"non_zeros\":null,\"blocks\":["), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"block_type\":\"empty\",\"value_type\":null,\"stored_values\":0,\"non_zeros\":null,"),
              std::string::npos)
        << result.out;
}

TEST_F(CliReport, InfoOfATerabyteFileReadsNoPayload) {
    // One dense u8 block of 2^20 x 2^20 values: a 1 TiB file, all of it a hole but its 45 bytes of records. Reading
    // its values would take many minutes; info answers from the header and the block record.
    constexpr std::uint64_t kSide = std::uint64_t{1} << 20;
    std::string records;
    auto put = [&](std::uint64_t value, int bytes) {
        for (int i = 0; i < bytes; ++i) records += static_cast<char>((value >> (8 * i)) & 0xFF);
    };
    put(1, 1), put(1, 1), put(kSide, 8), put(kSide, 8), put(1, 1);             // header: u8 dense matrix
    put(0, 8), put(0, 8), put(kSide, 4), put(kSide, 4), put(1, 1), put(1, 1);  // dense block of u8
    write_bytes("huge.dbdf", records);
    std::error_code error;
    std::filesystem::resize_file(path("huge.dbdf"), records.size() + kSide * kSide, error);
    if (error) GTEST_SKIP() << "this file system holds no sparse 1 TiB file: " << error.message();
    const ToolRun result = run("info --json " + path("huge.dbdf"));
    std::filesystem::remove(path("huge.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\"total_bytes\":1099511627821,\"header_bytes\":19,\"block_count\":1,"
                              "\"stored_values\":1099511627776,\"non_zeros\":null,"),
              std::string::npos)
        << result.out;
}

TEST_F(CliReport, LabelsThatAreNotUtf8StayValidJson) {
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path("labels.dbdf").c_str(), &writer), DBDF_OK);
    const dbdf_value_type_t types[] = {DBDF_VALUE_I8, DBDF_VALUE_I8, DBDF_VALUE_I8, DBDF_VALUE_I8};
    // A stray continuation byte, a lead byte without its continuation, a surrogate's encoding, and a valid "é".
    const std::string labels[] = {std::string("bad\xff"), std::string("\xc3(", 2), std::string("\xed\xa0\x80", 3),
                                  std::string("caf\xc3\xa9")};
    const char* pointers[4];
    std::size_t lengths[4];
    for (int c = 0; c < 4; ++c) {
        pointers[c] = labels[c].data();
        lengths[c] = labels[c].size();
    }
    ASSERT_EQ(dbdf_writer_begin_frame(writer, 1, 4, types, pointers, lengths), DBDF_OK) << dbdf_last_error_message();
    for (std::uint64_t c = 0; c < 4; ++c) {
        const std::int8_t value = static_cast<std::int8_t>(c);
        ASSERT_EQ(dbdf_writer_write_column(writer, c, DBDF_VALUE_I8, &value, 1, nullptr), DBDF_OK);
    }
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);

    const ToolRun result = run("info --json " + path("labels.dbdf"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(is_utf8(result.out)) << result.out;
    EXPECT_NE(result.out.find("{\"label\":\"bad\\ufffd\",\"value_type\":\"i8\",\"label_hex\":\"626164ff\"}"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("{\"label\":\"\\ufffd(\",\"value_type\":\"i8\",\"label_hex\":\"c328\"}"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("{\"label\":\"\\ufffd\\ufffd\\ufffd\",\"value_type\":\"i8\",\"label_hex\":\"eda080\"}"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("{\"label\":\"caf\xc3\xa9\",\"value_type\":\"i8\",\"label_hex\":null}"),
              std::string::npos)
        << result.out;
}

// A header that breaks a rule keeps the file from opening at all; validate still names the rule and the byte, and
// counts the violation, as for the violations found further on.
TEST_F(CliReport, ValidateReportsHeaderViolationsLikeEveryOther) {
    struct Case {
        const char* file;
        std::string finding;  // after "FILE: "
    };
    const Case cases[] = {
        {"bad_version.dbdf", "rule 6 at byte 0: format version 2 is not supported (only version 1)"},
        {"data_type_0.dbdf", "rule 6 at byte 1: data type 0 is reserved"},
        {"data_type_9.dbdf", "spec layout at byte 1: data type 9 is unknown (1 dense, 2 CSR, 3 frame)"},
        {"header_value_type_11.dbdf", "spec layout at byte 18: object value type 11 is unknown (valid: 1..10)"},
        {"truncated_header.dbdf", "spec layout at byte 10: input of 10 bytes ends inside the 18-byte object header"},
        {"truncated_frame_label.dbdf",
         "rule 16 at byte 23: label of frame column 1 (3 bytes) runs past the end of the input"},
    };
    for (const Case& c : cases) {
        const std::string file = vector_path(std::string("invalid/") + c.file);
        const ToolRun result = run("validate " + file);
        EXPECT_EQ(result.exit_code, 1) << c.file;
        EXPECT_EQ(result.out, file + ": " + c.finding + "\n");
        EXPECT_EQ(result.err, file + ": 1 violation\n");
    }
}

}  // namespace
