// dbdf_writer_tile_shape(): the block shape it reports is the one the writer's own helpers cut objects into, the
// daphne row bands it reports are accepted by a daphne writer and give the bytes of a whole-matrix write, and bad
// arguments are refused.
#include <cstdint>
#include <utility>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

struct Shape {
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    bool operator==(const Shape&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Shape& shape) { return out << shape.rows << " x " << shape.cols; }

Shape tile_shape(dbdf_dialect_t dialect, dbdf_data_type_t data_type, dbdf_value_type_t type, std::uint64_t rows,
                 std::uint64_t cols, const dbdf_write_options_t* options = nullptr) {
    Shape shape{0xDEAD, 0xBEEF};
    EXPECT_EQ(dbdf_writer_tile_shape(dialect, data_type, type, rows, cols, options, &shape.rows, &shape.cols), DBDF_OK)
        << dbdf_last_error_message();
    return shape;
}

// The shape of every block of a finished memory writer's object, in file order.
std::vector<Shape> block_shapes(const std::vector<std::uint8_t>& bytes, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    dbdf_reader_t* raw = nullptr;
    EXPECT_EQ(dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &raw), DBDF_OK)
        << dbdf_last_error_message();
    ReaderHandle reader(raw);
    std::vector<Shape> shapes;
    dbdf_block_info_t block{};
    while (dbdf_reader_next_block(reader.get(), &block) == DBDF_OK) shapes.push_back(Shape{block.rows, block.cols});
    return shapes;
}

TEST(CapiTileShape, SpecMatricesGetTheTilesOfWriteDense) {
    // About 4 MiB of values: 524 rows of 1000 f64 values; a very wide matrix gets 2^19 columns of one row.
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000), (Shape{524, 1000}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_CSR, DBDF_VALUE_F64, 3, std::uint64_t{1} << 40),
              (Shape{1, 524288}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_DENSE, DBDF_VALUE_U8, 10, 3), (Shape{10, 3}));
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 7;
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000, &options), (Shape{7, 1000}));
    options.block_cols = 300;
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000, &options), (Shape{7, 300}));

    // What write_dense writes: full tiles, cut at the bottom edge.
    std::vector<double> values(1000 * 1000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) + 0.5;
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000));
    ASSERT_OK(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(block_shapes(finished_bytes(writer.get())), (std::vector<Shape>{{524, 1000}, {476, 1000}}));
}

TEST(CapiTileShape, SpecFramesGetTheBlocksOfWriteColumn) {
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_FRAME, DBDF_VALUE_U8, 10'000'000, 1), (Shape{4194304, 1}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_FRAME, DBDF_VALUE_F64, 10'000'000, 3), (Shape{524288, 1}));
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 4;
    options.block_cols = 9;  // a frame's blocks are one column wide whatever is asked
    const Shape asked = tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_FRAME, DBDF_VALUE_I32, 10, 2, &options);
    EXPECT_EQ(asked, (Shape{4, 1}));

    WriterHandle writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I32};
    const char* labels[] = {"a"};
    ASSERT_OK(dbdf_writer_begin_frame(writer.get(), 10, 1, types, labels, nullptr));
    const std::vector<std::int32_t> column{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    ASSERT_OK(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I32, column.data(), column.size(), &options));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_EQ(block_shapes(finished_bytes(writer.get())), (std::vector<Shape>{{4, 1}, {4, 1}, {2, 1}}));
}

