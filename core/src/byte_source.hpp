// Where a reader's bytes come from: a file read with positioned reads, caller memory, or a file mapped into memory
// where the caller opted in. The reader and the decoders reach the input only through a ByteSource and the
// ByteWindows fetched from it, so a source that cannot lend memory (a file, later a caller's read-at callback) is
// read piece by piece into buffers the reader owns (callback_source.hpp has the caller's read-at source).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

namespace dbdf::detail {

class ByteSource {
public:
    virtual ~ByteSource() = default;

    // The input's size, fixed when the source was opened: a file that grows later is read as it was then.
    virtual std::uint64_t size() const = 0;

    // Copies bytes [offset, offset + destination.size()) into destination and returns how many it copied: fewer
    // only where the underlying file ended early (it shrank since it was opened). Safe to call from several threads
    // at once. Throws Error(Io) when the read itself fails.
    virtual std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const = 0;

    // The whole input as memory when the source can lend it without copying (caller memory, a mapped file);
    // nullptr otherwise. Lent memory stays valid as long as the source.
    virtual const std::byte* lent_memory() const { return nullptr; }

    // Whether read_at may be called from several threads at once; a caller's source is read on one thread only.
    virtual bool concurrent_reads() const { return true; }

    // Bytes of the first read for the object header: a file reads a generous prefix in one system call, a caller's
    // source only about what a matrix header takes (it grows while the header is cut short).
    virtual std::uint64_t first_header_read_bytes() const { return std::uint64_t{64} << 10; }
};

// Caller memory, lent as it is.
std::unique_ptr<ByteSource> make_memory_source(std::span<const std::byte> input);

// A regular file read with pread(). Opening never blocks (O_NONBLOCK until the file is known to be regular), and
// anything but a regular file (a FIFO, a device, a directory, a socket) is refused with Error(Io) naming what it is.
std::unique_ptr<ByteSource> make_file_source(const std::filesystem::path& path);

// A regular file mapped read-only and lent as memory. Opened as make_file_source() does. If the file shrinks while
// it is mapped, touching the lost pages raises SIGBUS, which ends the process: only for callers that opted in.
std::unique_ptr<ByteSource> make_mapped_source(const std::filesystem::path& path);

// Bytes [first, first + size) of the input, held at `data`. Decoders address a window by absolute offsets in the
// input, so that the errors they raise keep naming the byte of the file, wherever the bytes were copied to.
struct ByteWindow {
    const std::byte* data = nullptr;
    std::uint64_t first = 0;
    std::uint64_t size = 0;

    const std::byte* at(std::uint64_t offset) const { return data + (offset - first); }
};

// A reusable buffer that grows to the largest request and never zero-fills (whatever it held is overwritten).
class ByteBuffer {
public:
    std::byte* reserve(std::size_t bytes);
    std::size_t capacity() const { return capacity_; }
    void release() {
        storage_.reset();
        capacity_ = 0;
    }

private:
    std::unique_ptr<std::byte[]> storage_;
    std::size_t capacity_ = 0;
};

// The window [offset, offset + bytes) of `source`: lent memory where the source lends it, otherwise read into
// `buffer` (valid until the buffer is reused). The range must lie within source.size(). Throws Error(Io) when the
// file no longer holds the bytes: "the file shrank while being read: expected N bytes at byte X, got M".
ByteWindow fetch(const ByteSource& source, std::uint64_t offset, std::uint64_t bytes, ByteBuffer& buffer);

// Reads [offset, offset + destination.size()) straight into caller memory, failing as fetch() does.
void read_exactly(const ByteSource& source, std::uint64_t offset, std::span<std::byte> destination);

// The error fetch() and read_exactly() throw when a read comes back short.
[[noreturn]] void throw_shrank(std::uint64_t offset, std::uint64_t expected, std::uint64_t got);

}  // namespace dbdf::detail
