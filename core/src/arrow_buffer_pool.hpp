// The buffers of released Arrow batches, kept for the next batches of the same stream: a consumer that releases a
// batch before pulling the one after next gets memory whose pages are already mapped, instead of fresh pages the
// kernel faults in one by one (that first touch costs more than the decoding). Bounded: at most two batches' worth
// is held, and the pool dies with the stream (batches released later free their buffers).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace dbdf::detail {

// A buffer aligned to 64 bytes, as Arrow recommends, and the bytes it holds.
struct OwnedBuffer {
    struct Free {
        void operator()(std::byte* bytes) const;
    };
    std::unique_ptr<std::byte[], Free> bytes;
    std::size_t capacity = 0;

    static OwnedBuffer allocate(std::size_t capacity);  // never zero-filled
};

class BufferPool {
public:
    // Buffers smaller than this come from the allocator: its own free lists serve them well.
    static constexpr std::size_t kSmallestPooled = std::size_t{64} << 10;

    // A buffer of at least `bytes` bytes: a pooled one no more than twice that size, else a new one.
    OwnedBuffer take(std::size_t bytes);
    // Keeps `buffer` for a later take() while the pool holds less than twice the largest batch; frees it otherwise.
    void give_back(OwnedBuffer buffer);
    // Tells the pool that one batch's buffers hold `bytes`: the pool keeps up to two such batches.
    void note_batch(std::size_t bytes);
    std::size_t held_bytes() const;

private:
    mutable std::mutex mutex_;
    std::vector<OwnedBuffer> free_buffers_;
    std::size_t held_bytes_ = 0;
    std::size_t largest_batch_bytes_ = 0;
};

}  // namespace dbdf::detail
