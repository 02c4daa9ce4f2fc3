// The small golden files written out byte by byte from the spec's layout tables, compared with the files in
// tests/vectors/ and with what dbdf::Writer produces for the same blocks given as they are (Encoding::AsGiven).
// Dense blocks of every value type are in golden_bytes_dense_test.cpp, CSR and multi-column COO blocks in
// golden_bytes_sparse_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "golden_bytes_support.hpp"

namespace dbdf::golden {
namespace {

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

// The frame header (per-column value types, then length-prefixed labels) followed by its blocks: a block may use
// another value type than its column (i32 in the i64 column, f32 in the f64 one) and may span columns of one type.
const Octets kFrameHeader = {
    0x01, 0x03,                                      // version 1, Frame
    0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 4
    0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
    0x08, 0x0a, 0x01, 0x01,                          // vt[0..3]: int64_t, double, uint8_t, uint8_t
    0x02, 0x00, 'i',  'd',                           // len[0] = 2, "id"
    0x0c, 0x00, 'p',  'r',  'i',  'x',  ' ',  0xc3, 0xa9, 'l', 'e', 'v', 0xc3, 0xa9,  // len[1] = 12, "prix élevé"
    0x00, 0x00,                                                                       // len[2] = 0, ""
    0x05, 0x00, 'c',  'o',  'u',  'n',  't',                                          // len[3] = 5, "count"
};

const Octets kFrameBlocks = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 0: rx = 0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 0 ("id")
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  //          #r = 2, #c = 1
    0x01, 0x08,                                      //          dense, int64_t
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,  //          -2^63
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          1
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 1: rx = 2
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 0 ("id")
    0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  //          #r = 2, #c = 1
    0x01, 0x07,                                      //          dense, int32_t (narrower than the column)
    0x02, 0x00, 0x00, 0x00,                          //          2
    0xfd, 0xff, 0xff, 0xff,                          //          -3
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 2: rx = 0
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 1 ("prix élevé")
    0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  //          #r = 4, #c = 1
    0x03, 0x09,                                      //          COO (single-column variant), float
    0x02, 0x00, 0x00, 0x00,                          //          #nzb = 2
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f,  //          rx = 1, v = 0.5f (no column index)
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc1,  //          rx = 3, v = -8.0f
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 3: rx = 0
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 2 ("" and "count", both uint8_t)
    0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  //          #r = 4, #c = 2
    0x01, 0x01,                                      //          dense, uint8_t
    0x01, 0x02, 0x03, 0x04, 0x00, 0xff, 0x09, 0x00,  //          rows: 1 2 / 3 4 / 0 255 / 9 0
};

TEST(GoldenBytes, FrameWithUtf8AndEmptyLabelsAndItsBlocks) {
    Octets expected = kFrameHeader;
    expected.insert(expected.end(), kFrameBlocks.begin(), kFrameBlocks.end());
    EXPECT_EQ(file_octets("frame_mixed.dbdf"), expected);
    const std::vector<ValueType> types{ValueType::I64, ValueType::F64, ValueType::U8, ValueType::U8};
    const std::vector<std::string> labels{"id", "prix \xc3\xa9lev\xc3\xa9", "", "count"};
    const std::int64_t ids[] = {std::numeric_limits<std::int64_t>::min(), 1};
    const std::int32_t more_ids[] = {2, -3};
    const std::uint32_t price_rows[] = {1, 3};
    const std::uint32_t price_cols[] = {0, 0};
    const float prices[] = {0.5f, -8.0f};
    const std::uint8_t counts[] = {1, 2, 3, 4, 0, 255, 9, 0};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_frame(4, types, labels);
                  w.add_dense({0, 0, 2, 1}, ValueType::I64, ids, 2, 0, kAsGiven);
                  w.add_dense({2, 0, 2, 1}, ValueType::I32, more_ids, 2, 0, kAsGiven);
                  w.add_coo({0, 1, 4, 1}, ValueType::F32, price_rows, price_cols, prices, 2, kAsGiven);
                  w.add_dense({0, 2, 4, 2}, ValueType::U8, counts, 8, 0, kAsGiven);
              }),
              expected);
    Octets without_rows = kFrameHeader;
    without_rows[2] = 0x00;  // the same header with 0 rows has no blocks
    EXPECT_EQ(written([&](Writer& w) { w.begin_frame(0, types, labels); }), without_rows);
}

}  // namespace
}  // namespace dbdf::golden
