#include "spare_buffers.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dbdf::detail {

std::size_t huge_page_span(std::size_t bytes) {
    const std::size_t whole = bytes / kHugePageBytes * kHugePageBytes;
    return bytes - whole >= kHugePageBytes / 2 ? whole + kHugePageBytes : whole;
}

void FreeSpareBuffer::operator()(std::byte* bytes) const noexcept { std::free(bytes); }

SpareBuffer allocate_spare_buffer(std::size_t bytes, std::size_t& capacity) {
    if (bytes < kHugePageBytes) {
        void* memory = std::malloc(bytes == 0 ? 1 : bytes);
        if (memory == nullptr) throw std::bad_alloc();
        capacity = bytes;
        return SpareBuffer(static_cast<std::byte*>(memory));
    }
    if (bytes > SIZE_MAX - kHugePageBytes) throw std::bad_alloc();
    const std::size_t huge = huge_page_span(bytes);
    const std::size_t size = std::max(bytes, huge);
    void* memory = nullptr;
    if (::posix_memalign(&memory, kHugePageBytes, size) != 0) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Only a hint: without huge pages (disabled, or none free) the buffer works the same in small pages. Past the
    // span the kernel keeps small pages, unless huge pages are on for all memory.
    (void)::madvise(memory, huge, MADV_HUGEPAGE);
#endif
    capacity = size;
    return SpareBuffer(static_cast<std::byte*>(memory));
}

SpareBuffer SpareBuffers::take(std::size_t bytes, std::size_t& capacity) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        Spare* best = nullptr;
        for (Spare& spare : spares_) {
            if (spare.capacity >= bytes && (best == nullptr || spare.capacity < best->capacity)) best = &spare;
        }
        if (best != nullptr) {
            capacity = best->capacity;
            SpareBuffer buffer = std::move(best->buffer);
            *best = std::move(spares_.back());
            spares_.pop_back();
            return buffer;
        }
    }
    return allocate_spare_buffer(bytes, capacity);
}

void SpareBuffers::give_back(SpareBuffer buffer, std::size_t capacity) noexcept {
    if (buffer == nullptr || capacity > kLargestSpare) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (spares_.size() < kSpares) {
        try {
            spares_.push_back(Spare{std::move(buffer), capacity});
        } catch (const std::bad_alloc&) {
            // `buffer` is freed on the way out; the next block allocates anew.
        }
        return;
    }
    Spare* smallest = &spares_.front();
    for (Spare& spare : spares_) {
        if (spare.capacity < smallest->capacity) smallest = &spare;
    }
    if (smallest->capacity < capacity) *smallest = Spare{std::move(buffer), capacity};
}

}  // namespace dbdf::detail
