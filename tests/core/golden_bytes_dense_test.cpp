// The dense golden files of all ten value types (dense_<type>.dbdf: a 2 x 3 DenseMatrix in one dense block holding
// the type's extremes) written out byte by byte from the spec's layout tables, compared with the committed files
// and with what dbdf::Writer produces for the same values.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <string>

#include "golden_bytes_support.hpp"

namespace dbdf::golden {
namespace {

// Object header and block record of a 2 x 3 DenseMatrix whose one dense block has the object's value type, then
// the six values' bytes, row by row.
Octets dense_2x3_file(std::uint8_t value_type, const Octets& values) {
    Octets bytes = {
        0x01,       0x01,                                            // version 1, DenseMatrix
        0x02,       0x00,       0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 2 (uint64)
        0x03,       0x00,       0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 3 (uint64)
        value_type,                                                  // vt
        0x00,       0x00,       0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00,       0x00,       0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x02,       0x00,       0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // block #r = 2, #c = 3 (uint32)
        0x01,       value_type,                                      // bt: dense, block vt
    };
    // Appended one by one: GCC 12 warns wrongly (-Warray-bounds) about a range insert right after the list.
    for (const std::uint8_t value : values) bytes.push_back(value);
    return bytes;
}

// `expected` is the file's content, and the writer produces it from `values` (row-major).
template <class T>
void expect_golden_dense(const std::string& file, const Octets& expected, const T (&values)[6]) {
    EXPECT_EQ(file_octets(file), expected) << file;
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, value_type_v<T>, 2, 3);
                  w.add_dense({0, 0, 2, 3}, value_type_v<T>, values, 6, 0, kAsGiven);
              }),
              expected)
        << file;
}

TEST(GoldenBytesDense, U8) {
    const Octets expected = dense_2x3_file(0x01, {
                                                     0x00, 0x01, 0xff,  // row 0: 0 1 255
                                                     0x07, 0x80, 0x02,  // row 1: 7 128 2
                                                 });
    const std::uint8_t values[] = {0, 1, 255, 7, 128, 2};
    expect_golden_dense("dense_u8.dbdf", expected, values);
}

TEST(GoldenBytesDense, U16) {
    const Octets expected = dense_2x3_file(0x02, {
                                                     0x00, 0x00, 0xff, 0xff, 0x01, 0x00,  // row 0: 0 65535 1
                                                     0x00, 0x01, 0x02, 0x00, 0x03, 0x00,  // row 1: 256 2 3
                                                 });
    const std::uint16_t values[] = {0, 65535, 1, 256, 2, 3};
    expect_golden_dense("dense_u16.dbdf", expected, values);
}

TEST(GoldenBytesDense, U32) {
    const Octets expected = dense_2x3_file(
        0x03, {
                  0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00,  // row 0: 0 4294967295 1
                  0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // row 1: 65536 2 3
              });
    const std::uint32_t values[] = {0, 4294967295u, 1, 65536, 2, 3};
    expect_golden_dense("dense_u32.dbdf", expected, values);
}

TEST(GoldenBytesDense, U64) {
    const Octets expected =
        dense_2x3_file(0x04, {
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 0
                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // 18446744073709551615
                                 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1
                                 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // 4294967296
                                 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 2
                                 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 3
                             });
    const std::uint64_t values[] = {0, std::numeric_limits<std::uint64_t>::max(), 1, std::uint64_t{1} << 32, 2, 3};
    expect_golden_dense("dense_u64.dbdf", expected, values);
}

TEST(GoldenBytesDense, I8) {
    const Octets expected = dense_2x3_file(0x05, {
                                                     0x80, 0x7f, 0x00,  // row 0: -128 127 0
                                                     0xff, 0x01, 0x05,  // row 1: -1 1 5
                                                 });
    const std::int8_t values[] = {-128, 127, 0, -1, 1, 5};
    expect_golden_dense("dense_i8.dbdf", expected, values);
}

TEST(GoldenBytesDense, I16) {
    const Octets expected = dense_2x3_file(0x06, {
                                                     0x00, 0x80, 0xff, 0x7f, 0x00, 0x00,  // row 0: -32768 32767 0
                                                     0xff, 0xff, 0x01, 0x00, 0x05, 0x00,  // row 1: -1 1 5
                                                 });
    const std::int16_t values[] = {-32768, 32767, 0, -1, 1, 5};
    expect_golden_dense("dense_i16.dbdf", expected, values);
}

TEST(GoldenBytesDense, I32) {
    const Octets expected = dense_2x3_file(
        0x07, {
                  0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x00, 0x00, 0x00,  // row 0: -2^31 2^31-1 0
                  0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,  // row 1: -1 1 5
              });
    const std::int32_t values[] = {std::numeric_limits<std::int32_t>::min(), 2147483647, 0, -1, 1, 5};
    expect_golden_dense("dense_i32.dbdf", expected, values);
}

TEST(GoldenBytesDense, I64) {
    const Octets expected = dense_2x3_file(0x08, {
                                                     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,  // -2^63
                                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,  // 2^63 - 1
                                                     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 0
                                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // -1
                                                     0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1
                                                     0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 5
                                                 });
    const std::int64_t values[] = {
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), 0, -1, 1, 5};
    expect_golden_dense("dense_i64.dbdf", expected, values);
}

TEST(GoldenBytesDense, F32) {
    const Octets expected = dense_2x3_file(0x09, {
                                                     0x00, 0x00, 0x00, 0x00,  // 0.0f
                                                     0x00, 0x00, 0x00, 0x80,  // -0.0f
                                                     0x00, 0x00, 0x80, 0x7f,  // +infinity
                                                     0x00, 0x00, 0x80, 0xff,  // -infinity
                                                     0x23, 0x01, 0xc0, 0x7f,  // quiet NaN with payload 0x123
                                                     0x01, 0x00, 0x00, 0x00,  // smallest subnormal
                                                 });
    const float values[] = {0.0f,
                            std::bit_cast<float>(0x80000000u),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::bit_cast<float>(0x7fc00123u),
                            std::bit_cast<float>(0x00000001u)};
    expect_golden_dense("dense_f32.dbdf", expected, values);
}

TEST(GoldenBytesDense, F64) {
    const Octets expected =
        dense_2x3_file(0x0a, {
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,  // 1.5
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,  // -0.0
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f,  // +infinity
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0xff,  // -infinity
                                 0x23, 0x01, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f,  // quiet NaN with payload 0x123
                                 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // smallest subnormal
                             });
    const double values[] = {1.5,
                             std::bit_cast<double>(0x8000000000000000ull),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::bit_cast<double>(0x7ff8000000000123ull),
                             std::bit_cast<double>(0x0000000000000001ull)};
    expect_golden_dense("dense_f64.dbdf", expected, values);
}

}  // namespace
}  // namespace dbdf::golden