TEST(CapiTileShape, DaphneObjectsAreOneBlockAndDenseMatricesComeInRowBands) {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 3;  // block sizes do not apply to the daphne dialect
    options.block_cols = 3;
    EXPECT_EQ(tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1000, 1000, &options),
              (Shape{524, 1000}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 1'000'000), (Shape{1, 1'000'000}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_CSR, DBDF_VALUE_F64, 100'000, 70'000, &options),
              (Shape{100'000, 70'000}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_FRAME, DBDF_VALUE_I64, 50, 4, &options), (Shape{50, 1}));
    EXPECT_EQ(tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_SCALAR, DBDF_VALUE_I64, 1, 1), (Shape{1, 1}));

    // Bands of that shape, added one after the other, make the bytes of the matrix written whole.
    constexpr std::uint64_t kRows = 1000, kCols = 1000;
    std::vector<double> values(kRows * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.25;
    dbdf_writer_options_t daphne = DBDF_WRITER_OPTIONS_INIT;
    daphne.dialect = DBDF_DIALECT_DAPHNE;
    auto open = [&] {
        dbdf_writer_t* raw = nullptr;
        EXPECT_EQ(dbdf_writer_open_memory_with_options(&daphne, &raw), DBDF_OK) << dbdf_last_error_message();
        return WriterHandle(raw);
    };
    WriterHandle whole = open();
    ASSERT_OK(dbdf_writer_begin_matrix(whole.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols));
    ASSERT_OK(dbdf_writer_write_dense(whole.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(whole.get()));

    const Shape band = tile_shape(DBDF_DIALECT_DAPHNE, DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols);
    WriterHandle banded = open();
    ASSERT_OK(dbdf_writer_begin_matrix(banded.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols));
    for (std::uint64_t row = 0; row < kRows; row += band.rows) {
        const auto height = static_cast<std::uint32_t>(std::min<std::uint64_t>(band.rows, kRows - row));
        ASSERT_OK(dbdf_writer_add_dense(banded.get(), row, 0, height, band.cols, DBDF_VALUE_F64, &values[row * kCols],
                                        std::size_t{height} * kCols, 0, nullptr));
    }
    ASSERT_OK(dbdf_writer_finish(banded.get()));
    EXPECT_EQ(finished_bytes(banded.get()), finished_bytes(whole.get()));
}

TEST(CapiTileShape, ObjectsWithoutCellsHaveNoBlocks) {
    for (const dbdf_dialect_t dialect : {DBDF_DIALECT_SPEC, DBDF_DIALECT_DAPHNE}) {
        for (const dbdf_data_type_t data_type : {DBDF_DATA_DENSE, DBDF_DATA_CSR, DBDF_DATA_FRAME}) {
            EXPECT_EQ(tile_shape(dialect, data_type, DBDF_VALUE_F64, 0, 5), (Shape{0, 0}));
            EXPECT_EQ(tile_shape(dialect, data_type, DBDF_VALUE_F64, 5, 0), (Shape{0, 0}));
        }
    }
    EXPECT_EQ(tile_shape(DBDF_DIALECT_SPEC, DBDF_DATA_DENSE, DBDF_VALUE_F64, std::uint64_t{1} << 63, 0), (Shape{0, 0}));
}

TEST(CapiTileShape, BadArgumentsAreRefused) {
    std::uint32_t rows = 0, cols = 0;
    dbdf_write_options_t unset = DBDF_WRITE_OPTIONS_INIT;
    unset.struct_size = 0;
    const auto spec = DBDF_DIALECT_SPEC;
    const auto daphne = DBDF_DIALECT_DAPHNE;
    expect_failures({
        {"out_rows NULL",
         [&] { return dbdf_writer_tile_shape(spec, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2, nullptr, nullptr, &cols); },
         DBDF_ERR_INVALID_ARGUMENT, "out_rows"},
        {"out_cols NULL",
         [&] { return dbdf_writer_tile_shape(spec, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2, nullptr, &rows, nullptr); },
         DBDF_ERR_INVALID_ARGUMENT, "out_cols"},
        {"unknown dialect",
         [&] {
             return dbdf_writer_tile_shape(static_cast<dbdf_dialect_t>(7), DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2,
                                           nullptr, &rows, &cols);
         },
         DBDF_ERR_INVALID_ARGUMENT, "dialect 7"},
        {"unknown data type",
         [&] {
             return dbdf_writer_tile_shape(spec, static_cast<dbdf_data_type_t>(9), DBDF_VALUE_F64, 2, 2, nullptr, &rows,
                                           &cols);
         },
         DBDF_ERR_INVALID_ARGUMENT, "data type 9"},
        {"value type NONE",
         [&] { return dbdf_writer_tile_shape(spec, DBDF_DATA_DENSE, DBDF_VALUE_NONE, 2, 2, nullptr, &rows, &cols); },
         DBDF_ERR_INVALID_ARGUMENT, "value type 0"},
        {"options without struct_size",
         [&] { return dbdf_writer_tile_shape(spec, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 2, &unset, &rows, &cols); },
         DBDF_ERR_INVALID_ARGUMENT, "struct_size"},
        {"scalar in the spec dialect",
         [&] { return dbdf_writer_tile_shape(spec, DBDF_DATA_SCALAR, DBDF_VALUE_F64, 1, 1, nullptr, &rows, &cols); },
         DBDF_ERR_INVALID_ARGUMENT, "scalar"},
        {"scalar of two values",
         [&] { return dbdf_writer_tile_shape(daphne, DBDF_DATA_SCALAR, DBDF_VALUE_F64, 2, 1, nullptr, &rows, &cols); },
         DBDF_ERR_INVALID_ARGUMENT, "1 x 1"},
        {"daphne matrix of 2^32 rows",
         [&] {
             return dbdf_writer_tile_shape(daphne, DBDF_DATA_CSR, DBDF_VALUE_F64, std::uint64_t{1} << 32, 2, nullptr,
                                           &rows, &cols);
         },
         DBDF_ERR_INVALID_ARGUMENT, "2^32"},
    });
}

}  // namespace
}  // namespace dbdf_test
