// The sparse golden files written out byte by byte from the spec's layout tables, compared with the committed
// files and with what dbdf::Writer produces for the same blocks given as they are: CSR blocks of every value type,
// multi-column COO blocks of every value type, and a DenseMatrix held in a float CSR block and an integer
// multi-column COO block. Single-column COO blocks are in golden_bytes_test.cpp: an integer one on its own, a float
// one in the frame.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <string>

#include "golden_bytes_support.hpp"

namespace dbdf::golden {
namespace {

// Object header of a 3 x 4 matrix and the record of its one block covering it, up to the block's value type; the
// block-type-specific fields and the payload follow.
Octets one_block_3x4_file(std::uint8_t data_type, std::uint8_t value_type, std::uint8_t block_type,
                          std::uint8_t block_value_type, const Octets& rest) {
    Octets bytes = {
        0x01,       data_type,  // version 1, dt
        0x03,       0x00,
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,  // #r = 3
        0x04,       0x00,
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,  // #c = 4
        value_type,        // vt
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,  // rx = 0
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,
        0x00,       0x00,  // cx = 0
        0x03,       0x00,
        0x00,       0x00,
        0x04,       0x00,
        0x00,       0x00,              // block #r = 3, #c = 4
        block_type, block_value_type,  // bt, block vt
    };
    // Appended one by one: GCC 12 warns wrongly (-Warray-bounds) about a range insert right after the list.
    for (const std::uint8_t octet : rest) bytes.push_back(octet);
    return bytes;
}

constexpr std::uint8_t kCsrMatrix = 0x02;
constexpr std::uint8_t kCsrBlock = 0x02;
constexpr std::uint8_t kCooBlock = 0x03;

// 3 x 4 CSR data of the golden files: row 1 empty, an explicit zero at (2, 0).
const std::uint64_t kRowOffsets[] = {0, 2, 2, 4};
const std::uint32_t kColumns[] = {1, 3, 0, 2};

TEST(GoldenBytesSparse, CsrU8WithEmptyRowAndExplicitZero) {
    const Octets expected = one_block_3x4_file(kCsrMatrix, 0x01, kCsrBlock, 0x01,
                                               {
                                                   0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #nzb = 4 (uint64)
                                                   0x02, 0x00, 0x00, 0x00,                          // row 0: #nzr = 2
                                                   0x01, 0x00, 0x00, 0x00, 0xff,                    //   cx = 1, v = 255
                                                   0x03, 0x00, 0x00, 0x00, 0x01,                    //   cx = 3, v = 1
                                                   0x00, 0x00, 0x00, 0x00,                          // row 1: #nzr = 0
                                                   0x02, 0x00, 0x00, 0x00,                          // row 2: #nzr = 2
                                                   0x00, 0x00, 0x00, 0x00, 0x00,  //   cx = 0, v = 0 (explicit zero)
                                                   0x02, 0x00, 0x00, 0x00, 0x02,  //   cx = 2, v = 2
                                               });
    EXPECT_EQ(file_octets("csr_u8.dbdf"), expected);
    const std::uint8_t values[] = {255, 1, 0, 2};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::CsrMatrix, ValueType::U8, 3, 4);
                  w.add_csr({0, 0, 3, 4}, ValueType::U8, kRowOffsets, kColumns, values, 4, kAsGiven);
              }),
              expected);
}

TEST(GoldenBytesSparse, CsrF64WithEmptyRowNanPayloadAndExplicitZero) {
    const Octets expected =
        one_block_3x4_file(kCsrMatrix, 0x0a, kCsrBlock, 0x0a,
                           {
                               0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #nzb = 4 (uint64)
                               0x02, 0x00, 0x00, 0x00,                          // row 0: #nzr = 2
                               0x01, 0x00, 0x00, 0x00,                          //   cx = 1
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40,  //   v = 2.5
                               0x03, 0x00, 0x00, 0x00,                          //   cx = 3
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,  //   v = -0.0
                               0x00, 0x00, 0x00, 0x00,                          // row 1: #nzr = 0
                               0x02, 0x00, 0x00, 0x00,                          // row 2: #nzr = 2
                               0x00, 0x00, 0x00, 0x00,                          //   cx = 0
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //   v = 0.0 (explicit zero)
                               0x02, 0x00, 0x00, 0x00,                          //   cx = 2
                               0x23, 0x01, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f,  //   v = quiet NaN with payload 0x123
                           });
    EXPECT_EQ(file_octets("csr_f64.dbdf"), expected);
    const double values[] = {2.5, std::bit_cast<double>(0x8000000000000000ull), 0.0,
                             std::bit_cast<double>(0x7ff8000000000123ull)};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::CsrMatrix, ValueType::F64, 3, 4);
                  w.add_csr({0, 0, 3, 4}, ValueType::F64, kRowOffsets, kColumns, values, 4, kAsGiven);
              }),
              expected);
}

