// libFuzzer target: the fuzzer chooses a matrix (shape, value type, values), a block shape and an encoding; the
// matrix is written and read back, and must come back bit for bit. Exercises the writer's automatic choice of
// block type and value type against the reader.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    InputCursor input(data, size);
    const std::uint64_t rows = input.byte() % 40;
    const std::uint64_t cols = input.byte() % 40;
    const auto type = static_cast<dbdf::ValueType>(1 + input.byte() % 10);
    const auto encoding = static_cast<dbdf::Encoding>(input.byte() % 5);
    const auto data_type = input.byte() % 2 ? dbdf::DataType::CsrMatrix : dbdf::DataType::DenseMatrix;
    const std::uint32_t block_rows = 1 + input.byte() % 16;
    const std::uint32_t block_cols = 1 + input.byte() % 16;
    const std::size_t width = dbdf::value_size(type);
    // Values: the remaining bytes, repeated to fill the matrix; a zero run keeps sparse encodings reachable.
    std::vector<std::uint8_t> values(rows * cols * width, 0);
    const auto rest = input.rest();
    for (std::size_t i = 0; i < values.size() && !rest.empty(); ++i) {
        const std::uint8_t byte = rest[i % rest.size()];
        values[i] = (i / width) % 3 == 0 ? byte : 0;
    }
    dbdf::Writer writer(std::make_unique<dbdf::MemorySink>());
    writer.begin_matrix(data_type, type, rows, cols);
    writer.write_dense(type, values.data(), rows * cols, 0, dbdf::WriteOptions{encoding, block_rows, block_cols});
    writer.finish();
    const auto& bytes = static_cast<dbdf::MemorySink&>(writer.sink()).bytes();
    dbdf::Reader reader = dbdf::Reader::open_memory(bytes);
    if (reader.validate({}) != 0) std::abort();
    std::vector<std::uint8_t> read_back(values.size());
    reader.read_dense_window(type, dbdf::Window{0, 0, rows, cols}, read_back.data(), rows * cols, 0);
    if (read_back != values) std::abort();
    // The automatic encoding is never larger than plain dense blocks of the given type.
    if (encoding == dbdf::Encoding::Auto) {
        std::uint64_t dense_bytes = reader.header_bytes();
        for (const auto& block : reader.build_index()) {
            dense_bytes += 16 + dbdf::dense_block_bytes(block.rows, block.cols, type);
            if (block.encoded_bytes > 16 + dbdf::dense_block_bytes(block.rows, block.cols, type)) std::abort();
        }
        if (bytes.size() > dense_bytes) std::abort();
    }
    return 0;
}
