// Inputs that are no .dbdf file at all: a CSV, a Matrix Market or .npy file, a log, handed to the reader by mistake.
// Their first byte is not format version 1 either, but "format version 49 is not supported" would send the user
// looking for a newer dbdf; the header parsers call this instead, so the message says what the input is.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace dbdf::detail {

// Whether the input's first bytes read as text: printable ASCII, tabs and line breaks, or bytes of UTF-8
// sequences (which also covers a byte order mark and the .npy magic "\x93NUMPY"). An empty input does not.
bool starts_like_text(std::span<const std::byte> input);

// "not a .dbdf file: it starts with \"...\" (text) instead of format version 1", quoting the first bytes with
// every byte outside printable ASCII escaped as \xNN, so the message stays short, one line and plain ASCII.
std::string not_a_dbdf_file(std::span<const std::byte> input);

}  // namespace dbdf::detail
