// Object headers: byte layout for matrices and frames, and rejection of malformed headers.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>

#include "dbdf/dialect.hpp"
#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
#include "dbdf/reader.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

TEST(Header, MatrixHeaderIsNineteenBytes) {
    ObjectHeader header;
    header.data_type = DataType::CsrMatrix;
    header.rows = 3;
    header.cols = 0x0102030405060708ull;
    header.value_type = ValueType::I16;
    const auto bytes = encode_header(header);
    const Bytes expected = Bytes().u8(1).u8(2).u64(3).u64(0x0102030405060708ull).u8(6);
    EXPECT_EQ(bytes, expected.vector());
    std::size_t header_bytes = 0;
    const ObjectHeader parsed = parse_header(expected.span(), header_bytes);
    EXPECT_EQ(header_bytes, 19u);
    EXPECT_EQ(parsed.data_type, DataType::CsrMatrix);
    EXPECT_EQ(parsed.rows, 3u);
    EXPECT_EQ(parsed.cols, 0x0102030405060708ull);
    EXPECT_EQ(parsed.value_type, ValueType::I16);
}

TEST(Header, FrameHeaderListsTypesThenLengthPrefixedLabels) {
    ObjectHeader header;
    header.data_type = DataType::Frame;
    header.rows = 2;
    header.cols = 2;
    header.column_types = {ValueType::F64, ValueType::U8};
    header.labels = {"x", "\xc3\xa9t\xc3\xa9"};
    const Bytes expected =
        Bytes().u8(1).u8(3).u64(2).u64(2).u8(10).u8(1).u16(1).text("x").u16(5).text("\xc3\xa9t\xc3\xa9");
    EXPECT_EQ(encode_header(header), expected.vector());
    std::size_t header_bytes = 0;
    const ObjectHeader parsed = parse_header(expected.span(), header_bytes);
    EXPECT_EQ(header_bytes, expected.size());
    EXPECT_EQ(parsed.column_types, header.column_types);
    EXPECT_EQ(parsed.labels, header.labels);
}

void expect_header_error(const Bytes& input, ErrorCode code, int rule, std::uint64_t offset) {
    std::size_t header_bytes = 0;
    try {
        parse_header(input.span(), header_bytes);
        FAIL() << "header was accepted";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), code) << error.what();
        EXPECT_EQ(error.rule(), rule) << error.what();
        EXPECT_EQ(error.offset(), offset) << error.what();
    }
}

TEST(Header, RejectsMalformedHeaders) {
    expect_header_error(Bytes().u8(1).u8(1).u64(2), ErrorCode::Truncated, 0, 10);
    expect_header_error(Bytes().u8(1).u8(1).u64(2).u64(2), ErrorCode::Truncated, 0, 18);
    expect_header_error(Bytes().u8(2).u8(1).u64(2).u64(2).u8(10), ErrorCode::Format, 6, 0);
    expect_header_error(Bytes().matrix(0, 2, 2, 10), ErrorCode::Format, 6, 1);
    expect_header_error(Bytes().matrix(4, 2, 2, 10), ErrorCode::Format, 0, 1);
    expect_header_error(Bytes().matrix(1, 2, 2, 0), ErrorCode::Format, 6, 18);
    expect_header_error(Bytes().matrix(1, 2, 2, 11), ErrorCode::Format, 0, 18);
}

TEST(Header, RejectsFrameHeadersThatRunPastTheEnd) {
    // A label claims 10 bytes, only 2 follow.
    expect_header_error(Bytes().u8(1).u8(3).u64(1).u64(1).u8(10).u16(10).text("ab"), ErrorCode::Truncated, 16, 19);
    // 2^63 columns in a 20-byte input: fails before sizing anything by the column count.
    expect_header_error(Bytes().u8(1).u8(3).u64(1).u64(std::uint64_t{1} << 63).u8(10).u8(10), ErrorCode::Truncated, 7,
                        10);
    // Unknown column value type.
    expect_header_error(Bytes().u8(1).u8(3).u64(1).u64(1).u8(12).u16(0), ErrorCode::Format, 0, 18);
}

