// A converter's input file, opened for reading: it must be a regular file. Every reader of a foreign format needs
// what only a regular file gives: its size (an .npy file's data, the bound on a Matrix Market file's entries) or a
// second pass (CSV types then values, a duplicate .mtx entry's two lines). A FIFO, a device, a socket or a directory
// is refused at once, by name, instead of blocking on a writer that never comes or reading without end.
#pragma once

#include <cstdint>
#include <string>

namespace dbdf_cli {

class InputFile {
public:
    // Opens `path`; throws CliError (exit 2) saying what it is when it is not a regular file, or why it cannot be
    // opened. Opening never blocks: a FIFO without a writer is refused like any other FIFO.
    explicit InputFile(const std::string& path);
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();

    const std::string& path() const { return path_; }
    int descriptor() const { return fd_; }
    std::uint64_t size() const { return size_; }  // when it was opened

    // Throws CliError (exit 1) naming the file when the `count` bytes at `offset` are not all within size().
    void check_within(std::uint64_t offset, std::uint64_t count) const;

private:
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// What a file of this mode is, for messages: "a FIFO", "a character device", "a directory", ...
std::string file_kind(unsigned mode);

}  // namespace dbdf_cli
