#include "cli_fixture.hpp"

namespace cli_test {

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

std::string npy_bytes(const std::string& descr, const std::string& shape, bool fortran, const std::string& data,
                      int major) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + dict.size() + 1) % 64 != 0) dict += ' ';
    dict += '\n';
    std::string bytes("\x93NUMPY", 6);
    bytes += static_cast<char>(major);
    bytes += '\0';
    for (std::size_t i = 0; i < prefix - 8; ++i) bytes += static_cast<char>((dict.size() >> (8 * i)) & 0xFF);
    return bytes + dict + data;
}

CliTest::CliTest() : scratch_("dbdf_cli_test") {
    values_.assign(35, 0.0);
    values_[1] = 0.5;
    values_[7] = -3.0;
    values_[18] = 1e300;
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
