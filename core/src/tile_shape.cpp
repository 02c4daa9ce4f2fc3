#include "dbdf/tile_shape.hpp"

#include <algorithm>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf {
namespace {

// Bytes of values in an automatic tile or row band: large enough that block headers and per-block work vanish
// beside the values, small enough that a tile's buffer stays modest.
constexpr std::uint64_t kTargetBlockBytes = std::uint64_t{4} << 20;

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); }

std::string shape_text(std::uint64_t rows, std::uint64_t cols) {
    return std::to_string(rows) + " x " + std::to_string(cols);
}

// Rows of a full-width band of `cols` values of `type`: about kTargetBlockBytes, at least one row.
std::uint32_t band_rows(std::uint64_t rows, std::uint64_t cols, ValueType type) {
    const std::uint64_t row_bytes = cols * std::max<std::size_t>(value_size(type), 1);  // cols < 2^32: no overflow
    const std::uint64_t wanted = std::max<std::uint64_t>(1, kTargetBlockBytes / row_bytes);
    return static_cast<std::uint32_t>(std::min({wanted, rows, kMaxBlockExtent}));
}

}  // namespace

BlockPlacement default_tile(std::uint64_t rows, std::uint64_t cols, ValueType type) {
    if (rows == 0 || cols == 0) return BlockPlacement{0, 0, 0, 0};
    const std::uint64_t value_bytes = std::max<std::size_t>(value_size(type), 1);
    std::uint64_t block_cols = std::min(cols, kMaxBlockExtent);
    if (block_cols * value_bytes > kTargetBlockBytes) block_cols = kTargetBlockBytes / value_bytes;
    std::uint64_t block_rows = std::max<std::uint64_t>(1, kTargetBlockBytes / (block_cols * value_bytes));
    block_rows = std::min({block_rows, rows, kMaxBlockExtent});
    return BlockPlacement{0, 0, static_cast<std::uint32_t>(block_rows), static_cast<std::uint32_t>(block_cols)};
}

BlockPlacement tile_shape(const ObjectHeader& header, ValueType type, const WriteOptions& options) {
    BlockPlacement tile = default_tile(header.rows, header.cols, type);
    if (options.block_rows != 0) tile.rows = options.block_rows;
    if (options.block_cols != 0) tile.cols = options.block_cols;
    return tile;
}

BlockPlacement chosen_tile_shape(Dialect dialect, DataType data_type, ValueType type, std::uint64_t rows,
                                 std::uint64_t cols, const WriteOptions& options) {
    if (!is_valid(type)) {
        invalid("value type code " + std::to_string(static_cast<unsigned>(type)) + " is not one of " +
                value_type_name_range());
    }
    const bool scalar = data_type == DataType::Scalar;
    if (!is_valid(data_type) && !scalar) {
        invalid("data type code " + std::to_string(static_cast<unsigned>(data_type)) + " is unknown");
    }
    if (scalar && dialect != Dialect::Daphne) invalid("the spec dialect has no scalar data type");
    if (scalar && (rows != 1 || cols != 1)) invalid("a scalar is 1 x 1, not " + shape_text(rows, cols));
    if (dialect == Dialect::Daphne && (rows > kMaxBlockExtent || cols > kMaxBlockExtent)) {
        invalid("a " + shape_text(rows, cols) +
                " object cannot be written in the daphne dialect: its single block "
                "holds the dimensions as uint32, so they must stay below 2^32");
    }
    if (rows == 0 || cols == 0) return BlockPlacement{0, 0, 0, 0};  // rule 4: no blocks

    if (data_type == DataType::Frame) {
        // Every block of a frame is one column wide: a column has one value type.
        if (dialect == Dialect::Daphne) return BlockPlacement{0, 0, static_cast<std::uint32_t>(rows), 1};
        const std::uint32_t block_rows =
            options.block_rows != 0 ? options.block_rows : default_tile(rows, 1, type).rows;
        return BlockPlacement{0, 0, block_rows, 1};
    }
    if (dialect == Dialect::Daphne) {
        // One block per object. A dense matrix's values lie in it row-major, so its writer takes it as full-width
        // row bands in order, each written as it comes: bands of the size of a spec tile keep a caller's buffers
        // small. A CSR matrix's row offsets all come before its first column index, so it goes whole.
        const auto height =
            data_type == DataType::DenseMatrix ? band_rows(rows, cols, type) : static_cast<std::uint32_t>(rows);
        return BlockPlacement{0, 0, height, static_cast<std::uint32_t>(cols)};
    }
    ObjectHeader header;
    header.data_type = data_type;
    header.value_type = type;
    header.rows = rows;
    header.cols = cols;
    return tile_shape(header, type, options);
}

}  // namespace dbdf
