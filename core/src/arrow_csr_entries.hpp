// The batches of a CSR matrix: each row band's entries decoded once, in row order, by the band's first batch and
// kept until its last, so that a band cut into many batches (slices of rows for CSR arrays, runs of entries for
// triplets) is decoded once, not once per batch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "arrow_batches.hpp"

namespace dbdf::detail {

// The entries of a band's blocks, row-major: rows object-wide and non-decreasing, each row's columns increasing
// (object-wide), values in the object's value type (value_size bytes each). Sized by the entries the blocks store,
// never by the band's rows, so bounded by the file.
struct BandEntries {
    std::vector<std::uint64_t> rows;
    std::vector<std::uint64_t> cols;
    std::vector<std::byte> values;

    std::uint64_t count() const { return rows.size(); }
};

// Decodes every block of `band` as COO and puts the entries in row order: a stable sort on the row, since blocks
// come ordered by column and each block's entries row by row.
BandEntries decode_band_entries(const BatchSource& source, const RowBand& band);

// The most entries in one batch of CSR triplets: their rows, columns and values (16 + value_size bytes each) fit
// kMaxBatchBytes. For u8 values, 3,947,580 entries; for f64, 2,796,202.
std::uint64_t max_triplet_entries(ValueType type);

// A CSR matrix's batches, band after band.
class CsrBatches {
public:
    // The columns of the next batch of `band`: (row, col, value) of at most max_triplet_entries() entries, or the
    // CSR arrays of a slice of at most kMaxCsrArraysRows rows (arrow_csr_arrays.hpp). Sets `band_done` when the
    // batch is the band's last; the band's entries are dropped then. A band without entries gives one batch.
    std::vector<ColumnArray> next(const BatchSource& source, const RowBand& band, BatchStorage& storage,
                                  bool& band_done);

private:
    std::optional<BandEntries> entries_;  // of the band being exported
    std::uint64_t next_entry_ = 0;        // triplets: where the next batch starts in entries_
    std::uint64_t next_row_ = 0;          // arrays: the object row where the next slice starts
};

}  // namespace dbdf::detail
