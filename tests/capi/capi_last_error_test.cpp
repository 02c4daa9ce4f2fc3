// The last error's rule and byte offset as numbers (dbdf_last_error_rule, dbdf_last_error_offset): the values
// vectors.json gives for every invalid golden file, none for failures that are not about the data, cleared by the
// next call like the message, per thread, and left alone by the functions that return no status.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

using nlohmann::json;

std::vector<std::uint8_t> file_bytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    EXPECT_TRUE(file.good()) << path;
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::vector<json> invalid_vectors() {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/vectors.json");
    return json::parse(file)["invalid"].get<std::vector<json>>();
}

// Steps through `reader` until a call fails: every block, then (for "decode" files) every block decoded as f64.
dbdf_status_t first_failure(dbdf_reader_t* reader, const std::string& fails_on) {
    dbdf_block_info_t info{};
    dbdf_status_t status = DBDF_OK;
    while ((status = dbdf_reader_next_block(reader, &info)) == DBDF_OK) {
        if (fails_on != "decode") continue;
        std::vector<double> cells(static_cast<std::size_t>(info.rows * info.cols));
        status = dbdf_reader_block_decode_dense(reader, DBDF_VALUE_F64, cells.data(), cells.size(), 0);
        if (status != DBDF_OK) return status;
    }
    return status;
}

void expect_no_details() {
    EXPECT_EQ(dbdf_last_error_rule(), 0);
    EXPECT_EQ(dbdf_last_error_offset(), DBDF_NO_OFFSET);
}

class CapiLastErrorOfInvalidVector : public ::testing::TestWithParam<json> {};

TEST_P(CapiLastErrorOfInvalidVector, GivesTheRuleAndOffsetOfVectorsJson) {
    const json& vector = GetParam();
    const std::vector<std::uint8_t> bytes =
        file_bytes(std::string(DBDF_VECTORS_DIR) + "/" + vector["file"].get<std::string>());
    const std::string fails_on = vector["fails_on"].get<std::string>();
    dbdf_reader_t* raw = nullptr;
    dbdf_status_t status = dbdf_reader_open_memory(bytes.data(), bytes.size(), &raw);
    ReaderHandle reader(raw);
    if (fails_on != "open") {
        ASSERT_OK(status);
        status = first_failure(reader.get(), fails_on);
    }
    EXPECT_STREQ(dbdf_status_name(status), vector["status"].get<std::string>().c_str()) << dbdf_last_error_message();
    EXPECT_EQ(dbdf_last_error_rule(), vector["rule"].get<int>()) << dbdf_last_error_message();
    EXPECT_EQ(dbdf_last_error_offset(), vector["offset"].get<std::uint64_t>()) << dbdf_last_error_message();
}

std::string vector_name(const ::testing::TestParamInfo<json>& info) {
    std::string name = info.param["file"].get<std::string>();
    name = name.substr(name.rfind('/') + 1);
    name = name.substr(0, name.rfind('.'));
    return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, CapiLastErrorOfInvalidVector, ::testing::ValuesIn(invalid_vectors()), vector_name);

// csr_unsorted_columns.dbdf breaks rule 12 at byte 69 when its block is decoded.
void fail_with_rule_12_at_byte_69(const std::vector<std::uint8_t>& bytes) {
    ReaderHandle reader = memory_reader(bytes);
    ASSERT_EQ(first_failure(reader.get(), "decode"), DBDF_ERR_FORMAT);
    ASSERT_EQ(dbdf_last_error_rule(), 12);
    ASSERT_EQ(dbdf_last_error_offset(), 69u);
}

TEST(CapiLastError, NothingBeforeAnyFailure) {
    std::thread fresh([] {
        expect_no_details();
        EXPECT_STREQ(dbdf_last_error_message(), "");
    });
    fresh.join();
}

TEST(CapiLastError, ASuccessfulCallClearsRuleAndOffset) {
    const auto bytes = file_bytes(std::string(DBDF_VECTORS_DIR) + "/invalid/csr_unsorted_columns.dbdf");
    fail_with_rule_12_at_byte_69(bytes);
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    ASSERT_OK(dbdf_value_type_from_name("u8", &type));
    expect_no_details();
    EXPECT_STREQ(dbdf_last_error_message(), "");
}

