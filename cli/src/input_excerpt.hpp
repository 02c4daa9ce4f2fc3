// Input text quoted in error messages (a CSV field, a Matrix Market line, an .npy header): a short excerpt that is
// safe to print. A field may be megabytes long and may hold any bytes, so a message shows at most kExcerptBytes of
// it, says how long it was, and escapes every byte that a terminal would act on or that is not well-formed UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dbdf_cli {

// The most bytes of input text a message quotes.
inline constexpr std::size_t kExcerptBytes = 40;

namespace input_excerpt_detail {

// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF)
// starting at text[at], or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[at + k]); };
    const std::uint8_t lead = byte(0);
    std::size_t length = 0;
    std::uint8_t second_low = 0x80, second_high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) second_low = 0xA0;
        if (lead == 0xED) second_high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) second_low = 0x90;
        if (lead == 0xF4) second_high = 0x8F;
    } else {
        return 0;
    }
    if (text.size() - at < length) return 0;
    if (byte(1) < second_low || byte(1) > second_high) return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
    }
    return length;
}

inline void append_escaped_byte(std::uint8_t byte, std::string& out) {
    static constexpr char kHex[] = "0123456789abcdef";
    switch (byte) {
        case '\n': out += "\\n"; return;
        case '\r': out += "\\r"; return;
        case '\t': out += "\\t"; return;
        case '\\': out += "\\\\"; return;
        default: break;
    }
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
}

}  // namespace input_excerpt_detail

// The text as a message shows it, without quotes: control characters, DEL, backslashes and bytes that are not part of
// well-formed UTF-8 escaped (\n, \x1b, \xff, \\); text longer than kExcerptBytes cut after at most that many bytes
// (never inside a character) and followed by "... (N bytes)", N being the whole text's length.
inline std::string input_excerpt(std::string_view text) {
    using namespace input_excerpt_detail;
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        const auto byte = static_cast<std::uint8_t>(text[at]);
        std::size_t length = 1;
        if (byte >= 0x80) {
            length = utf8_sequence_length(text, at);
            if (length == 0) length = 1;
        }
        if (at + length > kExcerptBytes) break;
        if (byte >= 0x80 && length > 1) {
            out.append(text.substr(at, length));
        } else if (byte < 0x20 || byte == 0x7F || byte == '\\' || byte >= 0x80) {
            append_escaped_byte(byte, out);
        } else {
            out += static_cast<char>(byte);
        }
        at += length;
    }
    if (at < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
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
