// Objects with a zero dimension (rule 4: they have no blocks) as the writer meets them when it copies another
// file block by block: DAPHNE's runtime gives a 0 x 3 or 3 x 0 matrix one block of that shape, and dbdf's reader
// presents it as it is. Copying such a block into either dialect must give the file of that object, not a refusal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::Bytes;

constexpr std::uint8_t kDaphneF64 = 7;  // DAPHNE's ValueTypeCode for double
constexpr std::uint8_t kSpecF64 = 10;

// The bytes DAPHNE's runtime writes for an f64 matrix (DIALECT.md 4 and 5): header, (rx, cx), the block header of
// its one block, then for CSR #nzb = 0 and #r + 1 zero row offsets; a dense matrix without cells has no values.
std::vector<std::byte> daphne_runtime_file(DataType data_type, std::uint64_t rows, std::uint64_t cols) {
    Bytes bytes;
    const auto block_type = static_cast<std::uint8_t>(data_type == DataType::CsrMatrix ? 2 : 1);
    bytes.matrix(static_cast<std::uint8_t>(data_type), rows, cols, kDaphneF64)
        .block(0, 0, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols), block_type)
        .u8(kDaphneF64);
    if (data_type == DataType::CsrMatrix) {
        bytes.u64(0);
        for (std::uint64_t row = 0; row <= rows; ++row) bytes.u64(0);
    }
    return bytes.vector();
}

// Every block of `reader` added to `writer` as the block type it has, with `encoding`.
void copy_blocks(Reader& reader, Writer& writer, Encoding encoding) {
    const WriteOptions options{encoding, 0, 0};
    while (reader.next_block()) {
        const BlockView& block = reader.block();
        const BlockPlacement place{block.row, block.col, block.rows, block.cols};
        const std::uint64_t entries = reader.count_entries();
        std::vector<double> values(std::max<std::uint64_t>(entries, std::uint64_t{block.rows} * block.cols));
        if (block.block_type == BlockType::Dense) {
            reader.decode_dense(ValueType::F64, values.data(), values.size(), 0);
            writer.add_dense(place, ValueType::F64, values.data(), values.size(), 0, options);
        } else if (block.block_type == BlockType::Csr) {
            std::vector<std::uint64_t> row_offsets(std::uint64_t{block.rows} + 1);
            std::vector<std::uint32_t> cols(entries);
            reader.decode_csr(ValueType::F64, row_offsets.data(), row_offsets.size(), cols.data(), values.data(),
                              entries);
            writer.add_csr(place, ValueType::F64, row_offsets.data(), cols.data(), values.data(), entries, options);
        } else if (block.block_type == BlockType::Coo) {
            std::vector<std::uint32_t> rows(entries), cols(entries);
            reader.decode_coo(ValueType::F64, rows.data(), cols.data(), values.data(), entries);
            writer.add_coo(place, ValueType::F64, rows.data(), cols.data(), values.data(), entries, options);
        } else {
            writer.add_empty(place);
        }
    }
}

std::vector<std::byte> written(Dialect dialect, const std::function<void(Writer&)>& build) {
    Writer writer(std::make_unique<MemorySink>(), WriterDialect{dialect, {}});
    build(writer);
    writer.finish();
    return static_cast<MemorySink&>(writer.sink()).bytes();
}

struct ZeroShape {
    DataType data_type;
    std::uint64_t rows;
    std::uint64_t cols;
};

const ZeroShape kZeroShapes[] = {
    {DataType::CsrMatrix, 0, 3}, {DataType::CsrMatrix, 3, 0},   {DataType::DenseMatrix, 0, 3},
    {DataType::DenseMatrix, 3, 0}, {DataType::DenseMatrix, 0, 0},
};

std::string shape_text(const ZeroShape& shape) {
    return std::string(name(shape.data_type)) + " " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols);
}

TEST(WriterZeroCells, TheRuntimesBlockOfAZeroDimensionMatrixCopiesToTheSpecDialectAsNoBlocks) {
    for (const ZeroShape& shape : kZeroShapes) {
        for (const Encoding encoding : {Encoding::AsGiven, Encoding::Auto, Encoding::Dense, Encoding::Coo}) {
            SCOPED_TRACE(shape_text(shape) + ", encoding " + std::string(name(encoding)));
            const std::vector<std::byte> daphne = daphne_runtime_file(shape.data_type, shape.rows, shape.cols);
            Reader reader = Reader::open_memory(daphne, Dialect::Daphne);
            const auto spec = written(Dialect::Spec, [&](Writer& writer) {
                writer.begin_matrix(shape.data_type, ValueType::F64, shape.rows, shape.cols);
                copy_blocks(reader, writer, encoding);
                EXPECT_EQ(writer.header().rows, shape.rows);
            });
            // Rule 4: the header and nothing else.
            Bytes expected;
            expected.matrix(static_cast<std::uint8_t>(shape.data_type), shape.rows, shape.cols, kSpecF64);
            EXPECT_EQ(spec, expected.vector());
            Reader back = Reader::open_memory(spec);
            EXPECT_EQ(back.header().rows, shape.rows);
            EXPECT_EQ(back.header().cols, shape.cols);
            EXPECT_FALSE(back.next_block());
            EXPECT_EQ(back.validate({}), 0u);
        }
    }
}

