// Text from a file (a frame's labels, a line of a text input quoted in an error) shown on a terminal. A label may hold
// any bytes (docs/format-rules.md, rule 16): printed raw, an escape sequence would recolour or rewrite the terminal and
// a newline would forge lines of output. So control characters (C0, DEL and C1) and bytes that are not well-formed
// UTF-8 are shown as escapes: \n, \r and \t by name, other control bytes and invalid bytes as \xNN, C1 characters
// (U+0080 to U+009F, which some terminals obey as controls) as \u0080 ... \u009F. Everything else, well-formed UTF-8
// included, is shown as it is. Backslashes are left alone, so escaping twice changes nothing (what it produces has
// nothing left to escape): error messages that already quote their input this way can pass through it again.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "json_text.hpp"

namespace dbdf_cli {

// `text` made safe to print, on one line.
inline std::string terminal_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char byte = static_cast<unsigned char>(text[i]);
        const std::size_t length = utf8_sequence_length(text.substr(i));
        if (length == 0) {
            out += fmt::format("\\x{:02x}", byte);
            ++i;
        } else if (length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));  // C1: U+0080 .. U+009F
            i += 2;
        } else if (length > 1) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            if (byte == '\n')
                out += "\\n";
            else if (byte == '\r')
                out += "\\r";
            else if (byte == '\t')
                out += "\\t";
            else if (byte < 0x20 || byte == 0x7F)
                out += fmt::format("\\x{:02x}", byte);
            else
                out += static_cast<char>(byte);
            ++i;
        }
    }
    return out;
}

}  // namespace dbdf_cli
