// The columns of one Arrow batch: a row band of the object, decoded into buffers the batch owns, or lent from the
// reader's memory where the block already has Arrow's layout.
#pragma once

#include <vector>

#include "arrow_bands.hpp"
#include "arrow_nodes.hpp"
#include "dbdf/arrow.hpp"
#include "dbdf/reader.hpp"

namespace dbdf::detail {

// At most this many bytes of values in one batch of a frame or a dense matrix: a band holding more (a tall block,
// or an empty block, which costs the file nothing) goes out in slices of whole rows, so that what a small file can
// make the stream allocate stays bounded. A single row is never cut.
inline constexpr std::uint64_t kMaxBatchBytes = std::uint64_t{64} << 20;

// The widest frame or dense matrix exported: one row of it must fit a batch of about kMaxBatchBytes (2^24 columns of
// 8 bytes: 128 MiB).
inline constexpr std::uint64_t kMaxArrowColumns = std::uint64_t{1} << 24;

// The widest frame or dense matrix exported with a field per column (a frame; a dense matrix unless dense_as_list):
// every column costs the stream a schema field and, in every batch, a child array of its own (about 210 and 315
// bytes), and a dense matrix's columns cost the file nothing (one empty block covers them all), so the bound keeps
// that at about 34 MiB, within the bound of a batch's values; it is also the widest table the Spark source reads
// (TableShape.MAX_COLUMNS). A fixed-size list per row costs one field whatever the width.
inline constexpr std::uint64_t kMaxArrowFields = std::uint64_t{1} << 16;

struct BatchSource {
    Reader& reader;
    const std::vector<BlockView>& index;
    const ArrowExportOptions& options;
};

// The rows of one batch of CSR arrays: its row offsets ((rows + 1) * 8 bytes) fit kMaxBatchBytes.
inline constexpr std::uint64_t kMaxCsrArraysRows = kMaxBatchBytes / sizeof(std::uint64_t) - 1;

// The most rows one batch of the object may hold (kMaxBatchBytes of values, at least one row; for CSR arrays,
// kMaxCsrArraysRows); no bound for CSR triplets, whose batches are cut by entries (arrow_csr_entries.hpp).
std::uint64_t max_batch_rows(const ObjectHeader& header, const ArrowExportOptions& options);

// The columns of `band` (a band, or a slice of one) of a frame or a dense matrix: for a frame one per column, for a
// dense matrix one per matrix column (or one fixed-size list). Buffers go to `storage`. The columns that are not
// lent are decoded with one Reader::read_dense_windows(), on the reader's decode threads. (A CSR matrix's batches
// come from CsrBatches, arrow_csr_entries.hpp.)
std::vector<ColumnArray> band_columns(const BatchSource& source, const RowBand& band, BatchStorage& storage);

}  // namespace dbdf::detail
