// Numbers in text files (.csv fields, .mtx values): what a field's text says, and storing it in a value type
// without losing anything the text states.
//
// A field written as an integer (digits with an optional sign) is an exact quantity: it is stored exactly or not at
// all, also in a float type (9007199254740993 has no f64). A field written with a decimal point, an exponent, or as
// nan / inf is a floating-point number and reads as the nearest value of its float type, as every parser reads such
// text; dbdf writes float values so that this gives back the very value written (see typed_values.hpp).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "dbdf.h"
#include "input_excerpt.hpp"
#include "value_types.hpp"

namespace dbdf_cli {

enum class NumberForm {
    NotANumber,
    Integer,  // [+-]digits
    Float,    // anything else std::from_chars reads as a double: 0.5, 1e3, nan, inf
};

struct NumberText {
    NumberForm form = NumberForm::NotANumber;
    std::string_view text;  // without surrounding spaces and without a leading '+'
    bool negative = false;  // starts with '-'
    // Integers only: whether the value fits i64 / u64, and the value in the type it fits (i64 first).
    bool fits_i64 = false;
    bool fits_u64 = false;
    std::int64_t i64 = 0;
    std::uint64_t u64 = 0;
    // Float only: the magnitude is beyond the range of f64 (1e400, 1e-400), so it has no f64 value at all.
    bool out_of_f64_range = false;

    // "-0", "-00": an integer zero written with a sign; only a float type keeps the sign.
    bool negative_zero() const { return form == NumberForm::Integer && negative && fits_i64 && i64 == 0; }
};

namespace number_text_detail {

// The decimal digits of an integral float's magnitude, exactly (every float of 2^64 or more is an integer whose
// digits std::to_string cannot give): the 53-bit mantissa doubled `shift` times in base 10^9.
inline std::string integer_digits(double value) {
    const double magnitude = std::fabs(value);
    if (magnitude < 18446744073709551616.0) return std::to_string(static_cast<std::uint64_t>(magnitude));
    int exponent = 0;
    // magnitude = fraction * 2^exponent with fraction in [0.5, 1): its 53 bits, shifted left 64, are an integer.
    const double fraction = std::frexp(magnitude, &exponent);
    std::uint64_t mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 64));
    constexpr std::uint32_t kBase = 1000000000;
    std::vector<std::uint32_t> limbs;  // little-endian base 10^9
    while (mantissa != 0) {
        limbs.push_back(static_cast<std::uint32_t>(mantissa % kBase));
        mantissa /= kBase;
    }
    for (int shift = exponent - 64; shift > 0; --shift) {
        std::uint32_t carry = 0;
        for (std::uint32_t& limb : limbs) {
            const std::uint64_t doubled = std::uint64_t{limb} * 2 + carry;
            limb = static_cast<std::uint32_t>(doubled % kBase);
            carry = static_cast<std::uint32_t>(doubled / kBase);
        }
        if (carry != 0) limbs.push_back(carry);
    }
    std::string digits = std::to_string(limbs.back());
    for (std::size_t i = limbs.size() - 1; i-- > 0;) {
        const std::string limb = std::to_string(limbs[i]);
        digits += std::string(9 - limb.size(), '0') + limb;
    }
    return digits;
}

// The digits of an integer text without its sign and leading zeros ("0" for zero).
inline std::string_view significant_digits(std::string_view text) {
    if (!text.empty() && text[0] == '-') text.remove_prefix(1);
    const std::size_t first = text.find_first_not_of('0');
    return first == std::string_view::npos ? std::string_view("0") : text.substr(first);
}

// The integer a float text such as "1.0", "2.5e1" or "-0.0" states exactly, as an integer text ("1", "25", "-0"),
// or "" when its value is not an integer (a fraction, nan, inf) or has more than 20 digits (no 64-bit type holds it).
inline std::string integer_of_float_text(std::string_view text) {
    std::string sign;
    if (!text.empty() && text.front() == '-') {
        sign = "-";
        text.remove_prefix(1);
    }
    const std::size_t e = text.find_first_of("eE");
    const std::string_view mantissa = text.substr(0, e);
    long long exponent = 0;
    if (e != std::string_view::npos) {
        std::string_view power = text.substr(e + 1);
        if (!power.empty() && power.front() == '+') power.remove_prefix(1);
        const auto result = std::from_chars(power.data(), power.data() + power.size(), exponent);
        if (result.ec != std::errc() || result.ptr != power.data() + power.size()) return "";
    }
    std::string digits;
    for (const char c : mantissa) {
        if (c == '.') continue;
        if (c < '0' || c > '9') return "";  // nan, inf
        digits += c;
    }
    const std::size_t point = mantissa.find('.');
    if (point != std::string_view::npos) exponent -= static_cast<long long>(mantissa.size() - point - 1);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if (digits.empty()) return sign + "0";
    while (exponent < 0 && digits.back() == '0') {
        digits.pop_back();
        ++exponent;
    }
    if (exponent < 0 || static_cast<long long>(digits.size()) + exponent > 20) return "";
    return sign + digits + std::string(static_cast<std::size_t>(exponent), '0');
}

}  // namespace number_text_detail

