#include "foreign_input.hpp"

#include <algorithm>
#include <cstdio>

namespace dbdf::detail {
namespace {

// Enough to recognise text without being fooled by one stray printable byte; a .dbdf file's first byte alone
// (version 1, a control character) already tells it from text.
constexpr std::size_t kSniffedBytes = 4;
// Enough of the start to recognise a CSV header or a magic number in the message.
constexpr std::size_t kQuotedBytes = 16;

// Printable ASCII and every byte of a UTF-8 sequence (0x80 and up), tabs and line breaks; not the other controls.
bool is_text_byte(unsigned byte) {
    return (byte >= 0x20 && byte != 0x7F) || byte == '\t' || byte == '\n' || byte == '\r';
}

}  // namespace

bool starts_like_text(std::span<const std::byte> input) {
    if (input.empty()) return false;
    const auto sniffed = input.first(std::min(input.size(), kSniffedBytes));
    return std::all_of(sniffed.begin(), sniffed.end(),
                       [](std::byte byte) { return is_text_byte(static_cast<unsigned>(byte)); });
}

std::string not_a_dbdf_file(std::span<const std::byte> input) {
    std::string quoted;
    for (const std::byte byte : input.first(std::min(input.size(), kQuotedBytes))) {
        const auto code = static_cast<unsigned>(byte);
        if (code >= 0x20 && code < 0x7F && code != '"' && code != '\\') {
            quoted += static_cast<char>(code);
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", code);
            quoted += escaped;
        }
    }
    const char* ellipsis = input.size() > kQuotedBytes ? "..." : "";
    return "not a .dbdf file: it starts with \"" + quoted + "\"" + ellipsis + " (text) instead of format version 1";
}

}  // namespace dbdf::detail
