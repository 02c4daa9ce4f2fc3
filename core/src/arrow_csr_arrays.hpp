// A CSR matrix's row band as its CSR arrays in one Arrow batch (ArrowSparseLayout::Arrays).
#pragma once

#include <vector>

#include "arrow_batches.hpp"

namespace dbdf::detail {

// The four columns of the one-row batch of `band` (a band, or a slice of one of at most kMaxCsrArraysRows rows):
// row_begin, then row_offsets (rows + 1, from 0), col and value as one-row large lists, the entries row-major and
// each row's columns increasing. Buffers go to `storage`; scratch is sized by the entries of the band's blocks.
std::vector<ColumnArray> csr_arrays(const BatchSource& source, const RowBand& band, BatchStorage& storage);

}  // namespace dbdf::detail
