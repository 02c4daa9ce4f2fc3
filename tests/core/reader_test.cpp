// Reading: block iteration, per-block decoding in every output form, index and seek, windows, frames, files.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::write_to_memory;

// 5 x 6 doubles, value 10 * row + col + 1 except zeros on the diagonal, tiled 2 x 4 with each tile's encoding
// forced in turn to dense, CSR, COO (row-major tile order).
std::vector<double> sample_values() {
    std::vector<double> values(30);
    for (std::uint64_t r = 0; r < 5; ++r) {
        for (std::uint64_t c = 0; c < 6; ++c) values[r * 6 + c] = r == c ? 0.0 : static_cast<double>(10 * r + c + 1);
    }
    return values;
}

std::vector<std::byte> sample_object() {
    const auto values = sample_values();
    return write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 5, 6);
        const Encoding encodings[] = {Encoding::Dense, Encoding::Csr, Encoding::Coo};
        int next = 0;
        for (std::uint64_t r = 0; r < 5; r += 2) {
            for (std::uint64_t c = 0; c < 6; c += 4) {
                const BlockPlacement place{r, c, static_cast<std::uint32_t>(std::min<std::uint64_t>(2, 5 - r)),
                                           static_cast<std::uint32_t>(std::min<std::uint64_t>(4, 6 - c))};
                writer.add_dense(place, ValueType::F64, values.data() + r * 6 + c, 30 - (r * 6 + c), 6,
                                 WriteOptions{encodings[next++ % 3]});
            }
        }
    });
}

TEST(Reader, IteratesBlocksInFileOrderWithoutDecoding) {
    const auto bytes = sample_object();
    Reader reader = Reader::open_memory(bytes);
    EXPECT_EQ(reader.header().rows, 5u);
    EXPECT_EQ(reader.header_bytes(), 19u);
    std::vector<BlockView> blocks;
    while (reader.next_block()) blocks.push_back(reader.block());
    ASSERT_EQ(blocks.size(), 6u);
    EXPECT_EQ(blocks[0].block_type, BlockType::Dense);
    EXPECT_EQ(blocks[1].block_type, BlockType::Csr);
    EXPECT_EQ(blocks[2].block_type, BlockType::Coo);
    EXPECT_EQ(blocks[1].row, 0u);
    EXPECT_EQ(blocks[1].col, 4u);
    EXPECT_EQ(blocks[1].rows, 2u);
    EXPECT_EQ(blocks[1].cols, 2u);
    EXPECT_EQ(blocks[0].offset, 19u);
    EXPECT_EQ(blocks[1].offset, blocks[0].offset + blocks[0].encoded_bytes);
    EXPECT_EQ(blocks[0].stored_values, 8u);
    EXPECT_EQ(blocks[0].payload_bytes, 64u);
    EXPECT_EQ(blocks[5].offset + blocks[5].encoded_bytes, bytes.size());
    EXPECT_FALSE(reader.next_block());
    EXPECT_FALSE(reader.next_block());
    EXPECT_THROW(reader.block(), Error);
}

TEST(Reader, DecodesEachBlockDenseWithStrideAsCsrAndAsCoo) {
    const auto bytes = sample_object();
    const auto values = sample_values();
    Reader reader = Reader::open_memory(bytes);
    while (reader.next_block()) {
        const BlockView block = reader.block();
        // Dense with a stride of cols + 2; the padding must stay untouched.
        const std::uint64_t stride = block.cols + 2;
        std::vector<double> dense(block.rows * stride, -1.0);
        reader.decode_dense(ValueType::F64, dense.data(), dense.size(), stride);
        for (std::uint32_t r = 0; r < block.rows; ++r) {
            for (std::uint32_t c = 0; c < block.cols; ++c) {
                EXPECT_EQ(dense[r * stride + c], values[(block.row + r) * 6 + block.col + c]);
            }
            EXPECT_EQ(dense[r * stride + block.cols], -1.0);
        }
        // CSR.
        const std::uint64_t entries = reader.count_entries();
        std::vector<std::uint64_t> row_offsets(block.rows + 1);
        std::vector<std::uint32_t> cols(entries);
        std::vector<std::int32_t> csr_values(entries);
        EXPECT_EQ(reader.decode_csr(ValueType::I32, row_offsets.data(), row_offsets.size(), cols.data(),
                                    csr_values.data(), entries),
                  entries);
        for (std::uint32_t r = 0; r < block.rows; ++r) {
            for (std::uint64_t k = row_offsets[r]; k < row_offsets[r + 1]; ++k) {
                EXPECT_EQ(csr_values[k], values[(block.row + r) * 6 + block.col + cols[k]]);
            }
        }
        // COO, and a too-small buffer reports the count without writing.
        if (entries > 0) {
            std::vector<std::uint32_t> coo_rows(entries), coo_cols(entries);
            std::vector<float> coo_values(entries, 99.0f);
            EXPECT_EQ(
                reader.decode_coo(ValueType::F32, coo_rows.data(), coo_cols.data(), coo_values.data(), entries - 1),
                entries);
            EXPECT_EQ(coo_values[0], 99.0f);
            reader.decode_coo(ValueType::F32, coo_rows.data(), coo_cols.data(), coo_values.data(), entries);
            for (std::uint64_t k = 0; k < entries; ++k) {
                EXPECT_EQ(coo_values[k], values[(block.row + coo_rows[k]) * 6 + block.col + coo_cols[k]]);
            }
        }
    }
}

