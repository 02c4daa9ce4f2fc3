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
    // Appends `first`, then `second`, as one write where the sink can (a file: one writev()), so that a small
    // record header and the large payload after it fill the file's pages together.
    virtual void write_pair(std::span<const std::byte> first, std::span<const std::byte> second) {
        write(first);
        write(second);
    }
    // A hint that about `bytes` more bytes will follow, so that a file sink can have the file system allocate their
    // space at once, as numpy.save does (extents found once instead of block by block as the writes come). Never
    // needed for correctness: more or fewer bytes may follow, and a sink may ignore it (the default).
    virtual void reserve(std::uint64_t bytes) { (void)bytes; }
    // Makes everything written visible (file: moves it over the target, as its FileCommit says). Called once by
    // Writer::finish.
    virtual void commit() {}
};

// What a file sink's commit() guarantees once it returns.
enum class FileCommit : std::uint8_t {
    // The finished file replaces the target in one atomic step: readers see the old file or the new one, never a
    // part of either, and a failed or abandoned write leaves the old file as it was. After a system crash (power
    // loss) the new contents may not have reached the disk; like numpy.save and most writers, nothing is synced.
    Atomic = 0,
    // Also syncs the file's data before it replaces the target and the directory afterwards, so the new file
    // survives a system crash. Costs a flush of the data to the disk.
    Durable = 1,
};

// Writes to a temporary file next to `target`; commit() moves it over `target` as `commit_mode` says. Destroying
// the sink without commit() removes the temporary file; an existing `target` is never touched before commit().
std::unique_ptr<ByteSink> make_file_sink(const std::filesystem::path& target,
                                         FileCommit commit_mode = FileCommit::Atomic);

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
