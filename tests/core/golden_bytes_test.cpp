// The small golden files written out byte by byte from the spec's layout tables, compared with the files in
// tests/vectors/ and with what dbdf::Writer produces for the same blocks given as they are (Encoding::AsGiven).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using Octets = std::vector<std::uint8_t>;

Octets file_octets(const std::string& name) {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/" + name, std::ios::binary);
    return Octets(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

Octets written(const std::function<void(Writer&)>& build) {
    const auto bytes = testing::write_to_memory(build);
    Octets octets(bytes.size());
    if (!bytes.empty()) std::memcpy(octets.data(), bytes.data(), bytes.size());
    return octets;
}

const WriteOptions kAsGiven{Encoding::AsGiven, 0, 0};

TEST(GoldenBytes, OneByOneU64) {
    const Octets expected = {
        0x01,                                            // version 1
        0x01,                                            // dt: DenseMatrix
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 1 (uint64)
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 1 (uint64)
        0x04,                                            // vt: uint64_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x01, 0x00, 0x00, 0x00,                          // block #r = 1 (uint32)
        0x01, 0x00, 0x00, 0x00,                          // block #c = 1 (uint32)
        0x01,                                            // bt: dense
        0x04,                                            // block vt: uint64_t
        0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // v[0, 0] = 42
    };
    EXPECT_EQ(file_octets("one_by_one.dbdf"), expected);
    const std::uint64_t value = 42;
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::U64, 1, 1);
                  w.add_dense({0, 0, 1, 1}, ValueType::U64, &value, 1, 0, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, DenseU8) {
    const Octets expected = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 2
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 3
        0x01,                                            // vt: uint8_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // block #r = 2, #c = 3
        0x01, 0x01,                                      // bt: dense, vt: uint8_t
        0x00, 0x01, 0xff,                                // row 0: 0 1 255
        0x07, 0x80, 0x02,                                // row 1: 7 128 2
    };
    EXPECT_EQ(file_octets("dense_u8.dbdf"), expected);
    const std::uint8_t values[] = {0, 1, 255, 7, 128, 2};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::U8, 2, 3);
                  w.add_dense({0, 0, 2, 3}, ValueType::U8, values, 6, 0, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, DenseI16) {
    const Octets expected = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 2
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 3
        0x06,                                            // vt: int16_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // block #r = 2, #c = 3
        0x01, 0x06,                                      // bt: dense, vt: int16_t
        0x00, 0x80, 0xff, 0x7f, 0x00, 0x00,              // row 0: -32768 32767 0
        0xff, 0xff, 0x01, 0x00, 0x05, 0x00,              // row 1: -1 1 5
    };
    EXPECT_EQ(file_octets("dense_i16.dbdf"), expected);
    const std::int16_t values[] = {-32768, 32767, 0, -1, 1, 5};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::I16, 2, 3);
                  w.add_dense({0, 0, 2, 3}, ValueType::I16, values, 6, 0, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, CsrU8WithEmptyRowAndExplicitZero) {
    const Octets expected = {
        0x01, 0x02,                                      // version 1, CSRMatrix
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 3
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
        0x01,                                            // vt: uint8_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,  // block #r = 3, #c = 4
        0x02, 0x01,                                      // bt: sparse (CSR), vt: uint8_t
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #nzb = 4
        0x02, 0x00, 0x00, 0x00,                          // row 0: #nzr = 2
        0x01, 0x00, 0x00, 0x00, 0xff,                    //   cx = 1, v = 255
        0x03, 0x00, 0x00, 0x00, 0x01,                    //   cx = 3, v = 1
        0x00, 0x00, 0x00, 0x00,                          // row 1: #nzr = 0
        0x02, 0x00, 0x00, 0x00,                          // row 2: #nzr = 2
        0x00, 0x00, 0x00, 0x00, 0x00,                    //   cx = 0, v = 0 (explicit zero)
        0x02, 0x00, 0x00, 0x00, 0x02,                    //   cx = 2, v = 2
    };
    EXPECT_EQ(file_octets("csr_u8.dbdf"), expected);
    const std::uint64_t row_offsets[] = {0, 2, 2, 4};
    const std::uint32_t cols[] = {1, 3, 0, 2};
    const std::uint8_t values[] = {255, 1, 0, 2};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::CsrMatrix, ValueType::U8, 3, 4);
                  w.add_csr({0, 0, 3, 4}, ValueType::U8, row_offsets, cols, values, 4, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, CooSingleColumnVariant) {
    const Octets expected = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 5
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 1
        0x06,                                            // vt: int16_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // block #r = 5, #c = 1
        0x03, 0x06,                                      // bt: ultra-sparse (COO), vt: int16_t
        0x02, 0x00, 0x00, 0x00,                          // #nzb = 2 (uint32)
        0x01, 0x00, 0x00, 0x00, 0xd4, 0xfe,              // rx = 1, v = -300 (no column index)
        0x04, 0x00, 0x00, 0x00, 0x07, 0x00,              // rx = 4, v = 7
    };
    EXPECT_EQ(file_octets("coo_single_column.dbdf"), expected);
    const std::uint32_t rows[] = {1, 4};
    const std::uint32_t cols[] = {0, 0};
    const std::int16_t values[] = {-300, 7};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::I16, 5, 1);
                  w.add_coo({0, 0, 5, 1}, ValueType::I16, rows, cols, values, 2, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, CooMultiColumnVariant) {
    const Octets expected = {
        0x01, 0x02,                                      // version 1, CSRMatrix
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 3
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
        0x09,                                            // vt: float
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,  // block #r = 3, #c = 4
        0x03, 0x09,                                      // bt: COO, vt: float
        0x03, 0x00, 0x00, 0x00,                          // #nzb = 3
        0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // rx = 0, cx = 3
        0x00, 0x00, 0xa0, 0x3f,                          //   v = 1.25f
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 2, cx = 0
        0x00, 0x00, 0x00, 0xc0,                          //   v = -2.0f
        0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // rx = 2, cx = 1
        0x00, 0x00, 0x00, 0x3f,                          //   v = 0.5f
    };
    EXPECT_EQ(file_octets("coo_multi_column.dbdf"), expected);
    const std::uint32_t rows[] = {0, 2, 2};
    const std::uint32_t cols[] = {3, 0, 1};
    const float values[] = {1.25f, -2.0f, 0.5f};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::CsrMatrix, ValueType::F32, 3, 4);
                  w.add_coo({0, 0, 3, 4}, ValueType::F32, rows, cols, values, 3, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, EmptyBlock) {
    const Octets expected = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 2
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 3
        0x0a,                                            // vt: double
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // cx = 0
        0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // block #r = 2, #c = 3
        0x00,                                            // bt: empty (no further fields)
    };
    EXPECT_EQ(file_octets("empty_block.dbdf"), expected);
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 2, 3);
                  w.add_empty({0, 0, 2, 3});
              }),
              expected);
}

