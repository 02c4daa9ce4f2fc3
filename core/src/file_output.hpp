// Appending bytes to a file descriptor.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

struct iovec;

namespace dbdf::detail {

// Appends to an open file with writev(), so that a small record header and the large payload after it go to the
// kernel in one call and fill the file's pages together. Payloads go to the kernel from where they are, whatever
// their distance to their file offset: copying them to a better one on the writing thread costs more than it saves
// (bench/RESULTS.md, "Small writes"); write_dense places them on its analysing threads instead
// (placed_payload.hpp).
class FileOutput {
public:
    FileOutput(int fd, std::filesystem::path name);

    // Appends `first`, then `second` (either may be empty). Throws Error(Io).
    void append(std::span<const std::byte> first, std::span<const std::byte> second);

private:
    void write_all(iovec* pieces, std::size_t count);

    int fd_;
    std::filesystem::path name_;
};

}  // namespace dbdf::detail
