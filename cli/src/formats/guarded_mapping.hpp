// An input file read through a read-only mapping, a window at a time, for converters whose tiles lie in the file as
// they lie in memory (a C-order little-endian .npy): the writer encodes and writes each tile straight from the
// input's page cache, without the copy into a buffer that a read costs.
//
// A mapped file that another process shrinks raises SIGBUS at the first access to a lost page; the library cannot
// turn that into an error, which is why it maps nothing unless asked. This tool can: while a window is mapped, a
// SIGBUS inside it prints "<file>: the input shrank while it was read", removes the output's temporary files
// (dbdf_remove_temporary_files) and ends the process with exit status 1, so the output is never put in place. A
// SIGBUS anywhere else keeps its default action.
#pragma once

#include <cstdint>
#include <string>

#include "input_file.hpp"

namespace dbdf_cli {

class GuardedMapping {
public:
    // Opens a regular file (InputFile's rules and errors).
    explicit GuardedMapping(const std::string& path);
    GuardedMapping(const GuardedMapping&) = delete;
    GuardedMapping& operator=(const GuardedMapping&) = delete;
    ~GuardedMapping();

    const std::string& path() const { return file_.path(); }
    std::uint64_t size() const { return file_.size(); }

    // The `count` bytes at `offset` (within the size the file had when it was opened), valid until the next call;
    // nullptr when no mapping can be had (address space limited by ulimit -v, say): the caller reads them instead.
    // Windows are at least kWindowBytes, so a tile needs a new mapping only every few tiles.
    const std::uint8_t* bytes(std::uint64_t offset, std::size_t count);

    static constexpr std::size_t kWindowBytes = std::size_t{16} << 20;

    // Whether the file is now shorter than when it was opened. The kernel's write of mapped bytes that were lost
    // meanwhile fails with EFAULT ("Bad address") instead of raising SIGBUS; a caller whose write from the mapping
    // failed asks this, and reports shrink_message() instead of the write's error.
    bool shrank() const;
    // "<file>: the input shrank while it was read (it had N bytes when it was opened); no output was written": what
    // the SIGBUS handler prints after "dbdf: ".
    std::string shrink_message() const;

    // Windows from this size on are populated on several threads (populate_on_threads).
    static constexpr std::size_t kPopulatedOnThreadsFrom = std::size_t{64} << 20;

private:
    void populate_on_threads(std::uint8_t* window, std::size_t bytes);
    void unmap();

    InputFile file_;
    std::uint8_t* window_ = nullptr;
    std::size_t window_bytes_ = 0;
    std::uint64_t window_offset_ = 0;
};

}  // namespace dbdf_cli
