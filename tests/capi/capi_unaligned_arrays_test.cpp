// Caller arrays need not be aligned for their type (dbdf.h, "Buffers"): every call that reads or writes a caller's
// typed array gets its arrays at offset 1 of a byte buffer here, for every value type, and must write the same file
// bytes and read the same values as with aligned arrays. Under the sanitize preset a typed access to such an array
// is reported as a misaligned load or store and fails the test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "capi_test_support.hpp"
#include "dbdf.h"

using namespace dbdf_test;

namespace {

constexpr std::uint32_t kRows = 7;
constexpr std::uint32_t kCols = 5;
constexpr std::uint64_t kStride = kCols + 2;  // rows with a gap after them, for the strided calls

using Bytes = std::vector<std::uint8_t>;

std::vector<dbdf_value_type_t> all_value_types() {
    std::vector<dbdf_value_type_t> types;
    for (int code = 1; dbdf_value_type_size(static_cast<dbdf_value_type_t>(code)) != 0; ++code) {
        types.push_back(static_cast<dbdf_value_type_t>(code));
    }
    return types;
}

// The same bytes at offset 1 of a larger allocation, so misaligned for every type wider than one byte (operator new
// aligns the allocation itself).
class Misaligned {
public:
    explicit Misaligned(const void* data, std::size_t size) : storage_(size + 1) {
        if (size > 0) std::memcpy(storage_.data() + 1, data, size);
    }
    template <class T>
    explicit Misaligned(const std::vector<T>& values) : Misaligned(values.data(), values.size() * sizeof(T)) {}

    void* data() { return storage_.data() + 1; }
    Bytes bytes() const { return Bytes(storage_.begin() + 1, storage_.end()); }

private:
    Bytes storage_;
};

// A kRows x kStride row-major matrix of `type` (the gap columns hold values too): about half the cells are zero, so
// sparse blocks and the automatic choices come up; the others differ in every byte. Floating-point types also get
// -0.0 and a NaN with a payload, which must survive bit for bit.
Bytes sample_values(dbdf_value_type_t type) {
    const std::size_t size = dbdf_value_type_size(type);
    Bytes bytes(kRows * kStride * size, 0);
    for (std::size_t cell = 0; cell < kRows * kStride; ++cell) {
        if (cell % 2 == 1) continue;
        for (std::size_t b = 0; b < size; ++b)
            bytes[cell * size + b] = static_cast<std::uint8_t>(cell * 7 + b * 13 + 1);
    }
    if (type == DBDF_VALUE_F64) {
        const std::uint64_t negative_zero = 0x8000000000000000u;
        const std::uint64_t nan_payload = 0x7ff8000000c0ffeeu;
        std::memcpy(&bytes[3 * size], &negative_zero, size);
        std::memcpy(&bytes[5 * size], &nan_payload, size);
    } else if (type == DBDF_VALUE_F32) {
        const std::uint32_t negative_zero = 0x80000000u;
        const std::uint32_t nan_payload = 0x7fc0beefu;
        std::memcpy(&bytes[3 * size], &negative_zero, size);
        std::memcpy(&bytes[5 * size], &nan_payload, size);
    }
    return bytes;
}

bool cell_is_zero(const Bytes& values, std::size_t cell, std::size_t size) {
    for (std::size_t b = 0; b < size; ++b) {
        if (values[cell * size + b] != 0) return false;
    }
    return true;
}

// The non-zero cells of the kRows x kCols part of sample_values as CSR (object-wide u64 columns, which are also
// block-local for a block covering the matrix) and as COO.
struct SparseArrays {
    std::vector<std::uint64_t> row_offsets{0};
    std::vector<std::uint64_t> cols64;
    std::vector<std::uint32_t> cols32;
    std::vector<std::uint32_t> rows32;
    Bytes values;
};

SparseArrays sparse_arrays(const Bytes& dense, std::size_t size) {
    SparseArrays arrays;
    for (std::uint32_t row = 0; row < kRows; ++row) {
        for (std::uint32_t col = 0; col < kCols; ++col) {
            const std::size_t cell = row * kStride + col;
            if (cell_is_zero(dense, cell, size)) continue;
            arrays.cols64.push_back(col);
            arrays.cols32.push_back(col);
            arrays.rows32.push_back(row);
            arrays.values.insert(arrays.values.end(), dense.begin() + cell * size, dense.begin() + (cell + 1) * size);
        }
        arrays.row_offsets.push_back(arrays.cols64.size());
    }
    return arrays;
}

dbdf_write_options_t tiled(dbdf_encoding_t encoding) {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = encoding;
    options.block_rows = 3;
    options.block_cols = 2;
    return options;
}

// The bytes of a kRows x kCols matrix of `type` written by `write` (after begin, before finish).
Bytes written_matrix(dbdf_value_type_t type, dbdf_data_type_t data_type,
                     const std::function<dbdf_status_t(dbdf_writer_t*)>& write) {
    WriterHandle writer = memory_writer();
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), data_type, type, kRows, kCols), DBDF_OK);
    const dbdf_status_t status = write(writer.get());
    EXPECT_EQ(status, DBDF_OK) << dbdf_status_name(status) << ": " << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

