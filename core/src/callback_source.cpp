#include "callback_source.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf::detail {
namespace {

constexpr std::size_t kDefaultReadAheadBytes = std::size_t{64} << 10;

// The read-ahead window is filled only as far as the bytes already asked for pay for it: the bytes fetched never
// exceed the bytes the reader asked for plus one window. A walk over small records then reads a window at a time,
// while a walk over records far apart (large payloads between them) soon fetches each record alone instead of a
// window of payload it skips: the bound the counting tests assert.
//
// A source that allows concurrent reads is read from the decode threads too: the window is then shared under a
// mutex (small reads are the index walk's, on the calling thread, so the lock is rarely contended), while reads as
// large as the window go to the callback without it, several at once.
class CallbackSource final : public ByteSource {
public:
    CallbackSource(ReadAtSource source, std::uint64_t size, std::size_t window_bytes)
        : read_(std::move(source.read_at)),
          size_(size),
          window_bytes_(window_bytes),
          concurrent_reads_(source.concurrent_reads) {}

    std::uint64_t size() const override { return size_; }
    bool concurrent_reads() const override { return concurrent_reads_; }
    std::uint64_t first_header_read_bytes() const override { return 64; }

    std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const override {
        if (offset >= size_) return 0;
        const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(destination.size(), size_ - offset));
        asked_bytes_.fetch_add(length, std::memory_order_relaxed);
        std::size_t copied = 0;
        while (copied < length) {
            const std::uint64_t position = offset + copied;
            const std::size_t remaining = length - copied;
            if (remaining < window_bytes_ || window_holds(position)) {
                copied += copy_through_window(position, destination.data() + copied, remaining);
                continue;
            }
            read_fully(position, destination.data() + copied, remaining);  // straight to the caller's memory
            copied += remaining;
        }
        return length;
    }

private:
    bool window_holds(std::uint64_t position) const {
        const std::lock_guard lock(window_mutex_);
        return position >= window_first_ && position < window_first_ + window_size_;
    }

    // Copies what the window holds from `position` (filling it there first when it holds nothing), at most
    // `remaining` bytes, and returns how many it copied.
    std::size_t copy_through_window(std::uint64_t position, std::byte* destination, std::size_t remaining) const {
        const std::lock_guard lock(window_mutex_);
        if (position < window_first_ || position >= window_first_ + window_size_) fill_window(position, remaining);
        const auto count =
            static_cast<std::size_t>(std::min<std::uint64_t>(remaining, window_first_ + window_size_ - position));
        std::memcpy(destination, window_data_ + (position - window_first_), count);
        return count;
    }

    // Reads [position, position + bytes) through the callback, asking again after short reads.
    void read_fully(std::uint64_t position, std::byte* destination, std::size_t bytes) const {
        std::size_t done = 0;
        while (done < bytes) {
            const std::size_t got = read_(position + done, {destination + done, bytes - done});
            if (got > bytes - done) {
                throw Error(ErrorCode::Io,
                            "the byte source returned " + std::to_string(got) + " bytes at byte " +
                                std::to_string(position + done) + " where " + std::to_string(bytes - done) +
                                " were asked for",
                            0, position + done);
            }
            if (got == 0) {
                throw Error(ErrorCode::Io,
                            "the byte source ended at byte " + std::to_string(position + done) +
                                " although it declared " + std::to_string(size_) + " bytes",
                            0, position + done);
            }
            done += got;
            fetched_bytes_.fetch_add(got, std::memory_order_relaxed);
        }
    }

    // Fills the window from `position` with at least `needed` bytes, and as many more as the budget allows. Called
    // with window_mutex_ held.
    void fill_window(std::uint64_t position, std::size_t needed) const {
        const std::uint64_t asked = asked_bytes_.load(std::memory_order_relaxed);
        const std::uint64_t fetched = fetched_bytes_.load(std::memory_order_relaxed);
        const std::uint64_t allowed = window_bytes_ + asked > fetched ? window_bytes_ + asked - fetched : 0;
        const auto fill = static_cast<std::size_t>(std::min<std::uint64_t>(
            {std::max<std::uint64_t>(needed, allowed), std::uint64_t{window_bytes_}, size_ - position}));
        window_size_ = 0;  // a failing read leaves no window behind
        std::byte* data = window_storage_.reserve(fill);
        read_fully(position, data, fill);
        window_data_ = data;
        window_first_ = position;
        window_size_ = fill;
    }

    std::function<std::size_t(std::uint64_t, std::span<std::byte>)> read_;
    std::uint64_t size_;
    std::size_t window_bytes_;
    bool concurrent_reads_;
    mutable std::mutex window_mutex_;  // guards the window (only contended when reads are concurrent)
    mutable ByteBuffer window_storage_;
    mutable const std::byte* window_data_ = nullptr;
    mutable std::uint64_t window_first_ = 0;
    mutable std::uint64_t window_size_ = 0;
    mutable std::atomic<std::uint64_t> asked_bytes_ = 0;    // bytes the reader asked for, all reads together
    mutable std::atomic<std::uint64_t> fetched_bytes_ = 0;  // bytes the callback delivered
};

// Whether the source holds a byte at `offset`: a one-byte read that returns 0 only past the end.
bool holds_byte_at(const ReadAtSource& source, std::uint64_t offset) {
    std::byte probe{};
    return source.read_at(offset, {&probe, 1}) > 0;
}

// The size of a source that does not declare it: about 2 log2(size) one-byte reads (doubling, then bisecting),
// never the whole source.
std::uint64_t probe_size(const ReadAtSource& source) {
    if (!holds_byte_at(source, 0)) return 0;
    std::uint64_t known = 1;      // the source holds at least this many bytes
    std::uint64_t beyond = 4095;  // the first offset tried past what is known
    while (holds_byte_at(source, beyond)) {
        known = beyond + 1;
        if (beyond > (std::uint64_t{1} << 62)) throw Error(ErrorCode::Io, "the byte source does not end");
        beyond = beyond * 2 + 1;
    }
    std::uint64_t limit = beyond;  // the source holds fewer than limit + 1 bytes
    while (known < limit) {
        const std::uint64_t middle = known + (limit - known) / 2;
        if (holds_byte_at(source, middle)) {
            known = middle + 1;
        } else {
            limit = middle;
        }
    }
    return known;
}

}  // namespace

std::unique_ptr<ByteSource> make_callback_source(ReadAtSource source) {
    if (!source.read_at) throw Error(ErrorCode::InvalidArgument, "the byte source has no read function");
    if (source.read_ahead > kMaxReadAheadBytes) {
        throw Error(ErrorCode::InvalidArgument, "the read-ahead window of " + std::to_string(source.read_ahead) +
                                                    " bytes is larger than the most allowed, " +
                                                    std::to_string(kMaxReadAheadBytes));
    }
    const std::size_t window_bytes = source.read_ahead == 0 ? kDefaultReadAheadBytes : source.read_ahead;
    const std::uint64_t size = source.size ? *source.size : probe_size(source);
    return std::make_unique<CallbackSource>(std::move(source), size, window_bytes);
}

}  // namespace dbdf::detail
