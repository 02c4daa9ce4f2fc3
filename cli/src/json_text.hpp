// JSON string literals for the tool's --json output. JSON text must be UTF-8, but the strings shown may not be: labels
// are bytes, expected to be UTF-8 and never checked (docs/format-rules.md, rule 16), and so are file names. Each byte
// that is not part of a well-formed UTF-8 sequence is shown as U+FFFD; labels also come with their bytes in hex when
// they are not UTF-8 (see info.cpp), so nothing is lost. Control characters (C0, DEL, C1) are written as \u escapes, so
// the document is safe to print on a terminal as well.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dbdf_cli {

// The length of the well-formed UTF-8 sequence at the start of `text` (Unicode's table 3-7: no overlong forms,
// no surrogates, nothing above U+10FFFF), or 0 when it does not start with one.
inline std::size_t utf8_sequence_length(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const auto continuation = [&](std::size_t i, unsigned char low = 0x80, unsigned char high = 0xBF) {
        return i < text.size() && byte(i) >= low && byte(i) <= high;
    };
    if (text.empty()) return 0;
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
    if (lead >= 0xE0 && lead <= 0xEF) {
        const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
        const unsigned char high = lead == 0xED ? 0x9F : 0xBF;
        return continuation(1, low, high) && continuation(2) ? 3 : 0;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
        return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
    }
    return 0;
}

inline bool is_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_sequence_length(text.substr(i));
        if (length == 0) return false;
        i += length;
    }
    return true;
}

inline std::string hex_bytes(std::string_view bytes) {
    std::string hex;
    for (unsigned char c : bytes) hex += fmt::format("{:02x}", c);
    return hex;
}

inline std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const std::size_t length = utf8_sequence_length(text.substr(i));
        if (length == 0) {
            out += "\\ufffd";
            ++i;
            continue;
        }
        if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            // C1 controls (U+0080 .. U+009F) are valid JSON as they are, but some terminals obey them: escaped, the
            // document says the same and is safe to print.
            out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));
            i += 2;
            continue;
        }
        if (length > 1) {
            out.append(text.substr(i, length));
            i += length;
            continue;
        }
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    out += fmt::format("\\u{:04x}", c);
                } else {
                    out += static_cast<char>(c);
                }
        }
        ++i;
    }
    return out + "\"";
}

}  // namespace dbdf_cli