const dbdf_encoding_t kEncodings[] = {DBDF_ENCODING_AUTO, DBDF_ENCODING_AS_GIVEN, DBDF_ENCODING_DENSE,
                                      DBDF_ENCODING_CSR, DBDF_ENCODING_COO};

}  // namespace

TEST(CapiUnalignedArrays, DenseWritesGiveTheBytesOfAlignedValues) {
    for (dbdf_value_type_t type : all_value_types()) {
        for (dbdf_encoding_t encoding : kEncodings) {
            SCOPED_TRACE(std::string(dbdf_value_type_name(type)) + " " + dbdf_encoding_name(encoding));
            const Bytes values = sample_values(type);
            Misaligned moved(values);
            const std::size_t count = kRows * kStride;
            const dbdf_write_options_t options = tiled(encoding);
            auto write_dense = [&](const void* at) {
                return written_matrix(type, DBDF_DATA_DENSE, [&](dbdf_writer_t* writer) {
                    return dbdf_writer_write_dense(writer, type, at, count, kStride, &options);
                });
            };
            const Bytes aligned = write_dense(values.data());
            EXPECT_GT(aligned.size(), 0u);
            EXPECT_EQ(write_dense(moved.data()), aligned);

            // One add_dense of the whole matrix, strided.
            auto add_dense = [&](const void* at) {
                return written_matrix(type, DBDF_DATA_DENSE, [&](dbdf_writer_t* writer) {
                    return dbdf_writer_add_dense(writer, 0, 0, kRows, kCols, type, at, count, kStride, &options);
                });
            };
            EXPECT_EQ(add_dense(moved.data()), add_dense(values.data()));
        }
    }
}

// The daphne dialect writes a dense matrix as one block, which misaligned values reach in row bands; values of a
// narrower type than the object's are converted one by one (values of the object's type may be copied as bytes).
TEST(CapiUnalignedArrays, DaphneDenseWriteGivesTheBytesOfAlignedValues) {
    std::vector<std::pair<dbdf_value_type_t, dbdf_value_type_t>> given_and_object{
        {DBDF_VALUE_I32, DBDF_VALUE_I64}, {DBDF_VALUE_U32, DBDF_VALUE_U64}, {DBDF_VALUE_I8, DBDF_VALUE_I32}};
    for (dbdf_value_type_t type : all_value_types()) {
        if (type != DBDF_VALUE_U16 && type != DBDF_VALUE_I16) given_and_object.emplace_back(type, type);
    }
    for (const auto& [given_type, given_object_type] : given_and_object) {
        // Named again: clang 14 cannot capture a structured binding in a lambda (C++20 allows it since P1091).
        const dbdf_value_type_t type = given_type;
        const dbdf_value_type_t object_type = given_object_type;
        SCOPED_TRACE(std::string(dbdf_value_type_name(type)) + " to " + dbdf_value_type_name(object_type));
        const Bytes values = sample_values(type);
        Misaligned moved(values);
        auto write_dense = [&](const void* at) {
            dbdf_writer_options_t writer_options = DBDF_WRITER_OPTIONS_INIT;
            writer_options.dialect = DBDF_DIALECT_DAPHNE;
            dbdf_writer_t* raw = nullptr;
            EXPECT_EQ(dbdf_writer_open_memory_with_options(&writer_options, &raw), DBDF_OK);
            WriterHandle writer(raw);
            EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, object_type, kRows, kCols), DBDF_OK);
            EXPECT_EQ(dbdf_writer_write_dense(writer.get(), type, at, kRows * kStride, kStride, nullptr), DBDF_OK)
                << dbdf_last_error_message();
            EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
            return finished_bytes(writer.get());
        };
        const Bytes aligned = write_dense(values.data());
        EXPECT_GT(aligned.size(), kRows * kCols * dbdf_value_type_size(object_type));
        EXPECT_EQ(write_dense(moved.data()), aligned);
    }
}

