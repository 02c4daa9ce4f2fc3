// Arrow's C stream interface over a reader: an object's values exported as record batches, one per row band of
// blocks, produced as the consumer pulls them (docs/arrow.md has the mapping and the ownership rules).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "dbdf/arrow_c_data.h"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"

namespace dbdf {

// How a dense matrix becomes columns.
enum class ArrowMatrixLayout : std::uint8_t {
    Columns = 0,        // one field per matrix column: c0, c1, ...
    FixedSizeList = 1,  // one field "values": a fixed-size list of `cols` values per row
};

// How a CSR matrix becomes columns.
enum class ArrowSparseLayout : std::uint8_t {
    Triplets = 0,  // row, col, value: one entry per stored non-zero, a batch as long as its entries
    Arrays = 1,    // row_begin, row_offsets, col, value: a band's CSR arrays as one-row large lists per batch
};

struct ArrowExportOptions {
    ArrowMatrixLayout dense_layout = ArrowMatrixLayout::Columns;
    ArrowSparseLayout sparse_layout = ArrowSparseLayout::Triplets;
    // Whether batches may point into memory the reader lends (Reader::lends_memory()) instead of copies. Only for
    // a reader that lives as long as every batch: each such batch holds the reader's shared pointer.
    bool zero_copy = false;
    // Held by the stream and by every batch it produced; dropped when the stream and the last of them are released.
    std::shared_ptr<const void> keep_alive;
};

// The Arrow format string of `type` ("C" for u8 ... "g" for f64); nullptr for None and codes outside the list.
const char* arrow_format(ValueType type);

// Fills *out with a stream over the reader's object. The stream reads through `reader` (it moves the reader's
// block position) and keeps the shared pointer until it is released. Only the header is read here; the block
// index is built when the first batch is pulled. Errors while pulling go to the stream's get_last_error().
void export_arrow_stream(std::shared_ptr<Reader> reader, ArrowExportOptions options, ArrowArrayStream* out);

struct ArrowImportOptions {
    // A dense matrix of the columns' one value type instead of a frame.
    bool as_matrix = false;
    // Arrow booleans become u8 0 / 1; without it they are refused.
    bool booleans_as_u8 = false;
};

// The value type of an Arrow format string; nullopt for formats dbdf has no value type for.
std::optional<ValueType> value_type_of_arrow_format(std::string_view format);

// Writes the record batches of `stream` (a struct per batch) as a frame of `rows` rows, or a dense matrix, with
// `writer` (not begun): the header, then each batch's columns as blocks with automatic encoding as the batch
// arrives, released before the next is pulled. Does not finish the writer. Always releases the stream. Throws
// Error(Unsupported) for a column whose Arrow type has no value type (naming the column and the type),
// Error(Format) for a null value (the format has none) or a stream that does not deliver `rows` rows, and the
// stream's own error as Error(Io).
void import_arrow_stream(ArrowArrayStream* stream, Writer& writer, std::uint64_t rows,
                         const ArrowImportOptions& options);

}  // namespace dbdf