std::string header_error_message(std::string_view input) {
    std::size_t header_bytes = 0;
    try {
        parse_header(std::as_bytes(std::span(input.data(), input.size())), header_bytes);
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Format) << error.what();
        EXPECT_EQ(error.rule(), 6) << error.what();
        EXPECT_EQ(error.offset(), 0u) << error.what();
        return error.what();
    }
    ADD_FAILURE() << "header was accepted: " << input;
    return {};
}

// Text where a .dbdf file belongs is named as such, whatever its length (a short one is not "truncated"), with
// its first bytes quoted; a first byte that is no text keeps the version message.
TEST(Header, TextIsNotADbdfFile) {
    EXPECT_EQ(header_error_message("id,price\n1,2.5\n2,3.25\n"),
              "not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A2\"... (text) instead of format version 1 at "
              "byte 0 (rule 6)");
    EXPECT_EQ(header_error_message("1 2\n"),
              "not a .dbdf file: it starts with \"1 2\\x0A\" (text) instead of format version 1 at byte 0 (rule 6)");
    // The .npy magic: its first byte is no ASCII, but the bytes read as UTF-8 text would.
    EXPECT_EQ(header_error_message(std::string_view("\x93NUMPY\x01\x00v\x00{'descr':", 19)),
              "not a .dbdf file: it starts with \"\\x93NUMPY\\x01\\x00v\\x00{'desc\"... (text) instead of format "
              "version 1 at byte 0 (rule 6)");
    EXPECT_EQ(header_error_message("%%MatrixMarket matrix coordinate real general\n").rfind("not a .dbdf file", 0), 0u);
    EXPECT_EQ(header_error_message("\"quoted\"\\"),
              "not a .dbdf file: it starts with \"\\x22quoted\\x22\\x5C\" (text) instead of format version 1 at byte 0 "
              "(rule 6)");
    // Control bytes within the first four are no text: version 2 is an unsupported version, not a foreign file.
    const Bytes version_2 = Bytes().u8(2).u8(1).u64(2).u64(2).u8(10);
    const std::string_view version_2_text(reinterpret_cast<const char*>(version_2.vector().data()), version_2.size());
    EXPECT_EQ(header_error_message(version_2_text),
              "format version 2 is not supported (only version 1) at byte 0 (rule 6)");
}

// The daphne dialect's header names text the same way, as a violation of its own layout.
TEST(Header, TextIsNotADbdfFileInTheDaphneDialectEither) {
    const std::string_view csv = "a,b\n1,2\n";
    try {
        Reader::open_memory(std::as_bytes(std::span(csv.data(), csv.size())), Dialect::Daphne);
        FAIL() << "text was accepted";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Format);
        EXPECT_EQ(error.rule(), 0);
        EXPECT_EQ(error.offset(), 0u);
        EXPECT_STREQ(error.what(),
                     "not a .dbdf file: it starts with \"a,b\\x0A1,2\\x0A\" (text) instead of format "
                     "version 1 at byte 0 (daphne dialect)");
    }
}

TEST(Header, WritingRejectsDuplicateAndOverlongLabels) {
    ObjectHeader header;
    header.data_type = DataType::Frame;
    header.cols = 2;
    header.column_types = {ValueType::F64, ValueType::F64};
    header.labels = {"a", "a"};
    EXPECT_THROW(check_header_for_writing(header), Error);
    header.labels = {"a", std::string(65536, 'x')};
    EXPECT_THROW(check_header_for_writing(header), Error);
    header.labels = {"a", std::string(65535, 'x')};
    EXPECT_NO_THROW(check_header_for_writing(header));
}

}  // namespace
}  // namespace dbdf
