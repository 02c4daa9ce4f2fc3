#include "arrow_buffer_pool.hpp"

#include <algorithm>
#include <new>

namespace dbdf::detail {

namespace {

constexpr std::align_val_t kBufferAlignment{64};

}  // namespace

void OwnedBuffer::Free::operator()(std::byte* bytes) const { ::operator delete[](bytes, kBufferAlignment); }

OwnedBuffer OwnedBuffer::allocate(std::size_t capacity) {
    const std::size_t size = std::max<std::size_t>(capacity, 1);
    return OwnedBuffer{
        std::unique_ptr<std::byte[], Free>(static_cast<std::byte*>(::operator new[](size, kBufferAlignment))),
        capacity};
}

OwnedBuffer BufferPool::take(std::size_t bytes) {
    if (bytes >= kSmallestPooled) {
        const std::lock_guard lock(mutex_);
        // The smallest buffer that fits, so that a large one stays for a large request.
        auto best = free_buffers_.end();
        for (auto candidate = free_buffers_.begin(); candidate != free_buffers_.end(); ++candidate) {
            if (candidate->capacity >= bytes && candidate->capacity / 2 <= bytes &&
                (best == free_buffers_.end() || candidate->capacity < best->capacity)) {
                best = candidate;
            }
        }
        if (best != free_buffers_.end()) {
            OwnedBuffer buffer = std::move(*best);
            free_buffers_.erase(best);
            held_bytes_ -= buffer.capacity;
            return buffer;
        }
    }
    return OwnedBuffer::allocate(bytes);
}

void BufferPool::give_back(OwnedBuffer buffer) {
    if (buffer.capacity < kSmallestPooled) return;
    const std::lock_guard lock(mutex_);
    if (held_bytes_ + buffer.capacity > 2 * largest_batch_bytes_) return;  // freed as `buffer` goes
    held_bytes_ += buffer.capacity;
    free_buffers_.push_back(std::move(buffer));
}

void BufferPool::note_batch(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    largest_batch_bytes_ = std::max(largest_batch_bytes_, bytes);
}

std::size_t BufferPool::held_bytes() const {
    const std::lock_guard lock(mutex_);
    return held_bytes_;
}

}  // namespace dbdf::detail