TEST(CapiUnalignedArrays, SparseWritesGiveTheBytesOfAlignedArrays) {
    for (dbdf_value_type_t type : all_value_types()) {
        for (dbdf_encoding_t encoding : kEncodings) {
            SCOPED_TRACE(std::string(dbdf_value_type_name(type)) + " " + dbdf_encoding_name(encoding));
            const SparseArrays arrays = sparse_arrays(sample_values(type), dbdf_value_type_size(type));
            const std::uint64_t entries = arrays.cols64.size();
            ASSERT_GT(entries, 0u);
            Misaligned offsets(arrays.row_offsets), cols64(arrays.cols64), cols32(arrays.cols32), rows32(arrays.rows32),
                values(arrays.values);
            const dbdf_write_options_t options = tiled(encoding);

            auto write_csr = [&](const void* row_offsets, const void* col_indices, const void* at) {
                return written_matrix(type, DBDF_DATA_CSR, [&](dbdf_writer_t* writer) {
                    return dbdf_writer_write_csr(writer, type, static_cast<const std::uint64_t*>(row_offsets),
                                                 static_cast<const std::uint64_t*>(col_indices), at, entries, &options);
                });
            };
            const Bytes aligned_csr = write_csr(arrays.row_offsets.data(), arrays.cols64.data(), arrays.values.data());
            EXPECT_EQ(write_csr(offsets.data(), cols64.data(), values.data()), aligned_csr);

            auto add_csr = [&](const void* row_offsets, const void* col_indices, const void* at) {
                return written_matrix(type, DBDF_DATA_CSR, [&](dbdf_writer_t* writer) {
                    return dbdf_writer_add_csr(writer, 0, 0, kRows, kCols, type,
                                               static_cast<const std::uint64_t*>(row_offsets),
                                               static_cast<const std::uint32_t*>(col_indices), at, entries, &options);
                });
            };
            EXPECT_EQ(add_csr(offsets.data(), cols32.data(), values.data()),
                      add_csr(arrays.row_offsets.data(), arrays.cols32.data(), arrays.values.data()));

            auto add_coo = [&](const void* row_indices, const void* col_indices, const void* at) {
                return written_matrix(type, DBDF_DATA_CSR, [&](dbdf_writer_t* writer) {
                    return dbdf_writer_add_coo(writer, 0, 0, kRows, kCols, type,
                                               static_cast<const std::uint32_t*>(row_indices),
                                               static_cast<const std::uint32_t*>(col_indices), at, entries, &options);
                });
            };
            EXPECT_EQ(add_coo(rows32.data(), cols32.data(), values.data()),
                      add_coo(arrays.rows32.data(), arrays.cols32.data(), arrays.values.data()));
        }
    }
}

// A frame with one column of every value type, written with write_column, in both dialects (the daphne dialect
// keeps frame columns in memory and has no 16-bit types).
TEST(CapiUnalignedArrays, FrameColumnsGiveTheBytesOfAlignedValues) {
    for (dbdf_dialect_t dialect : {DBDF_DIALECT_SPEC, DBDF_DIALECT_DAPHNE}) {
        SCOPED_TRACE(dbdf_dialect_name(dialect));
        std::vector<dbdf_value_type_t> types;
        for (dbdf_value_type_t type : all_value_types()) {
            if (dialect == DBDF_DIALECT_SPEC || (type != DBDF_VALUE_U16 && type != DBDF_VALUE_I16)) {
                types.push_back(type);
            }
        }
        std::vector<Bytes> columns;
        std::vector<Misaligned> moved;
        std::vector<std::string> names;
        for (dbdf_value_type_t type : types) {
            columns.push_back(sample_values(type));
            moved.emplace_back(columns.back());
            names.push_back(dbdf_value_type_name(type));
        }
        std::vector<const char*> labels;
        for (const std::string& name : names) labels.push_back(name.c_str());
        auto write_frame = [&](bool misaligned) {
            dbdf_writer_options_t writer_options = DBDF_WRITER_OPTIONS_INIT;
            writer_options.dialect = dialect;
            dbdf_writer_t* raw = nullptr;
            EXPECT_EQ(dbdf_writer_open_memory_with_options(&writer_options, &raw), DBDF_OK);
            WriterHandle writer(raw);
            EXPECT_EQ(dbdf_writer_begin_frame(writer.get(), kRows, types.size(), types.data(), labels.data(), nullptr),
                      DBDF_OK)
                << dbdf_last_error_message();
            dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
            options.block_rows = 3;
            for (std::size_t column = 0; column < types.size(); ++column) {
                const void* at = misaligned ? moved[column].data() : columns[column].data();
                EXPECT_EQ(dbdf_writer_write_column(writer.get(), column, types[column], at, kRows, &options), DBDF_OK)
                    << dbdf_last_error_message();
            }
            EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
            return finished_bytes(writer.get());
        };
        const Bytes aligned = write_frame(false);
        EXPECT_GT(aligned.size(), 0u);
        EXPECT_EQ(write_frame(true), aligned);
    }
}

