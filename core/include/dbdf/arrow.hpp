// Arrow's C stream interface over a reader: an object's values exported as record batches, one per row band of
// blocks, produced as the consumer pulls them (docs/arrow.md has the mapping and the ownership rules).
#pragma once

#include <cstdint>
#include <memory>

#include "dbdf/arrow_c_data.h"
#include "dbdf/reader.hpp"

namespace dbdf {

// How a dense matrix becomes columns.
enum class ArrowMatrixLayout : std::uint8_t {
    Columns = 0,        // one field per matrix column: c0, c1, ...
    FixedSizeList = 1,  // one field "values": a fixed-size list of `cols` values per row
};

struct ArrowExportOptions {
    ArrowMatrixLayout dense_layout = ArrowMatrixLayout::Columns;
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

}  // namespace dbdf
