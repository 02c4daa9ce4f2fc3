// A caller's random-access byte source read through a read-at function, with a bounded read-ahead window that
// coalesces the small reads of the index walk (docs/byte-sources.md).
#pragma once

#include <memory>

#include "byte_source.hpp"
#include "dbdf/reader.hpp"

namespace dbdf::detail {

// Checks the read-ahead size and, when the size is unknown, finds it by probing (a few one-byte reads). Throws
// Error(InvalidArgument) for a read-ahead above kMaxReadAheadBytes and what the read-at function throws.
std::unique_ptr<ByteSource> make_callback_source(ReadAtSource source);

}  // namespace dbdf::detail