// Reads what the text of one field says. Surrounding spaces are ignored, as is one leading '+'.
inline NumberText classify_number(std::string_view text) {
    NumberText number;
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
        if (!text.empty() && (text.front() == '-' || text.front() == '+')) return number;
    }
    if (text.empty()) return number;
    number.text = text;
    number.negative = text.front() == '-';
    const char* first = text.data();
    const char* last = first + text.size();
    const std::string_view digits = number.negative ? text.substr(1) : text;
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
        number.form = NumberForm::Integer;
        const auto as_i64 = std::from_chars(first, last, number.i64);
        number.fits_i64 = as_i64.ec == std::errc() && as_i64.ptr == last;
        if (number.fits_i64) {
            number.fits_u64 = number.i64 >= 0;
            number.u64 = static_cast<std::uint64_t>(number.i64);
        } else if (!number.negative) {
            const auto as_u64 = std::from_chars(first, last, number.u64);
            number.fits_u64 = as_u64.ec == std::errc() && as_u64.ptr == last;
        }
        return number;
    }
    double value = 0;
    const auto result = std::from_chars(first, last, value);
    if (result.ptr != last || (result.ec != std::errc() && result.ec != std::errc::result_out_of_range)) return number;
    number.form = NumberForm::Float;
    number.out_of_f64_range = result.ec == std::errc::result_out_of_range;
    return number;
}

// Stores the number in `out` when the value type holds what its text says: an integer exactly (its sign of zero
// only in a float type), a float as the nearest value of a float type, within the type's range, or exactly in an
// integer type when its value is an integer ("1.0"). A sign of zero has no meaning in an integer type, so "-0"
// stores 0 there (as the library converts -0.0 to an integer).
template <class T>
bool store_number(const NumberText& number, T& out) {
    if (number.form == NumberForm::NotANumber) return false;
    const char* first = number.text.data();
    const char* last = first + number.text.size();
    if constexpr (std::is_integral_v<T>) {
        if (number.form == NumberForm::Float) {
            // A float text whose value is an integer ("1.0", "1e3") is that integer, exactly.
            const std::string integer = number_text_detail::integer_of_float_text(number.text);
            return !integer.empty() && store_number(classify_number(integer), out);
        }
        if (number.negative_zero()) {
            out = 0;
            return true;
        }
        const auto result = std::from_chars(first, last, out);
        return result.ec == std::errc() && result.ptr == last;
    } else {
        // Integers of magnitude up to 2^digits are all values of T: the common case needs no digit comparison.
        constexpr std::int64_t kExact = std::int64_t{1} << std::numeric_limits<T>::digits;
        if (number.form == NumberForm::Integer && number.fits_i64 && number.i64 >= -kExact && number.i64 <= kExact) {
            out = number.negative_zero() ? -T(0) : static_cast<T>(number.i64);
            return true;
        }
        T value{};
        const auto result = std::from_chars(first, last, value);
        if (result.ec != std::errc() || result.ptr != last) return false;  // beyond the type's range
        if (number.form == NumberForm::Integer && number_text_detail::integer_digits(static_cast<double>(value)) !=
                                                      number_text_detail::significant_digits(number.text)) {
            return false;  // the nearest float is another integer
        }
        out = value;
        return true;
    }
}

// Whether the value type `type` holds the number (store_number would succeed).
inline bool number_fits(const NumberText& number, dbdf_value_type_t type) {
    return visit_value_type(type, [&](auto tag) {
        typename decltype(tag)::type value{};
        return store_number(number, value);
    });
}

// Stores the number in a cell of `type` (its little-endian bytes); false when the type does not hold it.
inline bool store_number_in(const NumberText& number, dbdf_value_type_t type, std::uint8_t* cell) {
    return visit_value_type(type, [&](auto tag) {
        typename decltype(tag)::type value{};
        if (!store_number(number, value)) return false;
        std::memcpy(cell, &value, sizeof value);
        return true;
    });
}

// Why a number is refused by a type, for error messages: "'x' is not a number", "'0.5' is not a value of type i64",
// "'9007199254740993' is not exactly representable in f64", "'1e400' is outside the range of f64". The text is
// quoted as an excerpt (input_excerpt.hpp): a field may be megabytes long.
inline std::string refusal(const NumberText& number, std::string_view original, dbdf_value_type_t type) {
    const std::string name = dbdf_value_type_name(type);
    const std::string quoted = quoted_input(original);
    if (number.form == NumberForm::NotANumber) return quoted + " is not a number";
    if (!is_float_type(type)) return quoted + " is not a value of type " + name;
    if (number.form == NumberForm::Integer) return quoted + " is not exactly representable in " + name;
    return quoted + " is outside the range of " + name;
}

}  // namespace dbdf_cli