namespace {

// A kRows x kCols matrix of `type` holding dense, CSR and COO blocks (3 x 2 tiles, each encoding in turn), so that
// every read below decodes every block type.
Bytes mixed_blocks_file(dbdf_value_type_t type) {
    const Bytes values = sample_values(type);
    const std::size_t size = dbdf_value_type_size(type);
    return written_matrix(type, DBDF_DATA_DENSE, [&](dbdf_writer_t* writer) {
        const dbdf_encoding_t encodings[] = {DBDF_ENCODING_DENSE, DBDF_ENCODING_CSR, DBDF_ENCODING_COO};
        int next = 0;
        for (std::uint32_t row = 0; row < kRows; row += 3) {
            for (std::uint32_t col = 0; col < kCols; col += 2) {
                dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
                options.encoding = encodings[next++ % 3];
                const std::uint32_t rows = std::min<std::uint32_t>(3, kRows - row);
                const std::uint32_t cols = std::min<std::uint32_t>(2, kCols - col);
                const dbdf_status_t status =
                    dbdf_writer_add_dense(writer, row, col, rows, cols, type, &values[(row * kStride + col) * size],
                                          (rows - 1) * kStride + cols, kStride, &options);
                if (status != DBDF_OK) return status;
            }
        }
        return DBDF_OK;
    });
}

// Runs `read` into an aligned output of `bytes` bytes and into a misaligned one, both pre-filled with 0xA5 (so
// cells a strided read leaves alone are compared too), and expects the same bytes.
void expect_same_output(std::size_t bytes, const std::function<dbdf_status_t(void*)>& read) {
    Bytes aligned(bytes, 0xA5);
    Misaligned moved(aligned);
    ASSERT_OK(read(aligned.data()));
    ASSERT_OK(read(moved.data()));
    EXPECT_EQ(moved.bytes(), aligned);
}

}  // namespace

TEST(CapiUnalignedArrays, DenseReadsGiveTheValuesOfAlignedOutputs) {
    for (dbdf_value_type_t type : all_value_types()) {
        SCOPED_TRACE(dbdf_value_type_name(type));
        const Bytes file = mixed_blocks_file(type);
        ReaderHandle reader = memory_reader(file);
        const std::size_t size = dbdf_value_type_size(type);
        const std::size_t count = kRows * kStride;
        expect_same_output(count * size,
                           [&](void* out) { return dbdf_reader_read_dense(reader.get(), type, out, count, kStride); });
        expect_same_output(count * size, [&](void* out) {
            return dbdf_reader_read_dense_window(reader.get(), type, 1, 1, kRows - 2, kCols - 1, out, count, kStride);
        });
        expect_same_output(kRows * size,
                           [&](void* out) { return dbdf_reader_read_column(reader.get(), 3, type, out, kRows); });
        // The aligned read gives the values written, bit for bit (-0.0 and the NaN payload included).
        Bytes read(count * size, 0);
        ASSERT_OK(dbdf_reader_read_dense(reader.get(), type, read.data(), count, kStride));
        const Bytes written = sample_values(type);
        for (std::size_t row = 0; row < kRows; ++row) {
            EXPECT_TRUE(std::equal(written.begin() + row * kStride * size,
                                   written.begin() + (row * kStride + kCols) * size,
                                   read.begin() + row * kStride * size))
                << "row " << row;
        }
    }
}

