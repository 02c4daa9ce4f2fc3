// Where a writer's bytes go: a file (atomic replace), a growable memory buffer, or a caller callback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace dbdf {

class ByteSink {
public:
    virtual ~ByteSink() = default;
    // Appends bytes. Throws Error(Io / Sink) on failure.
    virtual void write(std::span<const std::byte> bytes) = 0;
    // Makes everything written durable and visible (file: fsync + rename). Called once by Writer::finish.
    virtual void commit() {}
};

// Writes to a temporary file next to `target`; commit() fsyncs and renames it over `target`. Destroying the
// sink without commit() removes the temporary file; an existing `target` is never touched before commit().
std::unique_ptr<ByteSink> make_file_sink(const std::filesystem::path& target);

class MemorySink final : public ByteSink {
public:
    void write(std::span<const std::byte> bytes) override;
    const std::vector<std::byte>& bytes() const { return bytes_; }

private:
    std::vector<std::byte> bytes_;
};

// Calls `write` for each piece; a false return fails the write with Error(Sink).
class CallbackSink final : public ByteSink {
public:
    explicit CallbackSink(std::function<bool(std::span<const std::byte>)> write) : write_(std::move(write)) {}
    void write(std::span<const std::byte> bytes) override;

private:
    std::function<bool(std::span<const std::byte>)> write_;
};

}  // namespace dbdf
