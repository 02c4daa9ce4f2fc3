// Object headers: byte layout for matrices and frames, and rejection of malformed headers.
#include <gtest/gtest.h>

#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
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
