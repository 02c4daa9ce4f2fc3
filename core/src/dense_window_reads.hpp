// Decoding windows of an object on the reader's decode threads: each window's part of each block, cut into pieces
// of about kPieceBytes, all the windows' pieces shared out together.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "byte_source.hpp"
#include "dbdf/reader.hpp"
#include "window_lookup.hpp"

namespace dbdf::detail {

// Whole-object reads decode dense blocks in pieces of about this many output bytes, so that threads share even
// a single large block.
inline constexpr std::uint64_t kPieceBytes = std::uint64_t{4} << 20;

// Decodes each of `reads` (checked by the caller: inside the object, room in `out`, no window empty, no two
// writing the same memory) from the blocks of `index`. The pieces run on the threads decode_threads() gives for
// `threads_setting` when the source allows concurrent reads, on the calling thread alone otherwise. A failure is
// the one of the first failing piece in file order, as a read on one thread would have met it.
void decode_dense_windows(const ByteSource& source, const ObjectHeader& header, const std::vector<BlockView>& index,
                          const WindowLookup& lookup, std::span<const DenseWindowRead> reads, unsigned threads_setting);

}  // namespace dbdf::detail
