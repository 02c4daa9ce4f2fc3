// The block shapes the writer chooses: the tiles its tiling helpers cut an object into, and the row bands in which a
// daphne dense matrix, one block in the file, is best handed to it piece by piece. Programs that feed a writer
// block by block (the dbdf tool's converters) ask here, so that they cut objects exactly as the writer would.
#pragma once

#include <cstdint>

#include "dbdf/dialect.hpp"
#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

namespace dbdf {

// The tiles write_dense and write_csr cut a matrix of the spec dialect into: options.block_rows x
// options.block_cols where they are not 0, default_tile's extents where they are. Only the shape is set.
BlockPlacement tile_shape(const ObjectHeader& header, ValueType type, const WriteOptions& options);

// The shape of the pieces in which a writer of `dialect` takes an object of `data_type` (rows x cols values of
// `type`; for a frame, the type of the column at hand):
// - spec dialect: a matrix's tiles as tile_shape() gives them; a frame's column in blocks of options.block_rows
//   rows (0: default_tile's rows for a one-column object), one column wide, as write_column writes it.
// - daphne dialect, whose objects are one block each: a dense matrix in full-width row bands of about 4 MiB (at
//   least one row), which its writer takes one after the other; a CSR matrix and a scalar whole; a frame's column
//   whole (rows x 1). Block sizes in `options` do not apply.
// An object without cells (rows or cols 0) has no blocks (rule 4): 0 x 0. Throws Error(InvalidArgument) for a
// data type the dialect has no object of (a scalar in the spec dialect, or one that is not 1 x 1), a value type
// that is not u8..f64, and in the daphne dialect a dimension of 2^32 or more, which its writer refuses.
BlockPlacement chosen_tile_shape(Dialect dialect, DataType data_type, ValueType type, std::uint64_t rows,
                                 std::uint64_t cols, const WriteOptions& options);

}  // namespace dbdf