TEST(GoldenBytes, ZeroSizedObjectsHaveNoBlocks) {
    const Octets zero_by_zero = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 0
        0x0a,                                            // vt: double; no body (rule 4)
    };
    EXPECT_EQ(file_octets("zero_by_zero.dbdf"), zero_by_zero);
    EXPECT_EQ(written([&](Writer& w) { w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 0, 0); }), zero_by_zero);
    const Octets zero_by_five = {
        0x01, 0x02,                                      // version 1, CSRMatrix
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 0
        0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 5
        0x07,                                            // vt: int32_t
    };
    EXPECT_EQ(file_octets("zero_by_five.dbdf"), zero_by_five);
    EXPECT_EQ(written([&](Writer& w) { w.begin_matrix(DataType::CsrMatrix, ValueType::I32, 0, 5); }), zero_by_five);
}

TEST(GoldenBytes, CsrMatrixOfTwoDenseBlocks) {
    const Octets expected = {
        0x01, 0x02,                                      // version 1, CSRMatrix
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 2
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
        0x07,                                            // vt: int32_t
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 0: rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 0
        0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  //          #r = 2, #c = 2
        0x01, 0x07,                                      //          dense, int32_t
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,  //          -1, 0
        0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x7f,  //          0, 2147483647
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 1: rx = 0
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 2
        0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  //          #r = 2, #c = 2
        0x01, 0x01,                                      //          dense, uint8_t (narrower than the object)
        0x00, 0xff, 0x03, 0x00,                          //          0, 255, 3, 0
    };
    EXPECT_EQ(file_octets("csr_matrix_dense_blocks.dbdf"), expected);
    const std::int32_t left[] = {-1, 0, 0, 2147483647};
    const std::uint8_t right[] = {0, 255, 3, 0};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::CsrMatrix, ValueType::I32, 2, 4);
                  w.add_dense({0, 0, 2, 2}, ValueType::I32, left, 4, 0, kAsGiven);
                  w.add_dense({0, 2, 2, 2}, ValueType::U8, right, 4, 0, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytes, FrameHeaderWithUtf8AndEmptyLabels) {
    const Octets file = file_octets("frame_mixed.dbdf");
    const Octets header = {
        0x01, 0x03,                                      // version 1, Frame
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 4
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
        0x08, 0x0a, 0x01, 0x01,                          // vt[0..3]: int64_t, double, uint8_t, uint8_t
        0x02, 0x00, 'i', 'd',                            // len[0] = 2, "id"
        0x0c, 0x00, 'p', 'r', 'i', 'x', ' ', 0xc3, 0xa9, 'l', 'e', 'v', 0xc3, 0xa9,  // len[1] = 12, "prix élevé"
        0x00, 0x00,                                      // len[2] = 0, ""
        0x05, 0x00, 'c', 'o', 'u', 'n', 't',             // len[3] = 5, "count"
    };
    ASSERT_GE(file.size(), header.size());
    EXPECT_EQ(Octets(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(header.size())), header);
    const Octets begun = written([&](Writer& w) {
        w.begin_frame(0, {ValueType::I64, ValueType::F64, ValueType::U8, ValueType::U8},
                      {"id", "prix \xc3\xa9lev\xc3\xa9", "", "count"});
    });
    Octets expected_empty = header;
    expected_empty[2] = 0x00;  // the frame written here has 0 rows
    EXPECT_EQ(begun, expected_empty);
}

}  // namespace
}  // namespace dbdf
