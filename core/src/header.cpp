#include "dbdf/header.hpp"

#include <cstring>
#include <set>
#include <string>
#include <string_view>

#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "foreign_input.hpp"

namespace dbdf {
namespace {

// Field offsets of the header (spec, "Header").
constexpr std::size_t kVersionOffset = 0;
constexpr std::size_t kDataTypeOffset = 1;
constexpr std::size_t kRowsOffset = 2;
constexpr std::size_t kColsOffset = 10;
constexpr std::size_t kValueTypeOffset = 18;

std::string code_text(unsigned code) { return std::to_string(code); }

}  // namespace

ObjectHeader parse_header(std::span<const std::byte> input, std::size_t& header_bytes) {
    const std::uint64_t size = input.size();
    if (size > 0 && static_cast<unsigned>(input[kVersionOffset]) != kFormatVersion && detail::starts_like_text(input)) {
        throw_format(ErrorCode::Format, 6, kVersionOffset, detail::not_a_dbdf_file(input));
    }
    if (size < kFrameFixedHeaderBytes) {
        throw_format(ErrorCode::Truncated, 0, size,
                     "input of " + std::to_string(size) + " bytes ends inside the 18-byte object header");
    }
    const auto version = static_cast<unsigned>(input[kVersionOffset]);
    if (version != kFormatVersion) {
        throw_format(ErrorCode::Format, 6, kVersionOffset,
                     "format version " + code_text(version) + " is not supported (only version 1)");
    }
    const auto data_type_code = static_cast<unsigned>(input[kDataTypeOffset]);
    const auto data_type = static_cast<DataType>(data_type_code);
    if (!is_valid(data_type)) {
        throw_format(ErrorCode::Format, data_type_code == 0 ? 6 : 0, kDataTypeOffset,
                     "data type " + code_text(data_type_code) +
                         (data_type_code == 0 ? " is reserved" : " is unknown (1 dense, 2 CSR, 3 frame)"));
    }
    ObjectHeader header;
    header.data_type = data_type;
    header.rows = load_le<std::uint64_t>(input.data() + kRowsOffset);
    header.cols = load_le<std::uint64_t>(input.data() + kColsOffset);

    if (is_matrix(data_type)) {
        if (size < kMatrixHeaderBytes) {
            throw_format(ErrorCode::Truncated, 0, size, "input ends before the matrix header's value type");
        }
        const auto value_code = static_cast<unsigned>(input[kValueTypeOffset]);
        header.value_type = static_cast<ValueType>(value_code);
        if (!is_valid(header.value_type)) {
            throw_format(ErrorCode::Format, value_code == 0 ? 6 : 0, kValueTypeOffset,
                         "object value type " + code_text(value_code) + invalid_value_type_reason(value_code));
        }
        header_bytes = kMatrixHeaderBytes;
        return header;
    }

    // Frame: #c value types, then #c (uint16 length, label) pairs. Each column takes at least 3 bytes, so the
    // input must hold that much before anything is sized by #c (rule 7).
    const std::uint64_t available = size - kFrameFixedHeaderBytes;
    if (header.cols > available / 3) {
        throw_format(ErrorCode::Truncated, 7, kColsOffset,
                     "frame header declares " + std::to_string(header.cols) + " columns but only " +
                         std::to_string(available) + " bytes follow (each column needs at least 3)");
    }
    header.column_types.reserve(header.cols);
    std::size_t offset = kFrameFixedHeaderBytes;
    for (std::uint64_t column = 0; column < header.cols; ++column, ++offset) {
        const auto value_code = static_cast<unsigned>(input[offset]);
        const auto type = static_cast<ValueType>(value_code);
        if (!is_valid(type)) {
            throw_format(ErrorCode::Format, value_code == 0 ? 6 : 0, offset,
                         "value type " + code_text(value_code) + " of frame column " + std::to_string(column) +
                             invalid_value_type_reason(value_code));
        }
        header.column_types.push_back(type);
    }
    header.labels.reserve(header.cols);
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        if (size - offset < 2) {
            throw_format(ErrorCode::Truncated, 16, offset,
                         "input ends inside the label length of frame column " + std::to_string(column));
        }
        const std::uint16_t length = load_le<std::uint16_t>(input.data() + offset);
        if (size - offset - 2 < length) {
            throw_format(ErrorCode::Truncated, 16, offset,
                         "label of frame column " + std::to_string(column) + " (" + std::to_string(length) +
                             " bytes) runs past the end of the input");
        }
        const auto* text = reinterpret_cast<const char*>(input.data() + offset + 2);
        header.labels.emplace_back(text, length);
        offset += 2 + std::size_t{length};
    }
    header_bytes = offset;
    return header;
}

void check_header_for_writing(const ObjectHeader& header) {
    if (!is_valid(header.data_type)) throw Error(ErrorCode::InvalidArgument, "unknown data type");
    if (is_matrix(header.data_type)) {
        if (!is_valid(header.value_type)) {
            throw Error(ErrorCode::InvalidArgument, "a matrix needs a value type from u8 to f64, got code " +
                                                        std::to_string(static_cast<unsigned>(header.value_type)));
        }
        return;
    }
    if (header.column_types.size() != header.cols || header.labels.size() != header.cols) {
        throw Error(ErrorCode::InvalidArgument, "a frame needs exactly one value type and one label per column");
    }
    std::set<std::string_view> seen_labels;
    for (std::size_t column = 0; column < header.cols; ++column) {
        if (!is_valid(header.column_types[column])) {
            throw Error(ErrorCode::InvalidArgument,
                        "frame column " + std::to_string(column) + " needs a value type from u8 to f64");
        }
        const std::string& label = header.labels[column];
        if (label.size() > 0xFFFF) {
            throw Error(ErrorCode::InvalidArgument, "label of frame column " + std::to_string(column) + " has " +
                                                        std::to_string(label.size()) +
                                                        " bytes; at most 65535 fit (rule 16)");
        }
        if (!seen_labels.insert(label).second) {
            throw Error(ErrorCode::InvalidArgument,
                        "label \"" + label + "\" of frame column " + std::to_string(column) +
                            " repeats an earlier label; frame labels must be unique (rule 16)");
        }
    }
}

std::vector<std::byte> encode_header(const ObjectHeader& header) {
    std::size_t size = kFrameFixedHeaderBytes;
    if (is_matrix(header.data_type)) {
        size = kMatrixHeaderBytes;
    } else {
        size += header.cols;
        for (const auto& label : header.labels) size += 2 + label.size();
    }
    std::vector<std::byte> bytes(size);
    bytes[kVersionOffset] = std::byte{kFormatVersion};
    bytes[kDataTypeOffset] = static_cast<std::byte>(header.data_type);
    store_le<std::uint64_t>(bytes.data() + kRowsOffset, header.rows);
    store_le<std::uint64_t>(bytes.data() + kColsOffset, header.cols);
    if (is_matrix(header.data_type)) {
        bytes[kValueTypeOffset] = static_cast<std::byte>(header.value_type);
        return bytes;
    }
    std::size_t offset = kFrameFixedHeaderBytes;
    for (ValueType type : header.column_types) bytes[offset++] = static_cast<std::byte>(type);
    for (const auto& label : header.labels) {
        store_le<std::uint16_t>(bytes.data() + offset, static_cast<std::uint16_t>(label.size()));
        if (!label.empty()) std::memcpy(bytes.data() + offset + 2, label.data(), label.size());
        offset += 2 + label.size();
    }
    return bytes;
}

}  // namespace dbdf
