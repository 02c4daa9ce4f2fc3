#include "mtx_input.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "../handles.hpp"
#include "../input_excerpt.hpp"
#include "../number_text.hpp"

namespace dbdf_cli {
namespace {

std::string lower(std::string_view text) {
    std::string lowered(text);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lowered;
}

template <class T>
bool parse_number(std::string_view text, T& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    const auto result = std::from_chars(first, last, out);
    return result.ec == std::errc() && result.ptr == last;
}

// Whether 8 value bytes (i64, u64 or f64) are a zero: 0, or 0.0 or -0.0, whose bits differ only in the sign.
bool all_zero_bits_but_sign(const std::uint8_t (&value)[8]) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, value, sizeof bits);
    return (bits & ~(std::uint64_t{1} << 63)) == 0;
}

// The words of a line, separated by spaces or tabs, as views into it. No line of a Matrix Market file holds more
// than 5 words (the banner), so at most kMaxWords are kept: `count` says how many there were, up to kMaxWords + 1,
// which is enough to refuse a line with too many.
constexpr std::size_t kMaxWords = 5;
struct Words {
    std::string_view word[kMaxWords];
    std::size_t count = 0;
};

Words split_words(std::string_view text) {
    Words words;
    std::size_t at = 0;
    for (;;) {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r')) ++at;
        if (at == text.size()) return words;
        const std::size_t start = at;
        while (at < text.size() && text[at] != ' ' && text[at] != '\t' && text[at] != '\r') ++at;
        if (words.count == kMaxWords) {
            ++words.count;
            return words;
        }
        words.word[words.count++] = text.substr(start, at - start);
    }
}

}  // namespace

void MtxInput::invalid(std::uint64_t line, const std::string& what) const {
    throw CliError(fmt::format("{}:{}: {}", lines_.path(), line, what), kExitInvalid);
}

MtxInput::MtxInput(const std::string& path) : lines_(path) {
    std::string line;
    if (!lines_.next(line)) invalid(1, "empty file");
    const Words banner = split_words(line);
    auto banner_word = [&](std::size_t i) { return i < banner.count ? lower(banner.word[i]) : std::string(); };
    const std::string tag = banner_word(0), object = banner_word(1), format = banner_word(2), field = banner_word(3),
                      symmetry = banner_word(4);
    if (tag != "%%matrixmarket" || object != "matrix") invalid(1, "not a Matrix Market matrix header");
    if (format != "coordinate" && format != "array") invalid(1, "format must be coordinate or array");
    layout_.coordinate = format == "coordinate";
    if (field == "real" || field == "double")
        layout_.field = MtxField::Real;
    else if (field == "integer")
        layout_.field = MtxField::Integer;
    else if (field == "pattern" && layout_.coordinate)
        layout_.field = MtxField::Pattern;
    else
        invalid(1, "field " + quoted_input(field) + " is not supported (real, integer, pattern)");
    if (symmetry == "general")
        layout_.symmetry = MtxSymmetry::General;
    else if (symmetry == "symmetric")
        layout_.symmetry = MtxSymmetry::Symmetric;
    else if (symmetry == "skew-symmetric")
        layout_.symmetry = MtxSymmetry::SkewSymmetric;
    else
        invalid(1, "symmetry " + quoted_input(symmetry) + " is not supported (general, symmetric, skew-symmetric)");
    if (!layout_.coordinate && layout_.symmetry != MtxSymmetry::General) invalid(1, "array files must be general");

    do {
        if (!lines_.next(line)) invalid(lines_.line_number(), "missing size line");
    } while (line.empty() || line[0] == '%');
    const std::uint64_t size_line = lines_.line_number();
    const Words fields = split_words(line);
    const std::size_t size_fields = layout_.coordinate ? 3 : 2;
    if (fields.count != size_fields || !parse_number(fields.word[0], layout_.rows) ||
        !parse_number(fields.word[1], layout_.cols) ||
        (layout_.coordinate && !parse_number(fields.word[2], layout_.entries))) {
        invalid(size_line, "malformed size line " + quoted_input(line));
    }
    if (layout_.symmetry != MtxSymmetry::General && layout_.rows != layout_.cols) {
        invalid(size_line, fmt::format("a {} matrix must be square, not {} x {}",
                                       layout_.symmetry == MtxSymmetry::Symmetric ? "symmetric" : "skew-symmetric",
                                       layout_.rows, layout_.cols));
    }
    if (!layout_.coordinate) {
        if (layout_.cols != 0 && layout_.rows > (std::uint64_t{1} << 34) / layout_.cols) {
            invalid(size_line, "array too large to convert in memory");
        }
        layout_.entries = layout_.rows * layout_.cols;
    }
    check_announced_entries_fit();
}

