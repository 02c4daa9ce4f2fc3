// Decoding a rectangle of a dense, sparse or empty block from a byte source, reading only the bytes it needs in
// bounded pieces: the step that block-by-block dense decoding and whole-object reads share.
#pragma once

#include <cstdint>

#include "block_decoder.hpp"
#include "byte_source.hpp"

namespace dbdf::detail {

// The most bytes one read of a dense block's values brings into `buffer` before they are decoded: large enough that
// the system call costs nothing next to the copy, small enough to stay in the processor's cache for the decode.
inline constexpr std::uint64_t kDenseReadBytes = std::uint64_t{1} << 20;

// Decodes `target` of `block` (decode_block_dense's contract). Where the source lends memory the block is decoded
// in place. Otherwise: values that need no conversion and lie back to back both in the file and in the output are
// read straight into the output; other dense values are read at most kDenseReadBytes at a time into `buffer` and
// converted from there; a sparse block's payload is read whole into `buffer` (it is bounded by the file's size).
// Throws what decode_block_dense throws, and Error(Io) when the file shrank since it was opened.
void read_block_dense(const ByteSource& source, const BlockView& block, const ObjectHeader& header,
                      const DenseTarget& target, ByteBuffer& buffer);

// The entries a block yields as CSR / COO (count_block_entries), reading a dense block's values at most
// kDenseReadBytes at a time; sparse and empty blocks are counted from their record alone.
std::uint64_t count_entries_of(const ByteSource& source, const BlockView& block, ByteBuffer& buffer);

}  // namespace dbdf::detail