TEST(Reader, DenseBlockPayloadIsTheRawValues) {
    const auto bytes = sample_object();
    Reader reader = Reader::open_memory(bytes);
    ASSERT_TRUE(reader.next_block());
    const auto payload = reader.payload();
    ASSERT_EQ(payload.size(), 8u * sizeof(double));
    double first = 0;
    std::memcpy(&first, payload.data(), sizeof first);
    EXPECT_EQ(first, 0.0);
    double second = 0;
    std::memcpy(&second, payload.data() + 8, sizeof second);
    EXPECT_EQ(second, 2.0);
}

TEST(Reader, IndexSeekRewindAndWindows) {
    const auto bytes = sample_object();
    const auto values = sample_values();
    Reader reader = Reader::open_memory(bytes);
    ASSERT_TRUE(reader.next_block());
    const auto& index = reader.build_index();
    ASSERT_EQ(index.size(), 6u);
    ASSERT_TRUE(reader.next_block());  // continues with block 1
    EXPECT_EQ(reader.block().index, 1u);
    reader.seek_block(4);
    EXPECT_EQ(reader.block().row, 4u);
    EXPECT_EQ(reader.block().col, 0u);
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().index, 5u);
    EXPECT_FALSE(reader.next_block());
    EXPECT_THROW(reader.seek_block(6), Error);
    reader.rewind();
    ASSERT_TRUE(reader.next_block());
    EXPECT_EQ(reader.block().index, 0u);

    // A window crossing all tile boundaries.
    std::vector<std::int64_t> window(3 * 4);
    reader.read_dense_window(ValueType::I64, Window{1, 1, 3, 4}, window.data(), window.size(), 0);
    for (std::uint64_t r = 0; r < 3; ++r) {
        for (std::uint64_t c = 0; c < 4; ++c) EXPECT_EQ(window[r * 4 + c], values[(r + 1) * 6 + c + 1]);
    }
    EXPECT_THROW(reader.read_dense_window(ValueType::I64, Window{3, 0, 3, 1}, window.data(), window.size(), 0), Error);
    EXPECT_THROW(reader.read_dense_window(ValueType::I64, Window{0, 0, 3, 4}, window.data(), 11, 0), Error);
}

TEST(Reader, ConversionToANarrowerTypeFailsWithRangeError) {
    const auto bytes = sample_object();
    Reader reader = Reader::open_memory(bytes);
    std::vector<std::int8_t> out(30);
    EXPECT_NO_THROW(reader.read_dense_window(ValueType::I8, Window{0, 0, 5, 6}, out.data(), 30, 0));  // max 46
    std::vector<double> halves{0.5, 1.0};
    const auto fractional = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 1, 2);
        writer.write_dense(ValueType::F64, halves.data(), 2, 0, WriteOptions{});
    });
    Reader second = Reader::open_memory(fractional);
    std::vector<std::int32_t> ints(2);
    try {
        second.read_dense_window(ValueType::I32, Window{0, 0, 1, 2}, ints.data(), 2, 0);
        FAIL() << "0.5 converted to an integer";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Range);
        EXPECT_EQ(error.rule(), 8);
        EXPECT_NE(std::string(error.what()).find("0.5"), std::string::npos) << error.what();
    }
}

