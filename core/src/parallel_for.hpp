// Running independent pieces of work on a few threads, with the same outcome as running them in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace dbdf::detail {

// Runs work(i) for every i in [0, count), on up to `threads` threads including the caller's; each thread takes the
// next undone i until none is left. When some work(i) throws, the pieces after it that were not started are
// skipped, every thread is joined, and the exception of the lowest i that threw is rethrown: since every lower
// piece was started before it, that is the exception running the pieces in order would have thrown.
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work);

// The processors this process may run on: the size of the calling thread's affinity mask where the system has one
// (Linux: taskset, a container's cpuset), else the processors online; at least 1. A process pinned to 2 of 64
// processors gains nothing from a thread per online processor, only threads that wait for each other. Read on each
// call (a system call, under a microsecond, where the online count reads a sysfs file, 7 microseconds).
unsigned usable_processors();

// The most threads an explicit setting starts: max(kMostThreadsAtLeast, usable_processors()). Every thread holds
// work in memory (decoding: a piece's buffers; encoding: the facts of a tile analysed ahead of the writing, up to
// half the tile's bytes), so the count must not follow an unchecked setting (a Rust caller's u32::MAX) up to one
// thread per piece: on a 64 GiB matrix that would hold the narrowed values of every tile at once.
inline constexpr unsigned kMostThreadsAtLeast = 64;
unsigned most_threads();

// The threads worth using for `work_bytes` of decoding with the setting `threads` (0: automatic, one per core for
// work large enough that starting threads pays; otherwise as many as asked, at most most_threads()).
unsigned decode_threads(unsigned threads, std::size_t pieces, std::uint64_t work_bytes);

// At most this many threads encode when the setting is automatic. Fewer than for decoding, since one thread writes
// every tile in order: once the analysers keep ahead of it, more of them only hold more tiles' facts in memory.
inline constexpr unsigned kMostAutomaticEncodeThreads = 4;

// The threads worth using to encode `work_bytes` in `pieces` tiles with the setting `threads` (0: automatic, one
// per core, at most kMostAutomaticEncodeThreads, for work large enough, one otherwise; never more than one per
// tile, nor more than most_threads()).
unsigned encode_threads(unsigned threads, std::size_t pieces, std::uint64_t work_bytes);

}  // namespace dbdf::detail