// The other eight CSR files hold the same 3 x 4 block in their own type: a (the type's maximum, or 2.5) at (0, 1),
// b (1, or -0.0) at (0, 3), an explicit zero at (2, 0) and c (2, the type's minimum, or a NaN) at (2, 2). Each
// row of the table spells out a, b, the zero and c as the file stores them, little-endian.
struct CsrGolden {
    const char* file;
    std::uint8_t value_type;
    Octets a, b, zero, c;
};

const CsrGolden kCsrGoldens[] = {
    {"csr_u16.dbdf", 0x02, {0xff, 0xff}, {0x01, 0x00}, {0x00, 0x00}, {0x02, 0x00}},
    {"csr_u32.dbdf",
     0x03,
     {0xff, 0xff, 0xff, 0xff},
     {0x01, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x00},
     {0x02, 0x00, 0x00, 0x00}},
    {"csr_u64.dbdf",
     0x04,
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
     {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
     {0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
    {"csr_i8.dbdf", 0x05, {0x7f}, {0x01}, {0x00}, {0x80}},
    {"csr_i16.dbdf", 0x06, {0xff, 0x7f}, {0x01, 0x00}, {0x00, 0x00}, {0x00, 0x80}},
    {"csr_i32.dbdf",
     0x07,
     {0xff, 0xff, 0xff, 0x7f},
     {0x01, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x80}},
    {"csr_i64.dbdf",
     0x08,
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
     {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
     {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80}},
    // 2.5f = 0x40200000, -0.0f = 0x80000000, quiet NaN with payload 0x123 = 0x7fc00123.
    {"csr_f32.dbdf",
     0x09,
     {0x00, 0x00, 0x20, 0x40},
     {0x00, 0x00, 0x00, 0x80},
     {0x00, 0x00, 0x00, 0x00},
     {0x23, 0x01, 0xc0, 0x7f}},
};

Octets csr_golden_file(const CsrGolden& golden) {
    Octets rest = {
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #nzb = 4 (uint64)
        0x02, 0x00, 0x00, 0x00,                          // row 0: #nzr = 2
        0x01, 0x00, 0x00, 0x00,                          //   cx = 1, then a
    };
    const auto append = [&rest](std::initializer_list<std::uint8_t> octets, const Octets& value) {
        for (const std::uint8_t octet : octets) rest.push_back(octet);
        for (const std::uint8_t octet : value) rest.push_back(octet);
    };
    append({}, golden.a);
    append({0x03, 0x00, 0x00, 0x00}, golden.b);  //   cx = 3, then b
    append({0x00, 0x00, 0x00, 0x00,              // row 1: #nzr = 0
            0x02, 0x00, 0x00, 0x00,              // row 2: #nzr = 2
            0x00, 0x00, 0x00, 0x00},
           golden.zero);                         //   cx = 0, then the explicit zero
    append({0x02, 0x00, 0x00, 0x00}, golden.c);  //   cx = 2, then c
    return one_block_3x4_file(kCsrMatrix, golden.value_type, kCsrBlock, golden.value_type, rest);
}

// What dbdf::Writer produces for the golden file's block, from values of type T.
template <class T>
Octets written_csr(T a, T b, T c) {
    const T values[] = {a, b, T{0}, c};
    return written([&](Writer& w) {
        w.begin_matrix(DataType::CsrMatrix, value_type_v<T>, 3, 4);
        w.add_csr({0, 0, 3, 4}, value_type_v<T>, kRowOffsets, kColumns, values, 4, kAsGiven);
    });
}

TEST(GoldenBytesSparse, CsrOfTheOtherEightValueTypes) {
    std::map<std::string, Octets> from_writer;
    from_writer["csr_u16.dbdf"] = written_csr<std::uint16_t>(65535, 1, 2);
    from_writer["csr_u32.dbdf"] = written_csr<std::uint32_t>(4294967295u, 1, 2);
    from_writer["csr_u64.dbdf"] = written_csr<std::uint64_t>(std::numeric_limits<std::uint64_t>::max(), 1, 2);
    from_writer["csr_i8.dbdf"] = written_csr<std::int8_t>(127, 1, -128);
    from_writer["csr_i16.dbdf"] = written_csr<std::int16_t>(32767, 1, -32768);
    from_writer["csr_i32.dbdf"] = written_csr<std::int32_t>(std::numeric_limits<std::int32_t>::max(), 1,
                                                            std::numeric_limits<std::int32_t>::min());
    from_writer["csr_i64.dbdf"] = written_csr<std::int64_t>(std::numeric_limits<std::int64_t>::max(), 1,
                                                            std::numeric_limits<std::int64_t>::min());
    from_writer["csr_f32.dbdf"] =
        written_csr<float>(2.5f, std::bit_cast<float>(0x80000000u), std::bit_cast<float>(0x7fc00123u));
    ASSERT_EQ(from_writer.size(), std::size(kCsrGoldens));
    for (const CsrGolden& golden : kCsrGoldens) {
        SCOPED_TRACE(golden.file);
        const Octets expected = csr_golden_file(golden);
        // Header and block record (45 bytes), #nzb (8), three row counts and four column indices (4 each), values.
        EXPECT_EQ(expected.size(), 45u + 8u + 3u * 4u + 4u * 4u + 4u * golden.a.size());
        EXPECT_EQ(file_octets(golden.file), expected);
        EXPECT_EQ(from_writer.at(golden.file), expected);
    }
}

// The coo_<type>.dbdf files hold the CSR files' four entries, the explicit zero included, as one multi-column COO
// block: #nzb as uint32, then each entry's row and column (uint32 each) and its value, in row-major order.
Octets coo_golden_file(std::uint8_t value_type, const Octets& a, const Octets& b, const Octets& zero, const Octets& c) {
    Octets rest = {0x04, 0x00, 0x00, 0x00};  // #nzb = 4 (uint32)
    const auto append = [&rest](std::initializer_list<std::uint8_t> octets, const Octets& value) {
        for (const std::uint8_t octet : octets) rest.push_back(octet);
        for (const std::uint8_t octet : value) rest.push_back(octet);
    };
    append({0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00}, a);     // rx = 0, cx = 1, then a
    append({0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00}, b);     // rx = 0, cx = 3, then b
    append({0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, zero);  // rx = 2, cx = 0, then the explicit zero
    append({0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00}, c);     // rx = 2, cx = 2, then c
    return one_block_3x4_file(kCsrMatrix, value_type, kCooBlock, value_type, rest);
}

// What dbdf::Writer produces for the COO golden file's block, from values of type T.
template <class T>
Octets written_coo(T a, T b, T c) {
    const std::uint32_t rows[] = {0, 0, 2, 2};
    const std::uint32_t cols[] = {1, 3, 0, 2};
    const T values[] = {a, b, T{0}, c};
    return written([&](Writer& w) {
        w.begin_matrix(DataType::CsrMatrix, value_type_v<T>, 3, 4);
        w.add_coo({0, 0, 3, 4}, value_type_v<T>, rows, cols, values, 4, kAsGiven);
    });
}

TEST(GoldenBytesSparse, CooMultiColumnVariantOfNineValueTypes) {
    struct CooGolden {
        Octets bytes;
        std::size_t value_width;
    };
    std::map<std::string, CooGolden> expected;
    // The CSR table's value octets, except f32's (coo_multi_column.dbdf is the f32 COO file), and u8 and f64.
    for (const CsrGolden& golden : kCsrGoldens) {
        if (golden.value_type == 0x09) continue;
        std::string file = golden.file;
        file.replace(0, 3, "coo");
        expected[file] = {coo_golden_file(golden.value_type, golden.a, golden.b, golden.zero, golden.c),
                          golden.a.size()};
    }
    expected["coo_u8.dbdf"] = {coo_golden_file(0x01, {0xff}, {0x01}, {0x00}, {0x02}), 1};
    // 2.5 = 0x4004000000000000, -0.0 = 0x8000000000000000, quiet NaN with payload 0x123 = 0x7ff8000000000123.
    expected["coo_f64.dbdf"] = {coo_golden_file(0x0a, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40},
                                                {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80},
                                                {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                                                {0x23, 0x01, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f}),
                                8};
    std::map<std::string, Octets> from_writer;
    from_writer["coo_u8.dbdf"] = written_coo<std::uint8_t>(255, 1, 2);
    from_writer["coo_u16.dbdf"] = written_coo<std::uint16_t>(65535, 1, 2);
    from_writer["coo_u32.dbdf"] = written_coo<std::uint32_t>(4294967295u, 1, 2);
    from_writer["coo_u64.dbdf"] = written_coo<std::uint64_t>(std::numeric_limits<std::uint64_t>::max(), 1, 2);
    from_writer["coo_i8.dbdf"] = written_coo<std::int8_t>(127, 1, -128);
    from_writer["coo_i16.dbdf"] = written_coo<std::int16_t>(32767, 1, -32768);
    from_writer["coo_i32.dbdf"] = written_coo<std::int32_t>(std::numeric_limits<std::int32_t>::max(), 1,
                                                            std::numeric_limits<std::int32_t>::min());
    from_writer["coo_i64.dbdf"] = written_coo<std::int64_t>(std::numeric_limits<std::int64_t>::max(), 1,
                                                            std::numeric_limits<std::int64_t>::min());
    from_writer["coo_f64.dbdf"] = written_coo<double>(2.5, std::bit_cast<double>(0x8000000000000000ull),
                                                      std::bit_cast<double>(0x7ff8000000000123ull));
    ASSERT_EQ(expected.size(), 9u);
    ASSERT_EQ(from_writer.size(), 9u);
    for (const auto& [file, golden] : expected) {
        SCOPED_TRACE(file);
        // Header and block record (45 bytes), #nzb (4), four entries of row and column (8 each) and a value.
        EXPECT_EQ(golden.bytes.size(), 45u + 4u + 4u * (8u + golden.value_width));
        EXPECT_EQ(file_octets(file), golden.bytes);
        EXPECT_EQ(from_writer.at(file), golden.bytes);
    }
}

TEST(GoldenBytesSparse, CooMultiColumnVariantF32) {
    const Octets expected = one_block_3x4_file(kCsrMatrix, 0x09, kCooBlock, 0x09,
                                               {
                                                   0x03, 0x00, 0x00, 0x00,                          // #nzb = 3 (uint32)
                                                   0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,  // rx = 0, cx = 3
                                                   0x00, 0x00, 0xa0, 0x3f,                          //   v = 1.25f
                                                   0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // rx = 2, cx = 0
                                                   0x00, 0x00, 0x00, 0xc0,                          //   v = -2.0f
                                                   0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // rx = 2, cx = 1
                                                   0x00, 0x00, 0x00, 0x3f,                          //   v = 0.5f
                                               });
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

TEST(GoldenBytesSparse, DenseMatrixOfAFloatCsrBlockAndAnIntegerCooBlock) {
    const Octets expected = {
        0x01, 0x01,                                      // version 1, DenseMatrix
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #r = 4
        0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // #c = 4
        0x0a,                                            // vt: double
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 0: rx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 0
        0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,  //          #r = 2, #c = 4
        0x02, 0x0a,                                      //          CSR, double
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          #nzb = 2
        0x01, 0x00, 0x00, 0x00,                          //          row 0: #nzr = 1
        0x00, 0x00, 0x00, 0x00,                          //            cx = 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f,  //            v = 1.5
        0x01, 0x00, 0x00, 0x00,                          //          row 1: #nzr = 1
        0x03, 0x00, 0x00, 0x00,                          //            cx = 3
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xc0,  //            v = -2.5
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // block 1: rx = 2
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //          cx = 0
        0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,  //          #r = 2, #c = 4
        0x03, 0x05,                                      //          COO, int8_t (narrower than the object)
        0x02, 0x00, 0x00, 0x00,                          //          #nzb = 2 (uint32)
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  //          rx = 0, cx = 1
        0xf9,                                            //            v = -7
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,  //          rx = 1, cx = 2
        0x64,                                            //            v = 100
    };
    EXPECT_EQ(file_octets("dense_matrix_sparse_blocks.dbdf"), expected);
    const std::uint64_t row_offsets[] = {0, 1, 2};
    const std::uint32_t csr_cols[] = {0, 3};
    const double csr_values[] = {1.5, -2.5};
    const std::uint32_t coo_rows[] = {0, 1};
    const std::uint32_t coo_cols[] = {1, 2};
    const std::int8_t coo_values[] = {-7, 100};
    EXPECT_EQ(written([&](Writer& w) {
                  w.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4, 4);
                  w.add_csr({0, 0, 2, 4}, ValueType::F64, row_offsets, csr_cols, csr_values, 2, kAsGiven);
                  w.add_coo({2, 0, 2, 4}, ValueType::I8, coo_rows, coo_cols, coo_values, 2, kAsGiven);
              }),
              expected);
}

}  // namespace
}  // namespace dbdf::golden
