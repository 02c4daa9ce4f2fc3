// Appending bytes to a file descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

struct iovec;

namespace dbdf::detail {

// Appends to an open file with writev(), so that a small record header and the large payload after it go to the
// kernel in one call and fill the file's pages together.
class FileOutput {
public:
    FileOutput(int fd, std::filesystem::path name);
    ~FileOutput();

    // Appends `first`, then `second` (either may be empty). Throws Error(Io).
    void append(std::span<const std::byte> first, std::span<const std::byte> second);

    // Pieces of a payload whose copy into the page cache would alias (see file_output.cpp) go through a buffer of
    // this size, small enough to stay in the L2 cache between the two copies.
    static constexpr std::size_t kStagingBytes = std::size_t{256} << 10;
    // Payloads shorter than this are written as they are (the aliasing costs little on them).
    static constexpr std::size_t kStagingFrom = std::size_t{64} << 10;

    // Whether a payload of kStagingFrom bytes or more, from `source`, written at `file_offset`, goes through the
    // staging buffer: when the kernel's copy of it into the page cache would alias (file_output.cpp).
    static bool staged(std::uint64_t file_offset, const std::byte* source);

    // Where in a staging buffer at `buffer` the pieces of a payload written at `file_offset` go: kStagingDistance
    // bytes before it modulo 4096.
    static constexpr std::size_t kStagingDistance = 2048;
    static std::size_t staging_shift(std::uint64_t file_offset, const std::byte* buffer);

private:
    void write_all(iovec* pieces, std::size_t count);
    void append_staged(std::span<const std::byte> first, std::span<const std::byte> second,
                       std::uint64_t payload_offset);

    int fd_;
    std::filesystem::path name_;
    std::unique_ptr<std::byte[]> staging_;  // kStagingBytes + 4096, allocated on first use
};

}  // namespace dbdf::detail
