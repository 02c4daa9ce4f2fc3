// What the CLI test files share: a scratch directory holding a small 7 x 5 CSR matrix, reading objects back through
// dbdf.h (so round trips compare values exactly, bit for bit where -0.0 and NaN matter), and .npy files written byte
// by byte.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dbdf.h"
#include "tool_run.hpp"

namespace cli_test {

// Reads a whole object as f64, row-major. Compared with ==, -0.0 equals 0.0 and NaN equals nothing: round trips of
// such values compare read_bits instead.
std::vector<double> read_f64(const std::string& path, dbdf_object_info_t* info_out = nullptr);

// The object header's information of the file at `path`.
dbdf_object_info_t object_info_of(const std::string& path);

// Reads a whole object in `type` (converted exactly by the library), row-major, as the values' raw bytes.
std::string read_bits(const std::string& path, dbdf_value_type_t type, dbdf_object_info_t* info_out = nullptr,
                      dbdf_dialect_t dialect = DBDF_DIALECT_SPEC);

// Compares two arrays of `width`-byte values bit for bit (memcmp); a failure names the first value that differs and
// shows both values' bytes.
::testing::AssertionResult same_bits(const std::string& expected, const std::string& actual, std::size_t width);

// Writes a rows x cols matrix of `type` from row-major raw values, in blocks of block_rows x block_cols (0:
// automatic), encoded automatically (which keeps every value's bits).
void write_raw_matrix(const std::string& path, dbdf_data_type_t data_type, dbdf_value_type_t type, std::uint64_t rows,
                      std::uint64_t cols, const std::string& values, std::uint32_t block_rows = 0,
                      std::uint32_t block_cols = 0);

// The block types of an object's blocks, in file order.
std::vector<dbdf_block_type_t> block_types(const std::string& path);

// An .npy file whose header is exactly `dictionary` padded as NumPy pads it (spaces, then a newline, to a multiple of
// 64 bytes), in format version `major`.0 (1: 16-bit header length, 2 and 3: 32-bit), followed by `data`.
std::string npy_with_dictionary(std::string dictionary, const std::string& data, int major = 1);

// An .npy file of format version `major`.0 with the dictionary NumPy writes for descr, fortran_order and shape.
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
    // Whether the object at `file` holds values_, bit for bit, read as f64.
    ::testing::AssertionResult holds_values(const std::string& file) const;

    ScratchDirectory scratch_;
    // The 7 x 5 matrix in matrix.dbdf: mostly zeros, fractions, large values, -0.0 and a NaN (which == comparisons
    // would miss: holds_values compares bits).
    std::vector<double> values_;
};

}  // namespace cli_test
