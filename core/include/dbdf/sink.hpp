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
    // Whether large payloads reach this sink faster from a copy at an address congruent to their position in the
    // output modulo 4096 (the writer then has its analysing threads make one, core/src/placed_payload.hpp): true
    // for a file the sink writes from its start through the page cache. A hint; false by default.
    virtual bool places_payloads() const { return false; }
    // Makes everything written visible (file: moves it over the target, as its FileCommit says). Called once by
    // Writer::finish. The default runs the two steps below.
    virtual void commit() {
        prepare_commit();
        publish();
    }
    // Committing in two steps lets a writer make several outputs appear together (the daphne dialect's .dbdf and
    // .meta): prepare_commit() does everything that can fail for want of space or rights (writing out, syncing,
    // naming the finished file), so that publish() only has to move it into place.
    virtual void prepare_commit() {}
    virtual void publish() {}
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

// A file output (make_file_sink). How its target is replaced (docs/format-decisions.md, "File output"):
// - a regular file or a new path: the bytes go to a temporary file in the target's directory (unnamed where the
//   file system allows, O_TMPFILE), which publish() moves over the target in one atomic step; an existing file's
//   permission bits (and owner and group, where the process may set them) pass to the new file; its hard links
//   keep the old contents. A symbolic link (or a chain of them) is followed: its final target is replaced and the
//   link kept. An existing target is never touched before publish(); destroying the sink without commit removes
//   the temporary file.
// - a character or block device, a FIFO, or a descriptor link (/dev/stdout, /dev/fd/N): written through as the
//   bytes come, with no temporary file and no rename (a regular file behind a descriptor link is appended to);
//   what was written stays written when the write fails. Nothing is synced but a regular file.
// - a directory: Error(Io) at once.
class FileSink : public ByteSink {
public:
    // True when the target is written through (device, FIFO, descriptor link) rather than replaced.
    virtual bool writes_through() const = 0;
};

// Opens the output `target` as FileSink describes; commit() (or prepare_commit() then publish()) finishes it as
// `commit_mode` says. Throws Error(Io) when the target is a directory or the file cannot be created or opened.
// Before creating its temporary file, removes the temporary files a dead process left for the same target
// (temporary_names.hpp says how they are told apart).
std::unique_ptr<FileSink> make_file_sink(const std::filesystem::path& target,
                                         FileCommit commit_mode = FileCommit::Atomic);

// Removes the named temporary files of every file sink of this process that has not been committed, so that an
// interrupted program leaves none behind. Async-signal-safe: meant for a program's own SIGINT / SIGTERM handler
// before it lets the signal end the process (a library installs no handler). Sinks whose temporary file was
// removed fail their commit with Error(Io). Unnamed temporary files (O_TMPFILE) need no removal: they vanish with
// the process, even on SIGKILL.
void remove_temporary_files() noexcept;

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
