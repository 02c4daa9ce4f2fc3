// A read-only memory mapping of a whole file, unmapped on destruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace dbdf::detail {

class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& path);  // throws Error(Io)
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(data_), size_}; }

    // Copies up to out.size() bytes from `offset` with pread(), without touching the mapping; returns how many
    // (fewer only at the end of the file). Reading a few bytes here and there this way costs a system call each,
    // where touching the mapping costs a page fault and the mapping of the pages around. Throws Error(Io).
    std::size_t read_at(std::uint64_t offset, std::span<std::byte> out) const;

private:
    std::filesystem::path path_;
    int fd_ = -1;
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace dbdf::detail
