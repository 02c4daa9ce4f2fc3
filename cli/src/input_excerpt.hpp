// Input text quoted in error messages (a CSV field, a Matrix Market line, an .npy header): a short excerpt that is
// safe to print. A field may be megabytes long and may hold any bytes, so a message shows at most kExcerptBytes of
// it, says how long it was, and escapes it as terminal_text does (control characters, C1, bytes that are not
// well-formed UTF-8); backslashes are escaped too, so that a quoted "\n" cannot be mistaken for an escaped newline.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include "json_text.hpp"
#include "terminal_text.hpp"

namespace dbdf_cli {

// The most bytes of input text a message quotes.
inline constexpr std::size_t kExcerptBytes = 40;

// The text as a message shows it, without quotes: escaped as above; text longer than kExcerptBytes cut after at
// most that many bytes (never inside a character) and followed by "... (N bytes)", N being the whole text's length.
inline std::string input_excerpt(std::string_view text) {
    std::size_t kept = 0;
    while (kept < text.size()) {
        const std::size_t length = std::max<std::size_t>(1, utf8_sequence_length(text.substr(kept)));
        if (kept + length > kExcerptBytes) break;
        kept += length;
    }
    std::string backslashes_escaped;
    for (const char c : text.substr(0, kept)) {
        if (c == '\\') backslashes_escaped += '\\';
        backslashes_escaped += c;
    }
    std::string out = terminal_text(backslashes_escaped);
    if (kept < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

// The excerpt in single quotes: 'abc', or 'first forty bytes'... (N bytes) for a longer text.
inline std::string quoted_input(std::string_view text) {
    if (text.size() <= kExcerptBytes) return "'" + input_excerpt(text) + "'";
    std::string excerpt = input_excerpt(text);
    const std::size_t cut = excerpt.rfind("... (");
    return "'" + excerpt.substr(0, cut) + "'" + excerpt.substr(cut);
}

}  // namespace dbdf_cli
