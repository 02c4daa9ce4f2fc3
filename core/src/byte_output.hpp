// Buffers encoded bytes and hands them to the sink in large pieces, so encoders can emit field by field.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "dbdf/endian.hpp"
#include "dbdf/sink.hpp"

namespace dbdf::detail {

class ByteOutput {
public:
    static constexpr std::size_t kBufferBytes = 1 << 20;

    explicit ByteOutput(ByteSink& sink) : sink_(&sink) { buffer_.reserve(kBufferBytes); }

    template <class T>
    void put(T value) {
        if (buffer_.size() + sizeof(T) > kBufferBytes) flush();
        const std::size_t at = buffer_.size();
        buffer_.resize(at + sizeof(T));
        store_le<T>(buffer_.data() + at, value);
    }

    void put_bytes(std::span<const std::byte> bytes) {
        if (buffer_.size() + bytes.size() > kBufferBytes) flush();
        if (bytes.size() >= kBufferBytes) {
            sink_->write(bytes);
            written_ += bytes.size();
            return;
        }
        buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    }

    void flush() {
        if (buffer_.empty()) return;
        sink_->write(buffer_);
        written_ += buffer_.size();
        buffer_.clear();
    }

    // Bytes accepted so far, buffered or not.
    std::uint64_t total() const { return written_ + buffer_.size(); }

private:
    ByteSink* sink_;
    std::vector<std::byte> buffer_;
    std::uint64_t written_ = 0;
};

}  // namespace dbdf::detail
