// A CSR matrix's row band as its CSR arrays in one Arrow batch (ArrowSparseLayout::Arrays).
#pragma once

#include <vector>

#include "arrow_batches.hpp"
#include "arrow_csr_entries.hpp"

namespace dbdf::detail {

// The four columns of the one-row batch of `slice` (a band, or a slice of one of at most kMaxCsrArraysRows rows)
// from the band's entries: row_begin, then row_offsets (rows + 1, from 0), col and value as one-row large lists, the
// entries row-major and each row's columns increasing. Buffers go to `storage`; the cost is the slice's rows and
// entries, whatever the band holds besides.
std::vector<ColumnArray> csr_arrays(const BandEntries& band_entries, const RowBand& slice, std::size_t value_bytes,
                                    BatchStorage& storage);

}  // namespace dbdf::detail
