#include "npy_header.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "../handles.hpp"
#include "../input_excerpt.hpp"
#include "../value_types.hpp"
#include "windowed_input.hpp"

namespace dbdf_cli {
namespace {

[[noreturn]] void invalid(const std::string& path, const std::string& what) {
    throw CliError(path + ": " + what, kExitInvalid);
}

// The dictionary as NumPy writes it: {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), } and padding.
// Python's own syntax is accepted where NumPy's reader (ast.literal_eval) accepts it for these three values: any
// whitespace between tokens, either quote for strings, an optional trailing comma, the keys in any order. Anything
// else (a structured dtype's list of fields, a shape that is not a tuple of integers) is refused with what it is.
class HeaderDictionary {
public:
    HeaderDictionary(std::string_view text, std::uint64_t file_offset, const std::string& path)
        : text_(text), file_offset_(file_offset), path_(path) {}

    void parse(NpyHeader& header) {
        skip_space();
        expect('{', "the dictionary to start");
        bool seen_descr = false, seen_fortran_order = false, seen_shape = false;
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            const std::size_t key_at = at_;
            const std::string_view key = string_literal("a key");
            skip_space();
            expect(':', "after the key " + quoted_input(key));
            skip_space();
            auto first_time = [&](bool& seen) {
                if (seen) fail_at(key_at, fmt::format("the key {} appears twice", quoted_input(key)));
                seen = true;
            };
            if (key == "descr") {
                first_time(seen_descr);
                read_descr(header);
            } else if (key == "fortran_order") {
                first_time(seen_fortran_order);
                header.fortran_order = read_bool();
            } else if (key == "shape") {
                first_time(seen_shape);
                read_shape(header);
            } else {
                fail_at(key_at, fmt::format("unexpected key {} (an .npy header has exactly 'descr', 'fortran_order' "
                                            "and 'shape')",
                                            quoted_input(key)));
            }
            skip_space();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            if (peek() != '}') fail(found("',' or '}' after the value of " + quoted_input(key)));
        }
        ++at_;  // '}'
        skip_space();
        if (at_ != text_.size()) fail(found("only spaces and a newline after the dictionary"));
        if (!seen_descr) invalid(path_, "the .npy header has no 'descr'");
        if (!seen_fortran_order) invalid(path_, "the .npy header has no 'fortran_order'");
        if (!seen_shape) invalid(path_, "the .npy header has no 'shape'");
    }

private:
    static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    void skip_space() {
        while (at_ < text_.size() && is_space(text_[at_])) ++at_;
    }

    [[noreturn]] void fail_at(std::size_t at, const std::string& what) const {
        invalid(path_, fmt::format("the .npy header at byte {}: {}", file_offset_ + at, what));
    }
    [[noreturn]] void fail(const std::string& what) const { fail_at(at_, what); }

    // "expected X, found 'rest of the text'" (or "the end of the header").
    std::string found(const std::string& expected) const {
        if (at_ >= text_.size()) return "expected " + expected + ", found the end of the header";
        return "expected " + expected + ", found " + quoted_input(text_.substr(at_));
    }

    void expect(char c, const std::string& what) {
        if (peek() != c) fail(found(fmt::format("'{}' {}", c, what)));
        ++at_;
    }

    // A string without escapes, in single or double quotes (NumPy's keys and dtype codes never need one).
    std::string_view string_literal(const std::string& what) {
        const char quote = peek();
        if (quote != '\'' && quote != '"') fail(found(what + " in quotes"));
        const std::size_t start = ++at_;
        while (at_ < text_.size() && text_[at_] != quote) {
            if (text_[at_] == '\\' || text_[at_] == '\n') fail("a string with an escape or a line break");
            ++at_;
        }
        if (at_ >= text_.size()) fail_at(start - 1, "a string that does not end");
        return text_.substr(start, at_++ - start);
    }

    void read_descr(NpyHeader& header) {
        if (peek() == '[') {
            fail("'descr' is a list of fields (a structured dtype); only arrays of one numeric type can be converted");
        }
        const std::size_t descr_at = at_;
        const std::string_view descr = string_literal("'descr' as a string such as '<f8'");
        const char order = descr.empty() ? '\0' : descr.front();
        const bool has_order = order == '<' || order == '>' || order == '|' || order == '=';
        const std::string_view code = has_order ? descr.substr(1) : descr;
        header.value_type = npy_value_type(code);
        if (!has_order || header.value_type == DBDF_VALUE_NONE) {
            fail_at(descr_at, fmt::format("dtype {} is not one of the numeric types ({} after a byte order: <, >, "
                                          "| or =)",
                                          quoted_input(descr), npy_dtype_codes_text()));
        }
        header.big_endian = order == '>' && dbdf_value_type_size(header.value_type) > 1;
    }

    bool read_bool() {
        for (const std::string_view word : {std::string_view("True"), std::string_view("False")}) {
            if (text_.substr(at_, word.size()) == word) {
                at_ += word.size();
                return word == "True";
            }
        }
        fail(found("'fortran_order' as True or False"));
    }

