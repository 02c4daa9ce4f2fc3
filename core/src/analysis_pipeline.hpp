// The spec writer's pipeline for the tiles of a whole dense matrix: the values of the tiles ahead are analysed on
// helper threads, and on the caller's thread whenever it has no analysed tile to write, while the caller's thread
// encodes and writes in tile order, so that automatic encoding costs no more than writing.
#pragma once

#include <cstddef>
#include <functional>

#include "block_facts.hpp"

namespace dbdf::detail {

// Where an analysis runs: on a helper thread, ahead of the writes, or on the caller's thread, which writes too (so
// whatever it spends there, the writes wait for). Work that only pays off when another thread writes meanwhile, such
// as placing a payload for the kernel's copy, is for helpers only.
enum class AnalysingThread { Helper, Writer };

using TileAnalysis = std::function<BlockFacts(std::size_t tile, AnalysingThread thread)>;

// Calls emit(i, analyse(i, thread)) for every tile i in [0, tiles), emit in order and always on the caller's thread.
// With `threads` of 2 or more and several tiles, analyse runs on threads - 1 helper threads and on the caller's thread
// too: every thread takes the next tile not yet taken, and the caller's thread does so whenever the next tile to write
// is still being analysed. No tile is analysed more than `threads` tiles ahead of the next one written (its facts wait
// in memory until it is), and no more than one per thread that could be started. The first exception of either, in tile
// order, is rethrown once every helper has stopped; no tile after it is emitted, and once an analysis has failed no
// further tile is taken (those already taken are analysed and dropped).
void run_analysis_pipeline(std::size_t tiles, unsigned threads, const TileAnalysis& analyse,
                           const std::function<void(std::size_t, const BlockFacts&)>& emit);

}  // namespace dbdf::detail
