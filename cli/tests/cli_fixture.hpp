// What the CLI test files share: a scratch directory holding a small 7 x 5 CSR matrix, reading objects back through
// dbdf.h (so round trips compare values exactly), and .npy files written byte by byte.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dbdf.h"
#include "tool_run.hpp"

namespace cli_test {

// Reads a whole object as f64, row-major.
std::vector<double> read_f64(const std::string& path, dbdf_object_info_t* info_out = nullptr);

// The block types of an object's blocks, in file order.
std::vector<dbdf_block_type_t> block_types(const std::string& path);

// An .npy file of format version `major`.0 (1: 16-bit header length, 2 and 3: 32-bit), padded to 64 bytes.
std::string npy_bytes(const std::string& descr, const std::string& shape, bool fortran, const std::string& data,
                      int major = 1);

template <class T>
std::string raw(std::initializer_list<T> values) {
    std::string bytes;
    for (T value : values) bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    return bytes;
}

class CliTest : public ::testing::Test {
protected:
    CliTest();

    std::string path(const std::string& name) const { return scratch_.path(name); }
    void write_bytes(const std::string& name, const std::string& bytes) const { scratch_.write(name, bytes); }
    std::size_t files_in_directory() const { return scratch_.file_count(); }
    void write_matrix(const std::string& file, dbdf_data_type_t data_type);

    ScratchDirectory scratch_;
    std::vector<double> values_;  // the 7 x 5 matrix in matrix.dbdf: mostly zeros, fractions and large values
};

}  // namespace cli_test