TEST(CapiLastError, AFailureOfAnotherKindHasNoRuleAndNoOffset) {
    const auto bytes = file_bytes(std::string(DBDF_VECTORS_DIR) + "/invalid/csr_unsorted_columns.dbdf");
    fail_with_rule_12_at_byte_69(bytes);
    dbdf_reader_t* reader = nullptr;
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_reader_open_file("/nonexistent/file.dbdf", &reader));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("/nonexistent/file.dbdf"), std::string::npos);
    expect_no_details();

    fail_with_rule_12_at_byte_69(bytes);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_reader_open_memory(bytes.data(), bytes.size(), nullptr));
    expect_no_details();

    // The writer refuses a repeated label as an argument: its message cites rule 16, the number stays 0 (dbdf.h).
    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I32, DBDF_VALUE_F32};
    const char* labels[] = {"x", "x"};
    const size_t lengths[] = {1, 1};
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_frame(writer.get(), 3, 2, types, labels, lengths));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("rule 16"), std::string::npos);
    expect_no_details();
}

TEST(CapiLastError, AValueTheWriterCannotStoreNamesRule8WithoutAnOffset) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 1, 1));
    const std::int32_t too_large[] = {300};
    EXPECT_STATUS(DBDF_ERR_RANGE,
                  dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_I32, too_large, 1, 0, nullptr));
    EXPECT_EQ(dbdf_last_error_rule(), 8) << dbdf_last_error_message();
    EXPECT_EQ(dbdf_last_error_offset(), DBDF_NO_OFFSET) << "nothing is read: no input to point into";
}

TEST(CapiLastError, FunctionsWithoutStatusLeaveItAlone) {
    const auto bytes = file_bytes(std::string(DBDF_VECTORS_DIR) + "/invalid/csr_unsorted_columns.dbdf");
    fail_with_rule_12_at_byte_69(bytes);
    const std::string message = dbdf_last_error_message();
    EXPECT_STREQ(dbdf_status_name(DBDF_ERR_IO), "io");
    EXPECT_NE(dbdf_version(), 0u);
    dbdf_write_options_t options;
    dbdf_write_options_init(&options);
    dbdf_reader_free(nullptr);
    EXPECT_EQ(dbdf_last_error_rule(), 12);
    EXPECT_EQ(dbdf_last_error_offset(), 69u);
    EXPECT_EQ(dbdf_last_error_message(), message);
}

TEST(CapiLastError, IsPerThread) {
    const auto bytes = file_bytes(std::string(DBDF_VECTORS_DIR) + "/invalid/csr_unsorted_columns.dbdf");
    fail_with_rule_12_at_byte_69(bytes);
    const std::vector<std::uint8_t> header_only = {1, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10};
    int other_rule = -1;
    std::uint64_t other_offset = 0;
    std::thread other([&] {
        dbdf_reader_t* reader = nullptr;
        EXPECT_EQ(dbdf_reader_open_memory(header_only.data(), header_only.size(), &reader), DBDF_ERR_FORMAT);
        other_rule = dbdf_last_error_rule();
        other_offset = dbdf_last_error_offset();
    });
    other.join();
    EXPECT_EQ(other_rule, 0) << "data type 9 breaks the spec's layout, no numbered rule";
    EXPECT_EQ(other_offset, 1u);
    EXPECT_EQ(dbdf_last_error_rule(), 12);
    EXPECT_EQ(dbdf_last_error_offset(), 69u);
}

// Text where a .dbdf file belongs (a CSV, a .npy file) is named as such, with rule 6 at byte 0.
TEST(CapiLastError, TextIsNotADbdfFile) {
    const std::string csv = "id,price\n1,2.5\n2,3.25\n";
    const std::string npy("\x93NUMPY\x01\x00v\x00{'descr': '<f8'", 25);
    for (const std::string& text : {csv, npy, std::string("x")}) {
        SCOPED_TRACE(text);
        dbdf_reader_t* reader = nullptr;
        EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_reader_open_memory(text.data(), text.size(), &reader));
        EXPECT_EQ(dbdf_last_error_rule(), 6);
        EXPECT_EQ(dbdf_last_error_offset(), 0u);
        EXPECT_EQ(std::string(dbdf_last_error_message()).rfind("not a .dbdf file: it starts with \"", 0), 0u)
            << dbdf_last_error_message();
    }
    dbdf_reader_t* reader = nullptr;
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_reader_open_memory(csv.data(), csv.size(), &reader));
    EXPECT_STREQ(dbdf_last_error_message(),
                 "not a .dbdf file: it starts with \"id,price\\x0A1,2.5\\x0A2\"... (text) instead of format version 1 "
                 "at byte 0 (rule 6)");
}

}  // namespace
}  // namespace dbdf_test
