// What an output path names, decided before anything is written: a file to replace (or create) by renaming a
// finished temporary file over it, or something to write through (a device, a FIFO, an open descriptor).
#pragma once

#include <filesystem>

namespace dbdf::detail {

struct OutputTarget {
    enum class Kind {
        // A regular file or a new path: written to a temporary file in `path`'s directory, renamed over `path`.
        Replace,
        // A character or block device, a FIFO, or a descriptor link (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
        // opened and written as it is; nothing is renamed. Renaming over it would replace the node itself
        // (/dev/null by a regular file) or detach the descriptor the caller set up.
        WriteThrough,
    };
    Kind kind = Kind::Replace;
    // Replace: the final path after following symbolic links, the name that is replaced (a link is kept and its
    // target replaced). WriteThrough: the path as given, opened as it is.
    std::filesystem::path path;
    // WriteThrough only: the descriptor link leads to a regular file (a shell's `> file` or `>> file`), which is
    // appended to, so that a `>>` keeps what is there and a `>` (already empty) gets the whole output.
    bool append = false;
};

// Classifies `given`. Throws Error(Io) when it is a directory, when its links loop or are too deep, or when it
// cannot be looked at (a missing directory is reported later, by the attempt to create the file).
OutputTarget resolve_output_target(const std::filesystem::path& given);

}  // namespace dbdf::detail
