// The spec writer's pipeline for the tiles of a whole dense matrix: the values of the tiles ahead are analysed on
// a helper thread while the caller's thread encodes and writes, so that automatic encoding costs no more than
// writing.
#pragma once

#include <cstddef>
#include <functional>

#include "block_facts.hpp"

namespace dbdf::detail {

// Calls emit(i, analyse(i)) for every tile i in [0, tiles), in order, emit always on the caller's thread. With
// `threads` of 2 or more and several tiles, analyse runs on one helper thread, at most a couple of tiles ahead of
// emit, so a tile's values are often still in the cache when they are written. The first exception of either, in
// tile order, is rethrown once the helper has stopped; no tile after it is emitted.
void run_analysis_pipeline(std::size_t tiles, unsigned threads, const std::function<BlockFacts(std::size_t)>& analyse,
                           const std::function<void(std::size_t, const BlockFacts&)>& emit);

}  // namespace dbdf::detail
