// `-` as a path: standard input for an input, standard output for an output (cli/README.md, "Standard input and
// output"). Messages keep naming the file "-"; only the path that is opened changes.
//
// Every input of the tool must be a regular file (formats/input_file.hpp: read by its size or twice; a .dbdf file by
// positioned reads), so standard input is copied once, on first use, into an unnamed temporary file (O_TMPFILE in
// $TMPDIR, else mkstemp and unlink), which every reader then opens as /dev/fd/N. Standard input that already is a
// regular file, read from its start (`< file`), is opened as it is, without a copy. Standard output is written
// through as /dev/stdout, as the library writes devices and descriptors (no temporary file, no rename, no .meta).
#pragma once

#include <string>

namespace dbdf_cli {

inline bool is_standard_stream(const std::string& path) { return path == "-"; }

// The path to open for the input `path`: `path` itself, or for "-" the copy of standard input. Throws CliError
// (exit 2) when standard input is a terminal, cannot be read, is empty, or cannot be copied (a full disk, say).
std::string input_to_open(const std::string& path);

// The path to open for the output `path`: `path` itself, or /dev/stdout for "-".
inline std::string output_to_open(const std::string& path) {
    return is_standard_stream(path) ? std::string("/dev/stdout") : path;
}

}  // namespace dbdf_cli
