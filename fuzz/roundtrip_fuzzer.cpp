// libFuzzer target: the fuzzer chooses an object (dense or CSR matrix, or a frame with a value type per column), its
// values, the way it is handed to the writer (a dense array, CSR arrays, COO triplets per tile, frame columns), a
// block shape, an encoding and the dialect; the object is written and read back, and must come back bit for bit.
// Exercises the writer's automatic choice of block type and value type, every input form and both dialects'
// writers against the reader.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dbdf/block.hpp"
#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"

namespace {

// Consumes bytes from the front of the fuzzer input.
class InputCursor {
public:
    InputCursor(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t byte() { return size_ > 0 ? (--size_, *data_++) : 0; }
    std::span<const std::uint8_t> rest() const { return {data_, size_}; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
};

// How the values reach the writer.
enum class InputForm { DenseArray, CsrArrays, CooTiles, FrameColumns };

// `count` values of `width` bytes from the fuzzer's bytes, repeated to fill them; two values in three are zero so
// that the sparse encodings stay reachable.
std::vector<std::uint8_t> fill_values(std::span<const std::uint8_t> bytes, std::size_t count, std::size_t width,
                                      std::size_t start) {
    std::vector<std::uint8_t> values(count * width, 0);
    for (std::size_t i = 0; i < values.size() && !bytes.empty(); ++i) {
        values[i] = (i / width) % 3 == 0 ? bytes[(start + i) % bytes.size()] : 0;
    }
    return values;
}

bool is_zero(const std::uint8_t* value, std::size_t width) {
    return std::all_of(value, value + width, [](std::uint8_t byte) { return byte == 0; });
}

// The matrix's non-zero cells as CSR arrays over the whole object (what write_csr takes).
void add_as_csr(dbdf::Writer& writer, dbdf::ValueType type, std::uint64_t rows, std::uint64_t cols,
                const std::vector<std::uint8_t>& values, const dbdf::WriteOptions& options) {
    const std::size_t width = dbdf::value_size(type);
    std::vector<std::uint64_t> row_offsets{0};
    std::vector<std::uint64_t> col_indices;
    std::vector<std::uint8_t> entries;
    for (std::uint64_t r = 0; r < rows; ++r) {
        for (std::uint64_t c = 0; c < cols; ++c) {
            const std::uint8_t* value = &values[(r * cols + c) * width];
            if (is_zero(value, width)) continue;
            col_indices.push_back(c);
            entries.insert(entries.end(), value, value + width);
        }
        row_offsets.push_back(col_indices.size());
    }
    writer.write_csr(type, row_offsets.data(), col_indices.data(), entries.data(), col_indices.size(), options);
}

// Each tile's non-zero cells as COO triplets, in row-major order within the tile, tiles in row-major order.
void add_as_coo_tiles(dbdf::Writer& writer, dbdf::ValueType type, std::uint64_t rows, std::uint64_t cols,
                      const std::vector<std::uint8_t>& values, const dbdf::WriteOptions& options) {
    const std::size_t width = dbdf::value_size(type);
    for (std::uint64_t row = 0; row < rows; row += options.block_rows) {
        const auto height = static_cast<std::uint32_t>(std::min<std::uint64_t>(options.block_rows, rows - row));
        for (std::uint64_t col = 0; col < cols; col += options.block_cols) {
            const auto tile_width = static_cast<std::uint32_t>(std::min<std::uint64_t>(options.block_cols, cols - col));
            std::vector<std::uint32_t> row_indices, col_indices;
            std::vector<std::uint8_t> entries;
            for (std::uint32_t r = 0; r < height; ++r) {
                for (std::uint32_t c = 0; c < tile_width; ++c) {
                    const std::uint8_t* value = &values[((row + r) * cols + col + c) * width];
                    if (is_zero(value, width)) continue;
                    row_indices.push_back(r);
                    col_indices.push_back(c);
                    entries.insert(entries.end(), value, value + width);
                }
            }
            writer.add_coo(dbdf::BlockPlacement{row, col, height, tile_width}, type, row_indices.data(),
                           col_indices.data(), entries.data(), row_indices.size(), options);
        }
    }
}

// A matrix written in `form`; its values read back row-major must equal the input.
void round_trip_matrix(InputCursor& input, dbdf::Dialect dialect, InputForm form, dbdf::Encoding encoding,
                       const dbdf::WriteOptions& options) {
    const std::uint64_t rows = input.byte() % 40;
    const std::uint64_t cols = input.byte() % 40;
    auto type = static_cast<dbdf::ValueType>(1 + input.byte() % 10);
    // The daphne dialect has no code for i16 and u16 (DIALECT.md): the next wider type stands in.
    if (dialect == dbdf::Dialect::Daphne && type == dbdf::ValueType::I16) type = dbdf::ValueType::I32;
    if (dialect == dbdf::Dialect::Daphne && type == dbdf::ValueType::U16) type = dbdf::ValueType::U32;
    const auto data_type = form == InputForm::DenseArray && input.byte() % 2 == 0 ? dbdf::DataType::DenseMatrix
                                                                                  : dbdf::DataType::CsrMatrix;
    const std::size_t width = dbdf::value_size(type);
    const std::vector<std::uint8_t> values = fill_values(input.rest(), rows * cols, width, 0);

    dbdf::Writer writer(std::make_unique<dbdf::MemorySink>(), dbdf::WriterDialect{dialect});
    writer.begin_matrix(data_type, type, rows, cols);
    switch (form) {
        case InputForm::DenseArray: writer.write_dense(type, values.data(), rows * cols, 0, options); break;
        case InputForm::CsrArrays: add_as_csr(writer, type, rows, cols, values, options); break;
        default: add_as_coo_tiles(writer, type, rows, cols, values, options); break;
    }
    writer.finish();
    const auto& bytes = static_cast<dbdf::MemorySink&>(writer.sink()).bytes();
    dbdf::Reader reader = dbdf::Reader::open_memory(bytes, dialect);
    if (reader.validate({}) != 0) std::abort();
    std::vector<std::uint8_t> read_back(values.size());
    reader.read_dense_window(type, dbdf::Window{0, 0, rows, cols}, read_back.data(), rows * cols, 0);
    if (read_back != values) std::abort();
    // The automatic encoding is never larger than plain dense blocks of the given type.
    if (dialect == dbdf::Dialect::Spec && encoding == dbdf::Encoding::Auto) {
        std::uint64_t dense_bytes = reader.header_bytes();
        for (const auto& block : reader.build_index()) {
            const std::uint64_t plain = 16 + dbdf::dense_block_bytes(block.rows, block.cols, type);
            dense_bytes += plain;
            if (block.encoded_bytes > plain) std::abort();
        }
        if (bytes.size() > dense_bytes) std::abort();
    }
}

// A frame of up to 8 columns, each of its own value type, written column by column; every column reads back.
void round_trip_frame(InputCursor& input, dbdf::Dialect dialect, const dbdf::WriteOptions& options) {
    const std::uint64_t rows = input.byte() % 40;
    const std::size_t columns = input.byte() % 8;
    std::vector<dbdf::ValueType> types;
    std::vector<std::string> labels;
    for (std::size_t c = 0; c < columns; ++c) {
        auto type = static_cast<dbdf::ValueType>(1 + input.byte() % 10);
        if (dialect == dbdf::Dialect::Daphne && type == dbdf::ValueType::I16) type = dbdf::ValueType::I32;
        if (dialect == dbdf::Dialect::Daphne && type == dbdf::ValueType::U16) type = dbdf::ValueType::U32;
        types.push_back(type);
        // Distinct (rule 16): each column's label repeats its own letter, 1 to 4 times.
        labels.push_back(std::string(1 + input.byte() % 4, static_cast<char>('a' + c)));
    }
    std::vector<std::vector<std::uint8_t>> column_values;
    for (std::size_t c = 0; c < columns; ++c) {
        column_values.push_back(fill_values(input.rest(), rows, dbdf::value_size(types[c]), c * 7));
    }
    dbdf::Writer writer(std::make_unique<dbdf::MemorySink>(), dbdf::WriterDialect{dialect});
    writer.begin_frame(rows, types, labels);
    for (std::size_t c = 0; c < columns; ++c) writer.write_column(c, types[c], column_values[c].data(), rows, options);
    writer.finish();
    const auto& bytes = static_cast<dbdf::MemorySink&>(writer.sink()).bytes();
    dbdf::Reader reader = dbdf::Reader::open_memory(bytes, dialect);
    if (reader.validate({}) != 0) std::abort();
    for (std::size_t c = 0; c < columns; ++c) {
        std::vector<std::uint8_t> read_back(column_values[c].size());
        reader.read_dense_window(types[c], dbdf::Window{0, c, rows, 1}, read_back.data(), rows, 0);
        if (read_back != column_values[c]) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    InputCursor input(data, size);
    const std::uint8_t choice = input.byte();
    const auto form = static_cast<InputForm>(choice % 4);
    // The daphne dialect's matrices are one block of the object's own type, written by write_dense or write_csr.
    const bool daphne = (choice / 4) % 4 == 0 && form != InputForm::CooTiles;
    const dbdf::Dialect dialect = daphne ? dbdf::Dialect::Daphne : dbdf::Dialect::Spec;
    const auto encoding = static_cast<dbdf::Encoding>(input.byte() % 5);
    const std::uint32_t block_rows = 1 + input.byte() % 16;
    const std::uint32_t block_cols = 1 + input.byte() % 16;
    const dbdf::WriteOptions options{daphne ? dbdf::Encoding::Auto : encoding, block_rows, block_cols};
    if (form == InputForm::FrameColumns) {
        round_trip_frame(input, dialect, options);
    } else {
        round_trip_matrix(input, dialect, form, encoding, options);
    }
    return 0;
}
