#include "futhark_values.hpp"

#include <array>
#include <cstring>

#include <fmt/format.h>

namespace dbdf_cli {
namespace {

constexpr std::array<FutharkElement, 12> kElements{{
    {"  u8", 1, DBDF_VALUE_U8, false, false},
    {" u16", 2, DBDF_VALUE_U16, false, false},
    {" u32", 4, DBDF_VALUE_U32, false, false},
    {" u64", 8, DBDF_VALUE_U64, false, false},
    {"  i8", 1, DBDF_VALUE_I8, false, false},
    {" i16", 2, DBDF_VALUE_I16, false, false},
    {" i32", 4, DBDF_VALUE_I32, false, false},
    {" i64", 8, DBDF_VALUE_I64, false, false},
    {" f32", 4, DBDF_VALUE_F32, false, false},
    {" f64", 8, DBDF_VALUE_F64, false, false},
    {" f16", 2, DBDF_VALUE_F32, true, false},
    {"bool", 1, DBDF_VALUE_U8, false, true},
}};

constexpr std::uint8_t kVersion = 2;
constexpr std::size_t kTypeBytes = 4;

bool is_space(std::uint8_t byte) {
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\v' || byte == '\f';
}

std::uint64_t little_endian_u64(const std::uint8_t* bytes) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

std::string quoted_type(const std::uint8_t* bytes) {
    std::string text;
    for (std::size_t i = 0; i < kTypeBytes; ++i) {
        const char c = static_cast<char>(bytes[i]);
        text += (bytes[i] >= 0x20 && bytes[i] < 0x7F) ? std::string(1, c) : fmt::format("\\x{:02x}", bytes[i]);
    }
    return "\"" + text + "\"";
}

// "f16" for " f16": the type as Futhark programs write it.
std::string_view element_name(const FutharkElement& element) {
    return element.name.substr(element.name.find_first_not_of(' '));
}

std::string type_list() {
    std::string text;
    for (const FutharkElement& element : kElements)
        text += (text.empty() ? "\"" : ", \"") + std::string(element.name) + "\"";
    return text;
}

// Reads one value at `offset` (its 'b'); `number` counts values from 1 for messages.
FutharkValue read_value(WindowedInput& file, std::uint64_t offset, std::size_t number) {
    const std::uint64_t size = file.size();
    auto fail = [&](const std::string& what) {
        return CliError(fmt::format("{}: value {} at byte {}: {}", file.path(), number, offset, what), kExitInvalid);
    };
    constexpr std::uint64_t kFixedBytes = 3 + kTypeBytes;  // 'b', version, rank, type
    if (size - offset < kFixedBytes) {
        throw fail(fmt::format("truncated header: {} bytes where 'b', version, rank and type need {}", size - offset,
                               kFixedBytes));
    }
    const std::uint8_t* head = file.bytes(offset, kFixedBytes);
    if (head[0] != 'b') {
        throw fail(fmt::format("not Futhark binary data: it starts with byte 0x{:02x} instead of 'b'", head[0]));
    }
    if (head[1] != kVersion) throw fail(fmt::format("binary format version {} is not supported (only 2)", head[1]));
    FutharkValue value;
    value.offset = offset;
    value.rank = head[2];
    if (value.rank > 2) {
        throw fail(fmt::format("an array of rank {} cannot be a .dbdf object (ranks 0, 1 and 2 only)", value.rank));
    }
    for (const FutharkElement& element : kElements) {
        if (std::memcmp(head + 3, element.name.data(), kTypeBytes) == 0) value.element = &element;
    }
    if (value.element == nullptr) {
        throw fail(fmt::format("unknown element type {} (one of {})", quoted_type(head + 3), type_list()));
    }
    const std::uint64_t shape_offset = offset + kFixedBytes;
    const std::uint64_t shape_bytes = 8 * value.rank;
    if (size - shape_offset < shape_bytes) {
        throw fail(fmt::format("truncated shape: {} bytes where {} lengths need {}", size - shape_offset, value.rank,
                               shape_bytes));
    }
    std::uint64_t lengths[2] = {1, 1};
    if (value.rank > 0) {
        const std::uint8_t* shape = file.bytes(shape_offset, shape_bytes);
        for (unsigned d = 0; d < value.rank; ++d) lengths[d] = little_endian_u64(shape + 8 * d);
    }
    value.rows = lengths[0];
    value.cols = value.rank == 2 ? lengths[1] : 1;
    value.data_offset = shape_offset + shape_bytes;
    // The data must be in the file: the lengths are checked against the bytes that follow them, so no length, however
    // large, leads to an allocation or a read beyond the file.
    std::uint64_t elements = 0;
    std::uint64_t data_bytes = 0;
    const std::uint64_t available = size - value.data_offset;
    const bool overflows = __builtin_mul_overflow(value.rows, value.cols, &elements) ||
                           __builtin_mul_overflow(elements, value.element->width, &data_bytes);
    if (overflows || data_bytes > available) {
        const std::string shape = value.rank == 0   ? std::string("()")
                                  : value.rank == 1 ? fmt::format("[{}]", value.rows)
                                                    : fmt::format("[{}][{}]", value.rows, value.cols);
        const std::string needed = overflows ? std::string("2^64 bytes or more") : fmt::format("{} bytes", data_bytes);
        throw fail(fmt::format("truncated data: shape {} of {} needs {}, the file has {} after the shape", shape,
                               element_name(*value.element), needed, available));
    }
    return value;
}

// Several values become a frame's columns: each must be rank 1, all of one length. Checked as each value is read,
// so a file of millions of scalars is refused at its second value rather than after listing them all.
void require_column(const FutharkValue& first, const FutharkValue& value, std::size_t number, const std::string& path) {
    if (first.rank == 1 && value.rank == 1 && value.rows == first.rows) return;
    const FutharkValue& odd = first.rank != 1 ? first : value;
    const std::string what = odd.rank != 1
                                 ? fmt::format("is of rank {}", odd.rank)
                                 : fmt::format("has {} elements where value 1 has {}", value.rows, first.rows);
    throw CliError(fmt::format("{}: value {} at byte {} {}: a file of several values becomes a frame of columns, which "
                               "needs rank-1 arrays of one length",
                               path, &odd == &first ? 1 : number, odd.offset, what),
                   kExitInvalid);
}

}  // namespace

const FutharkElement& futhark_element_of(dbdf_value_type_t type, bool as_bool) {
    if (as_bool) return kElements[11];
    for (const FutharkElement& element : kElements) {
        if (element.value_type == type && !element.is_f16 && !element.is_bool) return element;
    }
    throw CliError(fmt::format("value type {} has no Futhark element type", static_cast<int>(type)), kExitInvalid);
}

std::vector<FutharkValue> read_futhark_values(WindowedInput& file) {
    std::vector<FutharkValue> values;
    std::uint64_t offset = 0;
    const std::uint64_t size = file.size();
    while (true) {
        // Whitespace may come before a value (Futhark programs read binary and text arguments mixed).
        while (offset < size && is_space(*file.bytes(offset, 1))) ++offset;
        if (offset == size) break;
        const FutharkValue value = read_value(file, offset, values.size() + 1);
        if (!values.empty()) require_column(values.front(), value, values.size() + 1, file.path());
        values.push_back(value);
        offset = value.data_offset + value.rows * value.cols * value.element->width;
    }
    if (values.empty()) {
        throw CliError(file.path() + ": no Futhark value: the file is empty or holds only whitespace", kExitInvalid);
    }
    return values;
}

float f16_to_f32(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    std::uint32_t mantissa = bits & 0x3FFu;
    std::uint32_t result = 0;
    if (exponent == 0x1F) {
        result = sign | 0x7F800000u | (mantissa << 13);  // infinity, or NaN with its payload
    } else if (exponent != 0) {
        result = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        result = sign;  // signed zero
    } else {
        // A subnormal half is a normal float: shift the mantissa up to its leading one.
        exponent = 127 - 15 + 1;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        result = sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13);
    }
    float value = 0;
    std::memcpy(&value, &result, sizeof value);
    return value;
}

std::string futhark_value_header(const FutharkElement& element, unsigned rank, std::uint64_t rows, std::uint64_t cols) {
    std::string header{'b', static_cast<char>(kVersion), static_cast<char>(rank)};
    header.append(element.name);
    const std::uint64_t lengths[2] = {rows, cols};
    for (unsigned d = 0; d < rank; ++d) {
        for (int byte = 0; byte < 8; ++byte) header.push_back(static_cast<char>((lengths[d] >> (8 * byte)) & 0xFF));
    }
    return header;
}

}  // namespace dbdf_cli