TEST(Reader, FrameColumnsWithTheirOwnTypesAndLabels) {
    const std::vector<std::int32_t> ids{1, 2, 3};
    const std::vector<double> scores{0.25, -1.0, 1e10};
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_frame(3, {ValueType::I32, ValueType::F64}, {"id", "score"});
        writer.write_column(0, ValueType::I32, ids.data(), 3, WriteOptions{Encoding::AsGiven, 2, 0});
        writer.write_column(1, ValueType::F64, scores.data(), 3, WriteOptions{});
    });
    Reader reader = Reader::open_memory(bytes);
    EXPECT_EQ(reader.header().data_type, DataType::Frame);
    EXPECT_EQ(reader.header().labels, (std::vector<std::string>{"id", "score"}));
    EXPECT_EQ(reader.build_index().size(), 3u);
    std::vector<std::int32_t> id_column(3);
    reader.read_dense_window(ValueType::I32, Window{0, 0, 3, 1}, id_column.data(), 3, 1);
    EXPECT_EQ(id_column, ids);
    std::vector<double> score_column(3);
    reader.read_dense_window(ValueType::F64, Window{0, 1, 3, 1}, score_column.data(), 3, 1);
    EXPECT_EQ(score_column, scores);
}

TEST(Reader, ObjectsBeyondTwoToThe32AreTiledWithEmptyBlocks) {
    constexpr std::uint64_t kRows = (std::uint64_t{1} << 33) + 5;
    constexpr std::uint64_t kCols = (std::uint64_t{1} << 32) + 1;
    constexpr std::uint64_t kTile = 0xFFFFFFFFull;
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, kRows, kCols);
        for (std::uint64_t r = 0; r < kRows; r += kTile) {
            for (std::uint64_t c = 0; c < kCols; c += kTile) {
                writer.add_empty({r, c, static_cast<std::uint32_t>(std::min(kTile, kRows - r)),
                                  static_cast<std::uint32_t>(std::min(kTile, kCols - c))});
            }
        }
    });
    Reader reader = Reader::open_memory(bytes);
    const auto& index = reader.build_index();
    ASSERT_EQ(index.size(), 3u * 2u);
    EXPECT_EQ(index.back().row, 2 * kTile);
    EXPECT_EQ(index.back().col, kTile);
    EXPECT_EQ(index.back().rows, kRows - 2 * kTile);
    EXPECT_EQ(reader.count_entries_total(), 0u);
    double corner = 1.0;
    reader.read_dense_window(ValueType::F64, Window{kRows - 1, kCols - 1, 1, 1}, &corner, 1, 0);
    EXPECT_EQ(corner, 0.0);
}

TEST(Reader, OpensFilesReadOrMapped) {
    const auto bytes = sample_object();
    // Unique per process: test runners may run several copies of this binary at once.
    const auto path =
        std::filesystem::temp_directory_path() / ("dbdf_reader_test_" + std::to_string(::getpid()) + ".dbdf");
    {
        std::ofstream file(path, std::ios::binary);
        file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    for (FileAccess access : {FileAccess::PositionedReads, FileAccess::Map}) {
        Reader reader = Reader::open_file(path, Dialect::Spec, access);
        EXPECT_EQ(reader.total_bytes(), bytes.size());
        std::vector<double> values(30);
        reader.read_dense_window(ValueType::F64, Window{0, 0, 5, 6}, values.data(), 30, 0);
        EXPECT_EQ(values, sample_values());
        // Block by block, the payload borrowed and every output form.
        ASSERT_TRUE(reader.next_block());
        EXPECT_EQ(reader.payload().size(), reader.block().payload_bytes);
        std::vector<double> block(8);
        reader.decode_dense(ValueType::F64, block.data(), block.size(), 0);
        EXPECT_EQ(block[1], 2.0);
        ASSERT_TRUE(reader.next_block());  // the CSR tile
        std::vector<std::uint64_t> row_offsets(3);
        std::vector<std::uint32_t> cols(4);
        std::vector<double> entries(4);
        EXPECT_EQ(reader.decode_csr(ValueType::F64, row_offsets.data(), 3, cols.data(), entries.data(), 4), 4u);
        EXPECT_EQ(entries[3], 16.0);
        EXPECT_EQ(reader.validate({}), 0u);
    }
    std::filesystem::remove(path);
    try {
        Reader::open_file(path);
        FAIL() << "opened a missing file";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Io);
        EXPECT_NE(std::string(error.what()).find(path.filename().string()), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace dbdf
