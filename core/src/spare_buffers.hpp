// Buffers of a writer's finished blocks, kept for its next blocks. write_dense analyses a tile on one thread and
// frees the tile's buffers on the thread that wrote it; glibc then gives that memory back to the kernel, and the
// next tile's buffer, new memory, takes a page fault every 4 KiB (a 2 MiB buffer of floats per 4 MiB tile cost more
// than its analysis). Bounded: a few buffers of at most 8 MiB each, freed with the writer that owns them.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "parallel_for.hpp"

namespace dbdf::detail {

struct FreeSpareBuffer {
    void operator()(std::byte* bytes) const noexcept;
};

// Memory for a block's values, from allocate_spare_buffer.
using SpareBuffer = std::unique_ptr<std::byte[], FreeSpareBuffer>;

// The size from which a buffer is allocated in whole transparent huge pages (x86-64's 2 MiB).
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// The bytes at the start of a new buffer of `bytes` (kHugePageBytes or more) that are asked to be backed by huge
// pages: the whole huge pages it holds, and one more for a rest of half a huge page or more. A shorter rest, as the
// up to 4 KiB a placed payload adds to its 4 MiB, stays in small pages, so that a huge page of 2 MiB is not made
// resident (and zeroed by the kernel) for a few KiB.
std::size_t huge_page_span(std::size_t bytes);

// New memory of at least `bytes` (not zeroed), with its usable size in `capacity`. From kHugePageBytes on, the
// buffer is aligned to that size, and its first huge_page_span(bytes) bytes (the buffer is extended to them when
// they are more) are asked to be backed by transparent huge pages (Linux's madvise; a system that has them off gives
// 4 KiB pages as before). Such a buffer holds a tile's payload copied for the kernel, which then walks two
// page-table entries per 4 MiB instead of 1024, and takes two page faults on first touch instead of 1024:
// `write_dense` of 512 MiB of random doubles on two threads ran about 10% faster (bench/RESULTS.md). NumPy asks the
// same for its arrays of 4 MiB or more. Throws std::bad_alloc.
SpareBuffer allocate_spare_buffer(std::size_t bytes, std::size_t& capacity);

class SpareBuffers {
public:
    // A buffer of at least `bytes`, with its size in `capacity`: the smallest spare that is large enough, or new
    // memory from allocate_spare_buffer (not zeroed: whoever takes it stores every byte it reads).
    SpareBuffer take(std::size_t bytes, std::size_t& capacity);

    // Keeps `buffer` (of `capacity` bytes) unless it is too large or the spares are full; then it replaces the
    // smallest spare if it is larger. Safe from any thread, as take() is. Never throws: it runs in destructors, and
    // a buffer that cannot be kept (no memory for the list of spares) is freed instead.
    void give_back(SpareBuffer buffer, std::size_t capacity) noexcept;

    // One per thread that analyses when write_dense picks the thread count itself.
    static constexpr std::size_t kSpares = kMostAutomaticEncodeThreads;
    static constexpr std::size_t kLargestSpare = std::size_t{8} << 20;

private:
    struct Spare {
        SpareBuffer buffer;
        std::size_t capacity = 0;
    };

    std::mutex mutex_;
    std::vector<Spare> spares_;
};

}  // namespace dbdf::detail