// Every value line takes a few bytes at least ("1\n" in arrays, "1 1\n" for patterns, "1 1 1\n" otherwise; the last
// may lack its newline), so a regular file's size bounds how many entries it can hold. Refusing a larger count here
// keeps an absurd size line from sizing any buffer, and says what is wrong before anything is read.
void MtxInput::check_announced_entries_fit() const {
    const std::uint64_t min_line_bytes = !layout_.coordinate ? 2 : layout_.field == MtxField::Pattern ? 4 : 6;
    const std::uint64_t remaining = file_size() > bytes_read() ? file_size() - bytes_read() : 0;
    const std::uint64_t room = (remaining + 1) / min_line_bytes;
    if (layout_.entries > room) {
        invalid(lines_.line_number(),
                fmt::format("the size line announces {} entries, but the {} bytes after it hold at most {}",
                            layout_.entries, remaining, room));
    }
}

void MtxInput::read_entries(const OnEntry& on_entry) {
    std::string line;
    std::uint64_t read = 0;
    // The first negative value and the first one above 2^63 - 1: no integer type holds both.
    std::uint64_t negative_line = 0, above_i64_line = 0;
    std::string negative_text, above_i64_text;
    while (lines_.next(line)) {
        const std::uint64_t line_number = lines_.line_number();
        if (line.empty() || line[0] == '%') continue;
        const Words fields = split_words(line);
        if (fields.count == 0) continue;
        if (read == layout_.entries) {
            invalid(line_number, fmt::format("more than the {} entries announced", layout_.entries));
        }
        std::uint64_t row = 0, col = 0;
        std::size_t value_field = 0;
        if (layout_.coordinate) {
            const std::size_t needed = layout_.field == MtxField::Pattern ? 2 : 3;
            if (fields.count != needed || !parse_number(fields.word[0], row) || !parse_number(fields.word[1], col) ||
                row == 0 || col == 0 || row > layout_.rows || col > layout_.cols) {
                invalid(line_number, "malformed or out-of-range entry " + quoted_input(line));
            }
            --row;
            --col;
            value_field = 2;
        } else {
            if (fields.count != 1) invalid(line_number, "array lines hold one value: " + quoted_input(line));
            row = read % layout_.rows;  // column-major
            col = read / layout_.rows;
        }
        std::uint8_t value[8] = {};
        if (layout_.field == MtxField::Pattern) {
            const double one = 1.0;
            std::memcpy(value, &one, sizeof one);
        } else if (layout_.field == MtxField::Real) {
            const std::string_view text = fields.word[value_field];
            const NumberText number = classify_number(text);
            double real = 0;
            if (!store_number(number, real)) {
                invalid(line_number, number.form == NumberForm::NotANumber
                                         ? quoted_input(text) + " is not a real number"
                                         : refusal(number, text, DBDF_VALUE_F64));
            }
            std::memcpy(value, &real, sizeof real);
        } else {
            const std::string_view text = fields.word[value_field];
            const NumberText number = classify_number(text);
            if (number.form != NumberForm::Integer) invalid(line_number, quoted_input(text) + " is not an integer");
            if (number.fits_i64) {
                std::memcpy(value, &number.i64, sizeof number.i64);
                if (number.i64 < 0 && negative_line == 0) {
                    negative_line = line_number;
                    negative_text = input_excerpt(text);
                }
            } else if (number.fits_u64) {
                if (layout_.symmetry == MtxSymmetry::SkewSymmetric) {
                    invalid(line_number,
                            input_excerpt(text) + " has no negative for the mirrored entry in any integer type");
                }
                std::memcpy(value, &number.u64, sizeof number.u64);
                if (above_i64_line == 0) {
                    above_i64_line = line_number;
                    above_i64_text = input_excerpt(text);
                }
            } else {
                invalid(line_number, quoted_input(text) + " fits neither i64 nor u64");
            }
            if (negative_line != 0 && above_i64_line != 0) {
                invalid(line_number, fmt::format("no integer type holds both {} (line {}) and {} (line {})",
                                                 negative_text, negative_line, above_i64_text, above_i64_line));
            }
        }
        if (layout_.symmetry == MtxSymmetry::SkewSymmetric && row == col && !all_zero_bits_but_sign(value)) {
            invalid(line_number, fmt::format("entry ({}, {}) is on the diagonal of a skew-symmetric matrix, which "
                                             "holds only zeros there",
                                             row + 1, col + 1));
        }
        on_entry(line_number, row, col, value);
        ++read;
    }
    layout_.needs_u64 = above_i64_line != 0;
    if (read != layout_.entries) {
        invalid(lines_.line_number(), fmt::format("{} entries announced, {} found", layout_.entries, read));
    }
}

}  // namespace dbdf_cli
