#include "mtx_input.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "../handles.hpp"
#include "../number_text.hpp"

namespace dbdf_cli {
namespace {

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

template <class T>
bool parse_number(const std::string& text, T& out) {
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

void split_words(const std::string& text, std::vector<std::string>& words) {
    words.clear();
    std::istringstream stream(text);
    std::string word;
    while (stream >> word) words.push_back(word);
}

}  // namespace

void MtxInput::invalid(std::uint64_t line, const std::string& what) const {
    throw CliError(fmt::format("{}:{}: {}", path_, line, what), kExitInvalid);
}

MtxInput::MtxInput(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw CliError(path + ": cannot open: " + std::strerror(errno));
    // Only a regular file's size is known before reading it (not a pipe's or a terminal's).
    std::error_code size_error;
    const bool size_known = std::filesystem::is_regular_file(path, size_error);
    file_size_ = size_known ? std::filesystem::file_size(path, size_error) : 0;
    if (size_error) file_size_ = 0;
    std::string line;
    if (!std::getline(in_, line)) invalid(1, "empty file");
    line_number_ = 1;
    bytes_read_ = line.size() + 1;
    std::istringstream banner(lower(line));
    std::string tag, object, format, field, symmetry;
    banner >> tag >> object >> format >> field >> symmetry;
    if (tag != "%%matrixmarket" || object != "matrix") invalid(1, "not a Matrix Market matrix header");
    if (format != "coordinate" && format != "array") invalid(1, "format must be coordinate or array");
    layout_.coordinate = format == "coordinate";
    if (field == "real" || field == "double") layout_.field = MtxField::Real;
    else if (field == "integer") layout_.field = MtxField::Integer;
    else if (field == "pattern" && layout_.coordinate) layout_.field = MtxField::Pattern;
    else invalid(1, "field '" + field + "' is not supported (real, integer, pattern)");
    if (symmetry == "general") layout_.symmetry = MtxSymmetry::General;
    else if (symmetry == "symmetric") layout_.symmetry = MtxSymmetry::Symmetric;
    else if (symmetry == "skew-symmetric") layout_.symmetry = MtxSymmetry::SkewSymmetric;
    else invalid(1, "symmetry '" + symmetry + "' is not supported (general, symmetric, skew-symmetric)");
    if (!layout_.coordinate && layout_.symmetry != MtxSymmetry::General) invalid(1, "array files must be general");

    do {
        if (!std::getline(in_, line)) invalid(line_number_, "missing size line");
        ++line_number_;
        bytes_read_ += line.size() + 1;
    } while (line.empty() || line[0] == '%');
    std::vector<std::string> fields;
    split_words(line, fields);
    const std::size_t size_fields = layout_.coordinate ? 3 : 2;
    if (fields.size() != size_fields || !parse_number(fields[0], layout_.rows) ||
        !parse_number(fields[1], layout_.cols) ||
        (layout_.coordinate && !parse_number(fields[2], layout_.entries))) {
        invalid(line_number_, "malformed size line '" + line + "'");
    }
    if (layout_.symmetry != MtxSymmetry::General && layout_.rows != layout_.cols) {
        invalid(line_number_, fmt::format("a {} matrix must be square, not {} x {}",
                                          layout_.symmetry == MtxSymmetry::Symmetric ? "symmetric" : "skew-symmetric",
                                          layout_.rows, layout_.cols));
    }
    if (!layout_.coordinate) {
        if (layout_.cols != 0 && layout_.rows > (std::uint64_t{1} << 34) / layout_.cols) {
            invalid(line_number_, "array too large to convert in memory");
        }
        layout_.entries = layout_.rows * layout_.cols;
    }
    check_announced_entries_fit(size_known);
}

// Every value line takes a few bytes at least ("1\n" in arrays, "1 1\n" for patterns, "1 1 1\n" otherwise; the last
// may lack its newline), so a regular file's size bounds how many entries it can hold. Refusing a larger count here
// keeps an absurd size line from sizing any buffer, and says what is wrong before anything is read.
void MtxInput::check_announced_entries_fit(bool size_known) const {
    if (!size_known) return;
    const std::uint64_t min_line_bytes = !layout_.coordinate ? 2 : layout_.field == MtxField::Pattern ? 4 : 6;
    const std::uint64_t remaining = file_size_ > bytes_read_ ? file_size_ - bytes_read_ : 0;
    const std::uint64_t room = (remaining + 1) / min_line_bytes;
    if (layout_.entries > room) {
        invalid(line_number_, fmt::format("the size line announces {} entries, but the {} bytes after it hold at most {}",
                                          layout_.entries, remaining, room));
    }
}

void MtxInput::read_entries(const OnEntry& on_entry) {
    std::string line;
    std::vector<std::string> fields;
    std::uint64_t read = 0;
    // The first negative value and the first one above 2^63 - 1: no integer type holds both.
    std::uint64_t negative_line = 0, above_i64_line = 0;
    std::string negative_text, above_i64_text;
    while (std::getline(in_, line)) {
        ++line_number_;
        bytes_read_ += line.size() + 1;
        if (line.empty() || line[0] == '%') continue;
        split_words(line, fields);
        if (fields.empty()) continue;
        if (read == layout_.entries) {
            invalid(line_number_, fmt::format("more than the {} entries announced", layout_.entries));
        }
        std::uint64_t row = 0, col = 0;
        std::size_t value_field = 0;
        if (layout_.coordinate) {
            const std::size_t needed = layout_.field == MtxField::Pattern ? 2 : 3;
            if (fields.size() != needed || !parse_number(fields[0], row) || !parse_number(fields[1], col) || row == 0 ||
                col == 0 || row > layout_.rows || col > layout_.cols) {
                invalid(line_number_, "malformed or out-of-range entry '" + line + "'");
            }
            --row;
            --col;
            value_field = 2;
        } else {
            if (fields.size() != 1) invalid(line_number_, "array lines hold one value: '" + line + "'");
            row = read % layout_.rows;  // column-major
            col = read / layout_.rows;
        }
        std::uint8_t value[8] = {};
        if (layout_.field == MtxField::Pattern) {
            const double one = 1.0;
            std::memcpy(value, &one, sizeof one);
        } else if (layout_.field == MtxField::Real) {
            const std::string& text = fields[value_field];
            const NumberText number = classify_number(text);
            double real = 0;
            if (!store_number(number, real)) {
                invalid(line_number_, number.form == NumberForm::NotANumber ? "'" + text + "' is not a real number"
                                                                            : refusal(number, text, DBDF_VALUE_F64));
            }
            std::memcpy(value, &real, sizeof real);
        } else {
            const std::string& text = fields[value_field];
            const NumberText number = classify_number(text);
            if (number.form != NumberForm::Integer) invalid(line_number_, "'" + text + "' is not an integer");
            if (number.fits_i64) {
                std::memcpy(value, &number.i64, sizeof number.i64);
                if (number.i64 < 0 && negative_line == 0) {
                    negative_line = line_number_;
                    negative_text = text;
                }
            } else if (number.fits_u64) {
                if (layout_.symmetry == MtxSymmetry::SkewSymmetric) {
                    invalid(line_number_, text + " has no negative for the mirrored entry in any integer type");
                }
                std::memcpy(value, &number.u64, sizeof number.u64);
                if (above_i64_line == 0) {
                    above_i64_line = line_number_;
                    above_i64_text = text;
                }
            } else {
                invalid(line_number_, "'" + text + "' fits neither i64 nor u64");
            }
            if (negative_line != 0 && above_i64_line != 0) {
                invalid(line_number_, fmt::format("no integer type holds both {} (line {}) and {} (line {})",
                                                  negative_text, negative_line, above_i64_text, above_i64_line));
            }
        }
        if (layout_.symmetry == MtxSymmetry::SkewSymmetric && row == col && !all_zero_bits_but_sign(value)) {
            invalid(line_number_, fmt::format("entry ({}, {}) is on the diagonal of a skew-symmetric matrix, which "
                                              "holds only zeros there", row + 1, col + 1));
        }
        on_entry(line_number_, row, col, value);
        ++read;
    }
    layout_.needs_u64 = above_i64_line != 0;
    if (read != layout_.entries) {
        invalid(line_number_, fmt::format("{} entries announced, {} found", layout_.entries, read));
    }
}

}  // namespace dbdf_cli
