#include "cli_fixture.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

namespace cli_test {
namespace {

std::string hex(const std::string& bytes, std::size_t offset, std::size_t width) {
    std::string text;
    // Little-endian values: the most significant byte first reads like the number's bit pattern.
    for (std::size_t i = width; i-- > 0;) {
        char digits[3];
        std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(bytes[offset + i]));
        text += digits;
    }
    return text;
}

}  // namespace

dbdf_object_info_t object_info_of(const std::string& path) {
    dbdf_object_info_t info{};
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << path << ": " << dbdf_last_error_message();
    if (reader != nullptr) dbdf_reader_object_info(reader, &info);
    dbdf_reader_free(reader);
    return info;
}

std::string read_bits(const std::string& path, dbdf_value_type_t type, dbdf_object_info_t* info_out,
                      dbdf_dialect_t dialect) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file_with_options(path.c_str(), &options, &reader), DBDF_OK)
        << path << ": " << dbdf_last_error_message();
    if (reader == nullptr) return {};
    dbdf_object_info_t info{};
    dbdf_reader_object_info(reader, &info);
    const std::size_t count = info.rows * info.cols;
    std::string bytes(count * dbdf_value_type_size(type), '\0');
    EXPECT_EQ(dbdf_reader_read_dense(reader, type, bytes.data(), count, 0), DBDF_OK)
        << path << ": " << dbdf_last_error_message();
    if (info_out != nullptr) *info_out = info;
    dbdf_reader_free(reader);
    return bytes;
}

::testing::AssertionResult same_bits(const std::string& expected, const std::string& actual, std::size_t width) {
    if (expected.size() != actual.size()) {
        return ::testing::AssertionFailure()
               << "sizes differ: " << expected.size() << " and " << actual.size() << " bytes";
    }
    if (std::memcmp(expected.data(), actual.data(), expected.size()) == 0) return ::testing::AssertionSuccess();
    std::size_t value = 0;
    while (std::memcmp(expected.data() + value * width, actual.data() + value * width, width) == 0) ++value;
    return ::testing::AssertionFailure() << "value " << value << " differs: expected bits "
                                         << hex(expected, value * width, width) << ", got "
                                         << hex(actual, value * width, width);
}

void write_raw_matrix(const std::string& path, dbdf_data_type_t data_type, dbdf_value_type_t type, std::uint64_t rows,
                      std::uint64_t cols, const std::string& values, std::uint32_t block_rows,
                      std::uint32_t block_cols) {
    ASSERT_EQ(values.size(), rows * cols * dbdf_value_type_size(type));
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(path.c_str(), &writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = block_rows;
    options.block_cols = block_cols;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer, data_type, type, rows, cols), DBDF_OK) << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_write_dense(writer, type, values.data(), rows * cols, 0, &options), DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer), DBDF_OK) << dbdf_last_error_message();
    dbdf_writer_free(writer);
}

std::vector<double> read_f64(const std::string& path, dbdf_object_info_t* info_out) {
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << path << ": " << dbdf_last_error_message();
    if (reader == nullptr) return {};
    dbdf_object_info_t info{};
    dbdf_reader_object_info(reader, &info);
    std::vector<double> values(info.rows * info.cols);
    for (std::uint64_t c = 0; c < info.cols; ++c) {
        std::vector<double> column(info.rows);
        EXPECT_EQ(dbdf_reader_read_column(reader, c, DBDF_VALUE_F64, column.data(), column.size()), DBDF_OK)
            << dbdf_last_error_message();
        for (std::uint64_t r = 0; r < info.rows; ++r) values[r * info.cols + c] = column[r];
    }
    if (info_out != nullptr) *info_out = info;
    dbdf_reader_free(reader);
    return values;
}

std::vector<dbdf_block_type_t> block_types(const std::string& path) {
    std::vector<dbdf_block_type_t> types;
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file(path.c_str(), &reader), DBDF_OK) << path << ": " << dbdf_last_error_message();
    if (reader == nullptr) return types;
    dbdf_block_info_t block{};
    while (dbdf_reader_next_block(reader, &block) == DBDF_OK) types.push_back(block.block_type);
    dbdf_reader_free(reader);
    return types;
}

std::string npy_with_dictionary(std::string dictionary, const std::string& data, int major) {
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + dictionary.size() + 1) % 64 != 0) dictionary += ' ';
    dictionary += '\n';
    std::string bytes("\x93NUMPY", 6);
    bytes += static_cast<char>(major);
    bytes += '\0';
    for (std::size_t i = 0; i < prefix - 8; ++i) bytes += static_cast<char>((dictionary.size() >> (8 * i)) & 0xFF);
    return bytes + dictionary + data;
}

std::string npy_bytes(const std::string& descr, const std::string& shape, bool fortran, const std::string& data,
                      int major) {
    return npy_with_dictionary(
        "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }",
        data, major);
}

CliTest::CliTest() : scratch_("dbdf_cli_test") {
    values_.assign(35, 0.0);
    values_[1] = 0.5;
    values_[7] = -3.0;
    values_[12] = -0.0;
    values_[18] = 1e300;
    values_[23] = std::numeric_limits<double>::quiet_NaN();
    values_[34] = 2.25;
    write_matrix(path("matrix.dbdf"), DBDF_DATA_CSR);
}

void CliTest::write_matrix(const std::string& file, dbdf_data_type_t data_type) {
    dbdf_writer_t* writer = nullptr;
    ASSERT_EQ(dbdf_writer_open_file(file.c_str(), &writer), DBDF_OK);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 3;
    options.block_cols = 2;
    ASSERT_EQ(dbdf_writer_begin_matrix(writer, data_type, DBDF_VALUE_F64, 7, 5), DBDF_OK);
    ASSERT_EQ(dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values_.data(), values_.size(), 0, &options), DBDF_OK);
    ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK);
    dbdf_writer_free(writer);
}

}  // namespace cli_test

namespace cli_test {

::testing::AssertionResult CliTest::holds_values(const std::string& file) const {
    const std::string expected(reinterpret_cast<const char*>(values_.data()), values_.size() * sizeof(double));
    return same_bits(expected, read_bits(file, DBDF_VALUE_F64), sizeof(double)) << " in " << file;
}

}  // namespace cli_test
