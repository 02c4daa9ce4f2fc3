// Appending bytes to a file descriptor.
#pragma once

#include <filesystem>
#include <span>

namespace dbdf::detail {

// Appends to an open file with writev(), so that a small record header and the large payload after it go to the
// kernel in one call and fill the file's pages together.
class FileOutput {
public:
    FileOutput(int fd, std::filesystem::path name) : fd_(fd), name_(std::move(name)) {}

    // Appends `first`, then `second` (either may be empty). Throws Error(Io).
    void append(std::span<const std::byte> first, std::span<const std::byte> second);

private:
    int fd_;
    std::filesystem::path name_;
};

}  // namespace dbdf::detail
