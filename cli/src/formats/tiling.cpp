#include "tiling.hpp"

#include <algorithm>

#include "../progress.hpp"

namespace dbdf_cli {
namespace {

constexpr std::uint64_t kTileBytes = std::uint64_t{4} << 20;
constexpr std::uint64_t kMaxExtent = 0xFFFFFFFFull;

}  // namespace

TileShape tile_shape(const OutputSettings& settings, std::uint64_t rows, std::uint64_t cols, dbdf_value_type_t type) {
    TileShape shape;
    if (settings.output_dialect == DBDF_DIALECT_DAPHNE) {
        shape.rows = std::max<std::uint64_t>(rows, 1);
        shape.cols = std::max<std::uint64_t>(cols, 1);
        return shape;
    }
    const std::uint64_t width = std::max<std::size_t>(dbdf_value_type_size(type), 1);
    shape.cols = std::min({std::max<std::uint64_t>(cols, 1), kMaxExtent, kTileBytes / width});
    shape.rows = std::min({std::max<std::uint64_t>(1, kTileBytes / (shape.cols * width)), std::max<std::uint64_t>(rows, 1),
                           kMaxExtent});
    if (settings.options.block_rows != 0) shape.rows = settings.options.block_rows;
    if (settings.options.block_cols != 0) shape.cols = settings.options.block_cols;
    return shape;
}

void write_matrix_tiles(dbdf_writer_t* writer, std::uint64_t rows, std::uint64_t cols, dbdf_value_type_t source_type,
                        const OutputSettings& settings, const GatherTile& gather) {
    const TileShape tile = tile_shape(settings, rows, cols, source_type);
    Progress progress(rows);
    for (std::uint64_t row = 0; row < rows; row += tile.rows) {
        const std::uint64_t height = std::min(tile.rows, rows - row);
        for (std::uint64_t col = 0; col < cols; col += tile.cols) {
            const std::uint64_t width = std::min(tile.cols, cols - col);
            TypedBuffer values(source_type, height * width);
            gather(row, col, height, width, values);
            check(dbdf_writer_add_dense(writer, row, col, static_cast<std::uint32_t>(height),
                                        static_cast<std::uint32_t>(width), source_type, values.data(), values.size(), 0,
                                        &settings.options),
                  "writing the block at (" + std::to_string(row) + ", " + std::to_string(col) + ")");
        }
        progress.update(row + height);
    }
}

void write_frame_columns(dbdf_writer_t* writer, std::uint64_t rows, const std::vector<dbdf_value_type_t>& source_types,
                         const OutputSettings& settings, const GatherTile& gather) {
    Progress progress(source_types.size());
    for (std::uint64_t column = 0; column < source_types.size(); ++column) {
        const TileShape tile = tile_shape(settings, rows, 1, source_types[column]);
        for (std::uint64_t row = 0; row < rows; row += tile.rows) {
            const std::uint64_t height = std::min(tile.rows, rows - row);
            TypedBuffer values(source_types[column], height);
            gather(row, column, height, 1, values);
            check(dbdf_writer_add_dense(writer, row, column, static_cast<std::uint32_t>(height), 1, source_types[column],
                                        values.data(), values.size(), 0, &settings.options),
                  "writing column " + std::to_string(column));
        }
        progress.update(column + 1);
    }
}

}  // namespace dbdf_cli
