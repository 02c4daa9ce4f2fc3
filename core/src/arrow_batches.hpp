// The columns of one Arrow batch: a row band of the object, decoded into buffers the batch owns, or lent from the
// reader's memory where the block already has Arrow's layout.
#pragma once

#include <vector>

#include "arrow_bands.hpp"
#include "arrow_nodes.hpp"
#include "dbdf/arrow.hpp"
#include "dbdf/reader.hpp"

namespace dbdf::detail {

struct BatchSource {
    Reader& reader;
    const std::vector<BlockView>& index;
    const ArrowExportOptions& options;
};

// The columns of `band`: for a frame one per column, for a dense matrix one per matrix column (or one fixed-size
// list), for a CSR matrix (row, col, value) in row-major order. Buffers go to `storage`.
std::vector<ColumnArray> band_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage);

}  // namespace dbdf::detail
