// Shared by the converters that write .dbdf: the output settings and the tile-by-tile writing of a matrix or
// frame whose values come from a gather function, so no input is ever held whole in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "../handles.hpp"
#include "../typed_values.hpp"

namespace dbdf_cli {

struct OutputSettings {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;  // encoding and block shape (0: automatic)
    bool keep_blocks = false;                                // --encoding as-is (dbdf to dbdf)
    dbdf_value_type_t value_type = DBDF_VALUE_NONE;          // --value-type, NONE: from the input
    int data_type = 0;                                       // --data-type, 0: from the input (see tile_shape)
    dbdf_dialect_t input_dialect = DBDF_DIALECT_SPEC;        // --dialect-in
    dbdf_dialect_t output_dialect = DBDF_DIALECT_SPEC;       // --dialect-out (daphne: one block per object)
    bool write_meta = true;                                  // daphne output: <OUT>.meta, unless --no-meta
};

// The writer of a conversion's output and the output's path, which every error of the writer names.
struct OutputTarget {
    dbdf_writer_t* writer = nullptr;
    std::string path;

    // Throws CliError for a failed writer call: "<path>: <where>: <the library's message>".
    void check(dbdf_status_t status, const std::string& where) const;
};

struct TileShape {
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
};

// The block shape the writer chooses (dbdf_writer_tile_shape) for the output's dialect, data type (settings.data_type,
// 0 taken as a dense matrix), shape and value type, and settings.options' block sizes: tiles of about 4 MiB or the
// ones asked for; in the daphne dialect a dense matrix's full-width row bands of about 4 MiB, a CSR matrix, a scalar
// or a frame's column whole. Never 0 x 0: an object without cells gets 1 x 1, which visits nothing.
TileShape tile_shape(const OutputSettings& settings, std::uint64_t rows, std::uint64_t cols, dbdf_value_type_t type);

// Fills `out` (rows x cols values, row-major, of the buffer's type) with the source's cells at (row, col): every
// cell, since `out` is reused from tile to tile and holds what an earlier tile left there.
using GatherTile =
    std::function<void(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols, TypedBuffer& out)>;

// Whether the source may hold a non-zero value in the tile at (row, col); a tile that cannot is written without
// gathering it (see write_matrix_tiles).
using TileMayHoldValues =
    std::function<bool(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols)>;

// The values of the tile at (row, col) where they lie in the source, row-major in the tile's type, valid until the
// next call; nullptr when they do not lie so (they are gathered then).
using BorrowTile =
    std::function<const void*(std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols)>;

// Writes every tile of a rows x cols matrix, in row-major tile order, from values of `source_type`. When `borrow` is
// given, every tile it gives is written from where it lies, without a copy (tile_supply.hpp). A matrix without
// cells (rows or cols 0) has no tiles: nothing is visited, however long its other side. When `may_hold_values` is
// given (spec output only) and says a tile holds only zeros, the tile is not gathered: it is added as a COO block
// without entries, which the writer stores as an empty block (or, for --encoding csr or coo, an empty one of those),
// so the work follows the blocks written rather than the cells they cover. With --encoding dense it is still written
// as zeros, since that is what the output must hold.
void write_matrix_tiles(const OutputTarget& output, std::uint64_t rows, std::uint64_t cols,
                        dbdf_value_type_t source_type, const OutputSettings& settings, const GatherTile& gather,
                        const TileMayHoldValues& may_hold_values = nullptr, const BorrowTile& borrow = nullptr);

// One non-zero of a sparse source: its object-wide position and its value's bytes in the source's value type.
struct SparseEntry {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint8_t value[8] = {};
};

// Writes a rows x cols matrix whose non-zeros are `entries` (values of `source_type`), sorted by (row, column)
// without duplicates. Time and memory follow the number of entries and of blocks, never the matrix's area: each
// tile is handed to the writer as COO triplets (the writer's encoding then decides how it is stored), tiles without
// entries become empty blocks, and with the automatic tile shape runs of rows without entries become empty blocks of
// up to 2^32 - 1 rows. A shape that would need more than 2^18 blocks is refused with a CliError.
void write_sparse_tiles(const OutputTarget& output, std::uint64_t rows, std::uint64_t cols,
                        dbdf_value_type_t source_type, const OutputSettings& settings,
                        std::span<const SparseEntry> entries);

// Writes a frame column by column, one block per column per row range.
void write_frame_columns(const OutputTarget& output, std::uint64_t rows,
                         const std::vector<dbdf_value_type_t>& source_types, const OutputSettings& settings,
                         const GatherTile& gather);

}  // namespace dbdf_cli
