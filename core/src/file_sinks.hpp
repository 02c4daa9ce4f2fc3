// The file sinks behind make_file_sink, with the choice of temporary file open to the tests: the unnamed kind
// (O_TMPFILE) is used wherever the file system has it, so the named fallback would otherwise go untested.
#pragma once

#include <filesystem>
#include <memory>

#include "dbdf/sink.hpp"

namespace dbdf::detail {

enum class TemporaryKind : std::uint8_t {
    Unnamed,  // O_TMPFILE where the file system supports it (and /proc lets it be linked), else Named
    Named,    // a hidden file next to the target from the start (temporary_names.hpp), removed on failure
};

std::unique_ptr<FileSink> make_file_sink(const std::filesystem::path& target, FileCommit commit_mode,
                                         TemporaryKind temporary_kind);

}  // namespace dbdf::detail
