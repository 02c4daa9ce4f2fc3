#include "tiling.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

#include "../progress.hpp"
#include "tile_supply.hpp"

namespace dbdf_cli {
namespace {

// Bytes of entries in an automatic sparse tile: the size of the writer's automatic dense tiles.
constexpr std::uint64_t kTileBytes = std::uint64_t{4} << 20;
constexpr std::uint64_t kMaxExtent = 0xFFFFFFFFull;
// Rows of one automatic sparse tile at most, so that a tile's row structure stays small whatever its density.
constexpr std::uint64_t kMaxSparseTileRows = std::uint64_t{1} << 20;
// More blocks than this for one object is refused: they would be empty space for the most part (a 4 x 10^15 matrix
// with two entries needs 931,324 empty blocks of 2^32 - 1 rows), costing a reader who checks the partition about 80
// bytes a block, and the mtx fuzz target found such a file using most of its memory and time limits.
constexpr std::uint64_t kMaxSparseBlocks = std::uint64_t{1} << 18;

std::uint64_t ceil_div(std::uint64_t numerator, std::uint64_t denominator) {
    return numerator / denominator + (numerator % denominator != 0);
}

// Automatic tiles for sparse data: the full width (up to 2^32 - 1 columns) and as many rows as hold about
// kTileBytes of entries at the source's average density.
TileShape sparse_tile_shape(std::uint64_t rows, std::uint64_t cols, std::uint64_t entries, std::size_t width) {
    TileShape shape;
    shape.cols = std::min(std::max<std::uint64_t>(cols, 1), kMaxExtent);
    const std::uint64_t entries_per_row =
        std::max<std::uint64_t>(1, ceil_div(entries, std::max<std::uint64_t>(rows, 1)));
    shape.rows = std::clamp<std::uint64_t>(kTileBytes / ((8 + width) * entries_per_row), 1,
                                           std::min(std::max<std::uint64_t>(rows, 1), kMaxSparseTileRows));
    return shape;
}

}  // namespace

void OutputTarget::check(dbdf_status_t status, const std::string& where) const {
    dbdf_cli::check(status, path + ": " + where);
}

TileShape tile_shape(const OutputSettings& settings, std::uint64_t rows, std::uint64_t cols, dbdf_value_type_t type) {
    const auto data_type =
        static_cast<dbdf_data_type_t>(settings.data_type != 0 ? settings.data_type : DBDF_DATA_DENSE);
    std::uint32_t tile_rows = 0, tile_cols = 0;
    check(dbdf_writer_tile_shape(settings.output_dialect, data_type, type, rows, cols, &settings.options, &tile_rows,
                                 &tile_cols),
          "choosing the block shape");
    // An object without cells has no blocks (0 x 0); callers step by the shape, so it is never 0.
    return TileShape{std::max<std::uint64_t>(tile_rows, 1), std::max<std::uint64_t>(tile_cols, 1)};
}

void write_matrix_tiles(const OutputTarget& output, std::uint64_t rows, std::uint64_t cols,
                        dbdf_value_type_t source_type, const OutputSettings& settings, const GatherTile& gather,
                        const TileMayHoldValues& may_hold_values, const BorrowTile& borrow) {
    // Stepping through the row bands of a matrix without columns (a 2^63 x 0 one, say) would visit no tile at all
    // but could take forever.
    if (rows == 0 || cols == 0) return;
    const TileShape tile = tile_shape(settings, rows, cols, source_type);
    const bool skip_zero_tiles = may_hold_values && settings.output_dialect == DBDF_DIALECT_SPEC &&
                                 settings.options.encoding != DBDF_ENCODING_DENSE;
    // Tiles in row-major order; a tile may_hold_values rules out is cleared or written empty, not gathered.
    TileJob upcoming{0, 0, 0, 0, source_type, TileJob::Fill::gathered};
    auto next_tile = [&, row = std::uint64_t{0}, col = std::uint64_t{0}](TileJob& job) mutable {
        if (row >= rows) return false;
        job = upcoming;
        job.row = row;
        job.col = col;
        job.rows = std::min(tile.rows, rows - row);
        job.cols = std::min(tile.cols, cols - col);
        if (may_hold_values && !may_hold_values(job.row, job.col, job.rows, job.cols)) {
            job.fill = skip_zero_tiles ? TileJob::Fill::none : TileJob::Fill::zeros;
        }
        col += tile.cols;
        if (col >= cols) {
            col = 0;
            row += tile.rows;
        }
        return true;
    };
    TileSupply tiles(next_tile, gather, borrow);
    Progress progress(rows);
    TileJob job;
    const void* values = nullptr;
    while (tiles.next(job, values)) {
        const std::string where = fmt::format("writing the block at ({}, {})", job.row, job.col);
        if (job.fill == TileJob::Fill::none) {
            const std::uint32_t no_index = 0;
            const std::uint64_t no_value = 0;
            output.check(dbdf_writer_add_coo(output.writer, job.row, job.col, static_cast<std::uint32_t>(job.rows),
                                             static_cast<std::uint32_t>(job.cols), source_type, &no_index, &no_index,
                                             &no_value, 0, &settings.options),
                         where);
        } else {
            output.check(dbdf_writer_add_dense(output.writer, job.row, job.col, static_cast<std::uint32_t>(job.rows),
                                               static_cast<std::uint32_t>(job.cols), source_type, values,
                                               job.rows * job.cols, 0, &settings.options),
                         where);
        }
        if (job.col + job.cols == cols) progress.update(job.row + job.rows);
    }
}

void write_sparse_tiles(const OutputTarget& output, std::uint64_t rows, std::uint64_t cols,
                        dbdf_value_type_t source_type, const OutputSettings& settings,
                        std::span<const SparseEntry> entries) {
    if (rows == 0 || cols == 0) return;  // no cells, no blocks: not one step per row band of a 2^63 x 0 matrix
    const std::size_t width = dbdf_value_type_size(source_type);
    // A given block shape, or the daphne dialect's single block, is kept exactly: no merging of empty rows.
    const bool shape_given = settings.options.block_rows != 0 || settings.options.block_cols != 0 ||
                             settings.output_dialect == DBDF_DIALECT_DAPHNE;
    const TileShape tile = shape_given ? tile_shape(settings, rows, cols, source_type)
                                       : sparse_tile_shape(rows, cols, entries.size(), width);
    const std::uint64_t column_tiles = ceil_div(cols, tile.cols);
    // Row bands written: every band with the given shape; otherwise at most the bands holding entries, the empty
    // runs between them, and the 2^32 - 1-row pieces those runs are cut into.
    const std::uint64_t bands = ceil_div(rows, tile.rows);
    const std::uint64_t band_bound =
        shape_given ? bands : std::min(bands, 2 * std::uint64_t{entries.size()} + 1 + rows / kMaxExtent);
    // Daphne bands are pieces of the one block, not blocks of the file: their number follows the dense output's
    // size, which has to be written anyway.
    const bool blocks_of_the_file = settings.output_dialect != DBDF_DIALECT_DAPHNE;
    if (blocks_of_the_file && column_tiles != 0 && band_bound > kMaxSparseBlocks / column_tiles) {
        throw CliError(
            fmt::format("{}: a {} x {} matrix in blocks of {} x {} needs more than {} blocks; choose "
                        "larger blocks with --block",
                        output.path, rows, cols, tile.rows, tile.cols, kMaxSparseBlocks));
    }
    auto add_empty_band = [&](std::uint64_t row, std::uint64_t height) {
        for (std::uint64_t col = 0; col < cols; col += tile.cols) {
            output.check(dbdf_writer_add_empty(output.writer, row, col, static_cast<std::uint32_t>(height),
                                               static_cast<std::uint32_t>(std::min(tile.cols, cols - col))),
                         fmt::format("writing the empty block at ({}, {})", row, col));
        }
    };

    Progress progress(rows);
    std::vector<std::size_t> by_tile;  // the band's entries, ordered by (column tile, row, column)
    std::vector<std::uint32_t> tile_rows, tile_cols;
    std::vector<std::uint8_t> tile_values;
    std::size_t band_begin = 0;
    std::uint64_t empty_since = 0;  // first row of the current run of rows without entries
    for (std::uint64_t row = 0; row < rows;) {
        const std::uint64_t height = std::min(tile.rows, rows - row);
        std::size_t band_end = band_begin;
        while (band_end < entries.size() && entries[band_end].row < row + height) ++band_end;
        if (band_end == band_begin && !shape_given) {
            // Part of an empty run, written when it ends. The run's bands are stepped over at once, to the band of
            // the next entry: a tall matrix with few entries may have billions of them.
            row = band_begin < entries.size() ? entries[band_begin].row - entries[band_begin].row % tile.rows : rows;
            progress.update(row);
            continue;
        }
        for (std::uint64_t run = empty_since; run < row; run += kMaxExtent)
            add_empty_band(run, std::min(kMaxExtent, row - run));

        by_tile.resize(band_end - band_begin);
        std::iota(by_tile.begin(), by_tile.end(), band_begin);
        // Entries are sorted by (row, column): a stable sort by column tile keeps that order within each tile.
        std::stable_sort(by_tile.begin(), by_tile.end(), [&](std::size_t a, std::size_t b) {
            return entries[a].col / tile.cols < entries[b].col / tile.cols;
        });
        std::size_t next = 0;
        for (std::uint64_t col = 0; col < cols; col += tile.cols) {
            const std::uint64_t tile_width = std::min(tile.cols, cols - col);
            tile_rows.clear();
            tile_cols.clear();
            tile_values.clear();
            for (; next < by_tile.size() && entries[by_tile[next]].col < col + tile_width; ++next) {
                const SparseEntry& entry = entries[by_tile[next]];
                tile_rows.push_back(static_cast<std::uint32_t>(entry.row - row));
                tile_cols.push_back(static_cast<std::uint32_t>(entry.col - col));
                tile_values.insert(tile_values.end(), entry.value, entry.value + width);
            }
            const std::string where = fmt::format("writing the block at ({}, {})", row, col);
            if (tile_rows.empty()) {
                output.check(dbdf_writer_add_empty(output.writer, row, col, static_cast<std::uint32_t>(height),
                                                   static_cast<std::uint32_t>(tile_width)),
                             where);
            } else {
                output.check(
                    dbdf_writer_add_coo(output.writer, row, col, static_cast<std::uint32_t>(height),
                                        static_cast<std::uint32_t>(tile_width), source_type, tile_rows.data(),
                                        tile_cols.data(), tile_values.data(), tile_rows.size(), &settings.options),
                    where);
            }
        }
        band_begin = band_end;
        empty_since = row + height;
        row += height;
        progress.update(row);
    }
    for (std::uint64_t run = empty_since; run < rows; run += kMaxExtent)
        add_empty_band(run, std::min(kMaxExtent, rows - run));
}

void write_frame_columns(const OutputTarget& output, std::uint64_t rows,
                         const std::vector<dbdf_value_type_t>& source_types, const OutputSettings& settings,
                         const GatherTile& gather) {
    OutputSettings frame_settings = settings;  // a column's blocks, whatever the input was
    frame_settings.data_type = DBDF_DATA_FRAME;
    // Columns in turn, each in row ranges of its own tile height.
    std::vector<std::uint64_t> tile_rows(source_types.size());
    for (std::size_t column = 0; column < source_types.size(); ++column) {
        tile_rows[column] = tile_shape(frame_settings, rows, 1, source_types[column]).rows;
    }
    auto next_tile = [&, column = std::size_t{0}, row = std::uint64_t{0}](TileJob& job) mutable {
        if (rows == 0 || column >= source_types.size()) return false;
        job = TileJob{
            row, column, std::min(tile_rows[column], rows - row), 1, source_types[column], TileJob::Fill::gathered};
        row += tile_rows[column];
        if (row >= rows) {
            row = 0;
            ++column;
        }
        return true;
    };
    TileSupply tiles(next_tile, gather);
    Progress progress(source_types.size());
    TileJob job;
    const void* values = nullptr;
    while (tiles.next(job, values)) {
        output.check(dbdf_writer_add_dense(output.writer, job.row, job.col, static_cast<std::uint32_t>(job.rows), 1,
                                           job.type, values, job.rows, 0, &settings.options),
                     fmt::format("writing column {} at row {}", job.col, job.row));
        if (job.row + job.rows == rows) progress.update(job.col + 1);
    }
    progress.update(source_types.size());  // a frame without rows has columns but no tiles
}

}  // namespace dbdf_cli
