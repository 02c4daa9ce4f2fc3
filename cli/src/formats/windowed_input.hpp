// An input file read through a window of a few MiB with pread, so a converter can gather any part of a file far
// larger than memory without loading it and without mapping it (a mapping takes address space as large as the file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "input_file.hpp"

namespace dbdf_cli {

class WindowedInput {
public:
    // Opens a regular file; throws CliError naming it when it cannot (input_file.hpp).
    explicit WindowedInput(const std::string& path);
    WindowedInput(const WindowedInput&) = delete;
    WindowedInput& operator=(const WindowedInput&) = delete;

    const std::string& path() const { return file_.path(); }
    std::uint64_t size() const { return file_.size(); }

    // The `count` bytes at `offset`, valid until the next call. They are read in windows that grow from
    // kFirstWindowBytes to kWindowBytes, so nearby small reads (the cells of a tile, a column of a row-major array)
    // cost one system call per window, and a file whose header is all that is read this way (a .npy converted
    // from a mapping) costs a read of a few KiB, not of 4 MiB into memory touched for the first time.
    // Throws CliError naming the file when they are not all there.
    const std::uint8_t* bytes(std::uint64_t offset, std::size_t count);

    // Reads the `count` bytes at `offset` straight into `destination`, bypassing the window: for runs as large as a
    // tile, which would otherwise be read into the window and copied out of it. Throws as bytes() does.
    void read_into(std::uint64_t offset, std::size_t count, std::uint8_t* destination);

    static constexpr std::size_t kFirstWindowBytes = std::size_t{64} << 10;
    static constexpr std::size_t kWindowBytes = std::size_t{4} << 20;

private:
    void read_fully(std::uint64_t offset, std::size_t count, std::uint8_t* destination);

    InputFile file_;
    std::vector<std::uint8_t> window_;
    std::uint64_t window_offset_ = 0;
    std::size_t next_window_bytes_ = kFirstWindowBytes;  // doubles with each window read, up to kWindowBytes
};

}  // namespace dbdf_cli
