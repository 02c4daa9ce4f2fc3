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

class SpareBuffers {
public:
    // A buffer of at least `bytes`, with its size in `capacity`: the smallest spare that is large enough, or new
    // memory (not zeroed: whoever takes it stores every byte it reads).
    std::unique_ptr<std::byte[]> take(std::size_t bytes, std::size_t& capacity);

    // Keeps `buffer` (of `capacity` bytes) unless it is too large or the spares are full; then it replaces the
    // smallest spare if it is larger. Safe from any thread, as take() is. Never throws: it runs in destructors, and
    // a buffer that cannot be kept (no memory for the list of spares) is freed instead.
    void give_back(std::unique_ptr<std::byte[]> buffer, std::size_t capacity) noexcept;

    // One per thread that analyses when write_dense picks the thread count itself.
    static constexpr std::size_t kSpares = kMostAutomaticEncodeThreads;
    static constexpr std::size_t kLargestSpare = std::size_t{8} << 20;

private:
    struct Spare {
        std::unique_ptr<std::byte[]> buffer;
        std::size_t capacity = 0;
    };

    std::mutex mutex_;
    std::vector<Spare> spares_;
};

}  // namespace dbdf::detail