    // A tuple of non-negative decimal integers: (), (n,), (rows, cols), ... Python makes (n) an integer, not a tuple.
    void read_shape(NpyHeader& header) {
        if (peek() != '(') fail(found("'shape' as a tuple such as (3, 4)"));
        ++at_;
        std::uint64_t dimensions = 0;
        std::uint64_t extents[2] = {1, 1};
        bool trailing_comma = false;
        for (;;) {
            skip_space();
            if (peek() == ')') break;
            const std::uint64_t extent = read_extent(dimensions);
            if (dimensions < 2) extents[dimensions] = extent;
            ++dimensions;
            skip_space();
            trailing_comma = peek() == ',';
            if (trailing_comma) {
                ++at_;
                continue;
            }
            if (peek() != ')') fail(found("',' or ')' in 'shape'"));
        }
        ++at_;  // ')'
        if (dimensions == 1 && !trailing_comma) {
            fail("'shape' is an integer in parentheses, not a tuple (a 1-D shape is written (n,))");
        }
        if (dimensions > 2) {
            invalid(path_, fmt::format("{}-dimensional arrays cannot be stored; only 1-D and 2-D", dimensions));
        }
        header.rows = extents[0];
        header.cols = dimensions == 2 ? extents[1] : 1;
    }

    std::uint64_t read_extent(std::uint64_t dimension) {
        const std::size_t start = at_;
        if (peek() == '-') {
            ++at_;
            skip_space();
            while (is_digit(peek())) ++at_;
            fail_at(start, fmt::format("dimension {} of 'shape' is negative ({})", dimension,
                                       quoted_input(text_.substr(start, at_ - start))));
        }
        std::uint64_t extent = 0;
        bool overflow = false;
        while (is_digit(peek())) {
            overflow = overflow || __builtin_mul_overflow(extent, 10, &extent) ||
                       __builtin_add_overflow(extent, static_cast<std::uint64_t>(peek() - '0'), &extent);
            ++at_;
        }
        if (at_ == start) {
            std::size_t end = at_;
            while (end < text_.size() && text_[end] != ',' && text_[end] != ')' && !is_space(text_[end])) ++end;
            fail(fmt::format("dimension {} of 'shape' is not a non-negative integer: {}", dimension,
                             end == at_ ? std::string("nothing") : quoted_input(text_.substr(at_, end - at_))));
        }
        if (overflow) {
            fail_at(start, fmt::format("dimension {} of 'shape' is above 2^64 - 1: {}", dimension,
                                       quoted_input(text_.substr(start, at_ - start))));
        }
        return extent;
    }

    std::string_view text_;
    std::uint64_t file_offset_;  // of text_[0], for messages
    const std::string& path_;
    std::size_t at_ = 0;
};

}  // namespace

// NumPy's dtype code is its kind character and the item size in bytes, which the C++ type of a value type gives.
std::string npy_dtype_code(dbdf_value_type_t type) {
    return visit_value_type(type, [](auto tag) {
        using T = typename decltype(tag)::type;
        static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "decide the NumPy kind of this type");
        const char kind = std::is_floating_point_v<T> ? 'f' : std::is_signed_v<T> ? 'i' : 'u';
        return kind + std::to_string(sizeof(T));
    });
}

dbdf_value_type_t npy_value_type(std::string_view code) {
    for (const dbdf_value_type_t type : all_value_types()) {
        if (code == npy_dtype_code(type)) return type;
    }
    return DBDF_VALUE_NONE;
}

std::string npy_dtype_codes_text() {
    std::string text;
    for (const dbdf_value_type_t type : all_value_types()) {
        if (!text.empty()) text += ", ";
        text += npy_dtype_code(type);
    }
    return text;
}

NpyHeader parse_npy_header(WindowedInput& file) {
    const std::string& path = file.path();
    const std::uint64_t size = file.size();
    static const std::uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size < 10) invalid(path, "not an .npy file (bad magic)");
    const std::uint8_t* data = file.bytes(0, static_cast<std::size_t>(std::min<std::uint64_t>(size, 12)));
    if (std::memcmp(data, kMagic, sizeof kMagic) != 0) invalid(path, "not an .npy file (bad magic)");
    const unsigned major = data[6];
    std::uint64_t header_length = 0;
    std::uint64_t prefix = 0;
    if (major == 1) {
        header_length = data[8] | (std::uint64_t{data[9]} << 8);
        prefix = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) invalid(path, "truncated .npy header");
        header_length =
            data[8] | (std::uint64_t{data[9]} << 8) | (std::uint64_t{data[10]} << 16) | (std::uint64_t{data[11]} << 24);
        prefix = 12;
    } else {
        invalid(path, fmt::format("unsupported .npy format version {}.{}", major, data[7]));
    }
    if (header_length > kMaxNpyHeaderBytes) {
        invalid(path, fmt::format("the .npy header is {} bytes long; dbdf reads headers of at most {} bytes",
                                  header_length, kMaxNpyHeaderBytes));
    }
    if (header_length > size - prefix) {
        invalid(path, fmt::format("truncated .npy header: it announces {} bytes, the file holds {} after the length",
                                  header_length, size - prefix));
    }
    NpyHeader header;
    header.data_offset = prefix + header_length;
    // The dictionary is parsed in place, in the input's window, before anything else is read from it.
    const auto* dictionary = reinterpret_cast<const char*>(file.bytes(prefix, static_cast<std::size_t>(header_length)));
    HeaderDictionary(std::string_view(dictionary, static_cast<std::size_t>(header_length)), prefix, path).parse(header);

    std::uint64_t cells = 0;
    std::uint64_t data_bytes = 0;
    if (__builtin_mul_overflow(header.rows, header.cols, &cells) ||
        __builtin_mul_overflow(cells, dbdf_value_type_size(header.value_type), &data_bytes)) {
        invalid(path, "the array's shape is too large");
    }
    if (data_bytes != size - header.data_offset) {
        invalid(path, fmt::format("the array needs {} data bytes but the file holds {}", data_bytes,
                                  size - header.data_offset));
    }
    return header;
}

}  // namespace dbdf_cli