TEST(WriterZeroCells, TheRuntimesBlockOfAZeroDimensionMatrixCopiesToTheDaphneDialectUnchanged) {
    for (const ZeroShape& shape : kZeroShapes) {
        SCOPED_TRACE(shape_text(shape));
        const std::vector<std::byte> daphne = daphne_runtime_file(shape.data_type, shape.rows, shape.cols);
        Reader reader = Reader::open_memory(daphne, Dialect::Daphne);
        const auto copy = written(Dialect::Daphne, [&](Writer& writer) {
            writer.begin_matrix(shape.data_type, ValueType::F64, shape.rows, shape.cols);
            copy_blocks(reader, writer, Encoding::AsGiven);
        });
        EXPECT_EQ(copy, daphne);
    }
}

TEST(WriterZeroCells, EveryAddCallTakesABlockWithoutCellsInAnObjectWithoutCells) {
    const std::uint64_t no_offsets[] = {0};
    const auto spec = written(Dialect::Spec, [&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::I32, 0, 5);
        writer.add_dense(BlockPlacement{0, 0, 0, 5}, ValueType::I32, nullptr, 0, 0, {});
        writer.add_dense(BlockPlacement{0, 2, 0, 3}, ValueType::I32, nullptr, 0, 0, {});
        writer.add_csr(BlockPlacement{0, 0, 0, 5}, ValueType::I32, no_offsets, nullptr, nullptr, 0, {});
        writer.add_coo(BlockPlacement{0, 0, 0, 5}, ValueType::I32, nullptr, nullptr, nullptr, 0, {});
        writer.add_empty(BlockPlacement{0, 0, 0, 5});
        writer.add_empty(BlockPlacement{0, 5, 0, 0});
        // Nothing was written for them: the whole-matrix helpers still come "right after begin".
        writer.write_dense(ValueType::I32, nullptr, 0, 0, {});
    });
    Bytes expected;
    expected.matrix(1, 0, 5, 7);
    EXPECT_EQ(spec, expected.vector());
}

TEST(WriterZeroCells, AFrameWithoutRowsTakesItsColumnsAsBlocksWithoutCells) {
    for (const Dialect dialect : {Dialect::Spec, Dialect::Daphne}) {
        SCOPED_TRACE(std::string(name(dialect)));
        const auto bytes = written(dialect, [&](Writer& writer) {
            writer.begin_frame(0, {ValueType::F64, ValueType::I64}, {"a", "b"});
            writer.add_dense(BlockPlacement{0, 0, 0, 1}, ValueType::F64, nullptr, 0, 0, {});
            writer.add_dense(BlockPlacement{0, 1, 0, 1}, ValueType::I64, nullptr, 0, 0, {});
        });
        Reader reader = Reader::open_memory(bytes, dialect);
        EXPECT_EQ(reader.header().rows, 0u);
        EXPECT_EQ(reader.header().cols, 2u);
        EXPECT_EQ(reader.validate({}), 0u);
    }
}

// The exemption is for blocks that describe no cells of an object that has none; anything else keeps its rule.
TEST(WriterZeroCells, BlocksWithoutCellsAreStillRefusedWhereTheyBreakARule) {
    auto expect_refusal = [](Dialect dialect, std::uint64_t rows, std::uint64_t cols, const BlockPlacement& place,
                             const std::string& fragment) {
        SCOPED_TRACE(std::string(name(dialect)) + ": " + fragment);
        Writer writer(std::make_unique<MemorySink>(), WriterDialect{dialect, {}});
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, rows, cols);
        try {
            writer.add_empty(place);
            FAIL() << "expected a refusal";
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::InvalidArgument);
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
        EXPECT_FALSE(writer.failed());
    };
    for (const Dialect dialect : {Dialect::Spec, Dialect::Daphne}) {
        // An object with cells: a block without any is a mistake (rule 4).
        expect_refusal(dialect, 4, 3, BlockPlacement{0, 0, 0, 3}, "has no cells; blocks need at least one row and "
                                                                  "one column (rule 4)");
        // Outside an object without cells (rule 2).
        expect_refusal(dialect, 0, 3, BlockPlacement{0, 1, 0, 3},
                       "block at (0, 1) of shape 0 x 3 reaches outside the 0 x 3 object (rule 2)");
        expect_refusal(dialect, 0, 3, BlockPlacement{1, 0, 0, 3}, "reaches outside the 0 x 3 object (rule 2)");
    }
    // The caller's arrays are still checked.
    Writer writer(std::make_unique<MemorySink>());
    writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 0, 3);
    const std::uint64_t offsets[] = {1};
    EXPECT_THROW(writer.add_csr(BlockPlacement{0, 0, 0, 3}, ValueType::F64, offsets, nullptr, nullptr, 0, {}), Error);
    EXPECT_THROW(writer.add_csr(BlockPlacement{0, 0, 0, 3}, ValueType::F64, nullptr, nullptr, nullptr, 0, {}), Error);
}

}  // namespace
}  // namespace dbdf
