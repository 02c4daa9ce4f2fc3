// Buffers encoded bytes and hands them to the sink in large pieces, so encoders can emit field by field.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "dbdf/endian.hpp"
#include "copy_bytes.hpp"
#include "dbdf/sink.hpp"

namespace dbdf::detail {

class ByteOutput {
public:
    static constexpr std::size_t kBufferBytes = 1 << 20;
    static constexpr std::size_t kDirectBytes = kBufferBytes / 4;

    // The buffer is not zeroed: only what is put is read. Zeroing it cost a write of 1 MiB, and a page fault for each
    // of its pages, per writer, when most writers use a few of them (a dense matrix's headers, its payloads going
    // straight to the sink): about 5% of the time of writing a 4 MiB matrix (bench/RESULTS.md, "Small writes").
    explicit ByteOutput(ByteSink& sink)
        : sink_(&sink), buffer_(std::make_unique_for_overwrite<std::byte[]>(kBufferBytes)) {}

    // One field: a bounds check and a store into the preallocated buffer.
    template <class T>
    void put(T value) {
        if (used_ + sizeof(T) > kBufferBytes) flush();
        store_le<T>(buffer_.get() + used_, value);
        used_ += sizeof(T);
    }

    void put_bytes(std::span<const std::byte> bytes) {
        // Large runs go straight to the sink, together with what is buffered: copying them into the buffer first
        // would cost a pass over them (a block narrowed to one byte per value is a run of 512 KiB).
        if (bytes.size() >= kDirectBytes) {
            sink_->write_pair(std::span<const std::byte>(buffer_.get(), used_), bytes);
            written_ += used_ + bytes.size();
            used_ = 0;
            return;
        }
        if (used_ + bytes.size() > kBufferBytes) flush();
        if (!bytes.empty()) copy_bytes(buffer_.get() + used_, bytes.data(), bytes.size());
        used_ += bytes.size();
    }

    // Space in the buffer for at least `bytes` (at most kBufferBytes), flushing what is there when it has less:
    // an encoder that stores many values in one loop writes them here, then calls advance.
    std::span<std::byte> room(std::size_t bytes) {
        if (kBufferBytes - used_ < bytes) flush();
        return std::span<std::byte>(buffer_.get() + used_, kBufferBytes - used_);
    }

    // Takes the first `bytes` of room() as written.
    void advance(std::size_t bytes) { used_ += bytes; }

    void flush() {
        if (used_ == 0) return;
        sink_->write(std::span<const std::byte>(buffer_.get(), used_));
        written_ += used_;
        used_ = 0;
    }

    // Bytes accepted so far, buffered or not.
    std::uint64_t total() const { return written_ + used_; }

    // Bytes accepted and not yet handed to the sink.
    std::size_t buffered() const { return used_; }

private:
    ByteSink* sink_;
    std::unique_ptr<std::byte[]> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
};

}  // namespace dbdf::detail