TEST(CapiUnalignedArrays, BlockDecodesGiveTheValuesOfAlignedOutputs) {
    for (dbdf_value_type_t type : all_value_types()) {
        SCOPED_TRACE(dbdf_value_type_name(type));
        const Bytes file = mixed_blocks_file(type);
        ReaderHandle reader = memory_reader(file);
        const std::size_t size = dbdf_value_type_size(type);
        dbdf_block_info_t block;
        int blocks = 0;
        while (dbdf_reader_next_block(reader.get(), &block) == DBDF_OK) {
            SCOPED_TRACE("block " + std::to_string(blocks++));
            const std::size_t stride = block.cols + 1;
            const std::size_t capacity = block.rows * stride;
            expect_same_output(capacity * size, [&](void* out) {
                return dbdf_reader_block_decode_dense(reader.get(), type, out, capacity, stride);
            });
            std::uint64_t entries = 0;
            ASSERT_OK(dbdf_reader_block_count_entries(reader.get(), &entries));
            ASSERT_GT(entries, 0u);
            const std::size_t offsets = block.rows + 1;
            // All three outputs of one call misaligned at once, against all three aligned.
            auto decode_csr = [&](bool misaligned) {
                std::vector<std::uint64_t> row_offsets(offsets);
                std::vector<std::uint32_t> cols(entries);
                Bytes values(entries * size);
                Misaligned moved_offsets(row_offsets), moved_cols(cols), moved_values(values);
                std::uint64_t out_entries = 0;
                EXPECT_STATUS(DBDF_OK,
                              dbdf_reader_block_decode_csr(
                                  reader.get(), type,
                                  misaligned ? static_cast<std::uint64_t*>(moved_offsets.data()) : row_offsets.data(),
                                  offsets, misaligned ? static_cast<std::uint32_t*>(moved_cols.data()) : cols.data(),
                                  misaligned ? moved_values.data() : values.data(), entries, &out_entries));
                EXPECT_EQ(out_entries, entries);
                if (!misaligned)
                    return std::vector<Bytes>{Misaligned(row_offsets).bytes(), Misaligned(cols).bytes(), values};
                return std::vector<Bytes>{moved_offsets.bytes(), moved_cols.bytes(), moved_values.bytes()};
            };
            EXPECT_EQ(decode_csr(true), decode_csr(false));
            auto decode_coo = [&](bool misaligned) {
                std::vector<std::uint32_t> rows(entries), cols(entries);
                Bytes values(entries * size);
                Misaligned moved_rows(rows), moved_cols(cols), moved_values(values);
                std::uint64_t out_entries = 0;
                EXPECT_STATUS(DBDF_OK, dbdf_reader_block_decode_coo(
                                           reader.get(), type,
                                           misaligned ? static_cast<std::uint32_t*>(moved_rows.data()) : rows.data(),
                                           misaligned ? static_cast<std::uint32_t*>(moved_cols.data()) : cols.data(),
                                           misaligned ? moved_values.data() : values.data(), entries, &out_entries));
                EXPECT_EQ(out_entries, entries);
                if (!misaligned) return std::vector<Bytes>{Misaligned(rows).bytes(), Misaligned(cols).bytes(), values};
                return std::vector<Bytes>{moved_rows.bytes(), moved_cols.bytes(), moved_values.bytes()};
            };
            EXPECT_EQ(decode_coo(true), decode_coo(false));
        }
        EXPECT_EQ(blocks, 9);
    }
}

TEST(CapiUnalignedArrays, WholeCsrReadGivesTheArraysOfAlignedOutputs) {
    for (dbdf_value_type_t type : all_value_types()) {
        SCOPED_TRACE(dbdf_value_type_name(type));
        const Bytes file = mixed_blocks_file(type);
        ReaderHandle reader = memory_reader(file);
        const std::size_t size = dbdf_value_type_size(type);
        std::uint64_t entries = 0;
        ASSERT_OK(dbdf_reader_count_entries(reader.get(), &entries));
        const SparseArrays expected = sparse_arrays(sample_values(type), size);
        ASSERT_EQ(entries, expected.cols64.size());
        std::vector<std::uint64_t> zero_offsets(kRows + 1), zero_cols(entries);
        Misaligned offsets(zero_offsets), cols(zero_cols), values(Bytes(entries * size));
        std::uint64_t out_entries = 0;
        ASSERT_OK(dbdf_reader_read_csr(reader.get(), type, static_cast<std::uint64_t*>(offsets.data()), kRows + 1,
                                       static_cast<std::uint64_t*>(cols.data()), values.data(), entries, &out_entries));
        EXPECT_EQ(out_entries, entries);
        EXPECT_EQ(offsets.bytes(), Misaligned(expected.row_offsets).bytes());
        EXPECT_EQ(cols.bytes(), Misaligned(expected.cols64).bytes());
        EXPECT_EQ(values.bytes(), expected.values);
    }
}
