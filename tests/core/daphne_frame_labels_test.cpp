// Frame labels in the daphne dialect. DAPHNE's frame reader reads each label's bytes over a std::string object of
// 32 bytes (libstdc++), so a longer label overflows its heap; the daphne writer refuses such labels before writing
// anything, and writes labels up to that length as their text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

std::string refusal_of_labels(Dialect dialect, const std::vector<std::string>& labels) {
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{dialect, {}});
    try {
        writer.begin_frame(1, std::vector<ValueType>(labels.size(), ValueType::F64), labels);
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::InvalidArgument);
        EXPECT_EQ(error.rule(), 0);
        EXPECT_FALSE(writer.begun());
        EXPECT_EQ(writer.bytes_written(), 0u);
        return error.what();
    }
    return "";
}

TEST(DaphneFrameLabels, ALabelOfThirtyTwoBytesIsWrittenAsItsText) {
    const std::string longest(32, 'x');
    const double value = 1.5;
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    writer.begin_frame(1, {ValueType::F64}, {longest});
    writer.write_column(0, ValueType::F64, &value, 1, {});
    writer.finish();
    Bytes expected;
    expected.u8(1).u8(3).u64(1).u64(1).u8(7).u16(32).text(longest).u64(0).u64(0).f64(1.5);
    EXPECT_EQ(static_cast<MemorySink&>(writer.sink()).bytes(), expected.vector());
}

TEST(DaphneFrameLabels, ALongerLabelIsRefusedNamingTheColumnAndTheLimit) {
    const std::string message = refusal_of_labels(Dialect::Daphne, {"id", "abcdefghijklmnopqrstuvwxyz0123456"});
    EXPECT_EQ(message,
              "frame column 1 label 'abcdefghijklmnopqrst\u2026' is 33 bytes; DAPHNE's reader copies each label's "
              "bytes over a 32-byte std::string object, so a longer label overflows its heap: the daphne dialect "
              "takes labels of at most 32 bytes");
}

TEST(DaphneFrameLabels, TheExcerptShowsBytesThatAreNotPrintableAsEscapes) {
    std::string label = "tab\there\\";
    label += '\xc3';
    label += '\xa9';
    label += std::string(40, 'y');
    const std::string message = refusal_of_labels(Dialect::Daphne, {label});
    EXPECT_EQ(message.substr(0, message.find(" is ")),
              "frame column 0 label 'tab\\x09here\\x5c\\xc3\\xa9yyyyyyyyy\u2026'");
    EXPECT_NE(message.find("is 51 bytes"), std::string::npos) << message;
}

TEST(DaphneFrameLabels, TheWriterStaysUsableAfterTheRefusal) {
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{Dialect::Daphne, {}});
    EXPECT_THROW(writer.begin_frame(0, {ValueType::F64}, {std::string(100, 'l')}), Error);
    writer.begin_frame(0, {ValueType::F64}, {"short"});
    writer.finish();
    Reader reader = Reader::open_memory(static_cast<MemorySink&>(writer.sink()).bytes(), Dialect::Daphne);
    EXPECT_EQ(reader.header().cols, 1u);
}

TEST(DaphneFrameLabels, TheSpecDialectHasNoSuchLimit) {
    EXPECT_EQ(refusal_of_labels(Dialect::Spec, {std::string(33, 'a'), std::string(65535, 'b')}), "");
}

}  // namespace
}  // namespace dbdf
