// One CSV record (RFC 4180 quoting within a line), split in place. The fields' text, without quotes, lies back to back
// in one buffer and each field is known by where it ends: a line of a million fields costs its own bytes and 4 bytes
// per field (plus one bit for whether it was quoted), not a string per field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text_lines.hpp"

namespace dbdf_cli {

class CsvRecord {
public:
    // Takes over `line` (whose buffer is swapped with the record's previous one, so neither is reallocated) and
    // splits it. Returns false on an unterminated quote.
    bool split(std::string& line) {
        static_assert(TextLines::kMaxLineBytes <= UINT32_MAX, "field ends are 32-bit offsets into a line");
        text_.swap(line);
        field_ends_.clear();
        quoted_.clear();
        std::size_t kept = 0;  // the unquoted text is written over the line, never ahead of what is read
        bool inside_quotes = false;
        bool field_quoted = false;
        auto end_field = [&]() {
            field_ends_.push_back(static_cast<std::uint32_t>(kept));
            quoted_.push_back(field_quoted);
            field_quoted = false;
        };
        for (std::size_t i = 0; i < text_.size(); ++i) {
            const char c = text_[i];
            if (inside_quotes) {
                if (c == '"' && i + 1 < text_.size() && text_[i + 1] == '"') {
                    text_[kept++] = '"';
                    ++i;
                } else if (c == '"') {
                    inside_quotes = false;
                } else {
                    text_[kept++] = c;
                }
            } else if (c == '"') {
                inside_quotes = true;
                field_quoted = true;
            } else if (c == ',') {
                end_field();
            } else if (c != '\r') {
                text_[kept++] = c;
            }
        }
        end_field();
        return !inside_quotes;
    }

    std::size_t size() const { return field_ends_.size(); }
    std::string_view field(std::size_t i) const {
        const std::uint32_t begin = i == 0 ? 0 : field_ends_[i - 1];
        return std::string_view(text_).substr(begin, field_ends_[i] - begin);
    }
    bool quoted(std::size_t i) const { return quoted_[i]; }

private:
    std::string text_;
    std::vector<std::uint32_t> field_ends_;
    std::vector<bool> quoted_;
};

}  // namespace dbdf_cli
