#include "spare_buffers.hpp"

#include <new>

namespace dbdf::detail {

std::unique_ptr<std::byte[]> SpareBuffers::take(std::size_t bytes, std::size_t& capacity) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        Spare* best = nullptr;
        for (Spare& spare : spares_) {
            if (spare.capacity >= bytes && (best == nullptr || spare.capacity < best->capacity)) best = &spare;
        }
        if (best != nullptr) {
            capacity = best->capacity;
            std::unique_ptr<std::byte[]> buffer = std::move(best->buffer);
            *best = std::move(spares_.back());
            spares_.pop_back();
            return buffer;
        }
    }
    capacity = bytes;
    return std::unique_ptr<std::byte[]>(new std::byte[bytes]);
}

void SpareBuffers::give_back(std::unique_ptr<std::byte[]> buffer, std::size_t capacity) noexcept {
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
