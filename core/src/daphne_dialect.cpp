#include "daphne_dialect.hpp"

#include <array>
#include <cstdio>
#include <string>

#include "block_decoder.hpp"
#include "dbdf/dialect.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "foreign_input.hpp"
#include "wide_count.hpp"

namespace dbdf {

std::string_view name(Dialect dialect) {
    switch (dialect) {
        case Dialect::Spec: return "spec";
        case Dialect::Daphne: return "daphne";
    }
    return "unknown";
}

std::optional<Dialect> parse_dialect(std::string_view text) {
    if (text == "spec") return Dialect::Spec;
    if (text == "daphne") return Dialect::Daphne;
    return std::nullopt;
}

namespace {

// DAPHNE's codes of the numeric types are a column of DBDF_VALUE_TYPES (types.hpp); these are its string types,
// which dbdf refuses with a message of their own.
constexpr std::uint8_t kDaphneStringCode = 8;       // STR: raw std::string objects
constexpr std::uint8_t kDaphneFixedStringCode = 9;  // FIXEDSTR16

}  // namespace

std::optional<std::uint8_t> daphne_value_code(ValueType type) {
    const ValueTypeInfo* info = find_value_type_info(type);
    if (info == nullptr || info->daphne_code == kNoDaphneCode) return std::nullopt;
    return static_cast<std::uint8_t>(info->daphne_code);
}

std::optional<ValueType> value_type_of_daphne_code(std::uint8_t code) {
    for (const ValueTypeInfo& info : kValueTypeInfos) {
        if (info.daphne_code == code) return info.type;
    }
    return std::nullopt;
}

std::string_view daphne_meta_name(ValueType type) {
    const ValueTypeInfo* info = find_value_type_info(type);
    return info != nullptr ? info->daphne_meta_name : std::string_view{};
}

namespace detail {
namespace {

using Wide = WideCount;

// Offsets of the daphne dialect's fixed fields (DIALECT.md 4.1, 5.1, 7).
constexpr std::size_t kVersionOffset = 0;
constexpr std::size_t kDataTypeOffset = 1;
constexpr std::size_t kRowsOffset = 2;
constexpr std::size_t kColsOffset = 10;
constexpr std::size_t kValueTypeOffset = 18;
constexpr std::size_t kMatrixHeaderEnd = 19;
constexpr std::uint64_t kBlockRecordBytes = 26;  // rx, cx, #r, #c, block type, value type
constexpr std::uint64_t kNonZerosBytes = 8;

// A violation of the daphne dialect's layout: the message names the byte offset and the dialect.
[[noreturn]] void throw_daphne(ErrorCode code, std::uint64_t offset, const std::string& what) {
    throw Error(code, what + " at byte " + std::to_string(offset) + " (daphne dialect)", 0, offset);
}

std::string wide_text(Wide value) {
    if (value > Wide{~0ull}) return "more than 2^64";
    return std::to_string(static_cast<std::uint64_t>(value));
}

const char* const kStringRefusal =
    "DAPHNE's runtime stores each string as the raw bytes of an in-memory std::string object (a heap pointer, "
    "the length and, only for strings of up to 15 characters, the text), so the contents of string data "
    "cannot be recovered from the file";

// A value type code of the daphne dialect; refuses the string codes with the reason.
ValueType read_daphne_value_type(std::span<const std::byte> input, std::uint64_t offset, const std::string& owner) {
    const auto code = static_cast<std::uint8_t>(input[offset]);
    if (auto type = value_type_of_daphne_code(code)) return *type;
    if (code == kDaphneStringCode || code == kDaphneFixedStringCode) {
        throw_daphne(ErrorCode::Unsupported, offset,
                     owner + " has DAPHNE value type " + std::to_string(code) +
                         (code == kDaphneStringCode ? " (STR)" : " (FIXEDSTR16)") + ": " + kStringRefusal);
    }
    throw_daphne(ErrorCode::Format, offset,
                 owner + " has value type code " + std::to_string(code) +
                     ", which the daphne dialect does not define (0..7 numeric, 8 STR, 9 FIXEDSTR16)");
}

// Frames: the runtime's writer stops at the first value of a string column, so such a file is always cut off.
[[noreturn]] void refuse_string_column(std::uint64_t column, std::uint8_t code, std::uint64_t offset) {
    throw_daphne(ErrorCode::Truncated, offset,
                 "frame column " + std::to_string(column) + " has DAPHNE value type " + std::to_string(code) +
                     (code == kDaphneStringCode ? " (STR)" : " (FIXEDSTR16)") +
                     ": DAPHNE's runtime cannot write string columns and stops at the first string value, so the "
                     "file is truncated; besides, " +
                     kStringRefusal);
}

ObjectHeader parse_frame_header(std::span<const std::byte> input, ObjectHeader header, std::size_t& header_bytes) {
    const std::uint64_t size = input.size();
    const std::uint64_t available = size - kValueTypeOffset;
    if (header.cols > available / 3) {
        throw_daphne(ErrorCode::Truncated, kColsOffset,
                     "frame header declares " + std::to_string(header.cols) + " columns but only " +
                         std::to_string(available) + " bytes follow (each column needs at least 3)");
    }
    std::uint64_t offset = kValueTypeOffset;
    std::optional<std::pair<std::uint64_t, std::uint8_t>> string_column;  // first one: column, code
    header.column_types.reserve(header.cols);
    for (std::uint64_t column = 0; column < header.cols; ++column, ++offset) {
        const auto code = static_cast<std::uint8_t>(input[offset]);
        if ((code == kDaphneStringCode || code == kDaphneFixedStringCode) && !string_column) {
            string_column.emplace(column, code);
            header.column_types.push_back(ValueType::None);
            continue;
        }
        header.column_types.push_back(read_daphne_value_type(input, offset, "frame column " + std::to_string(column)));
    }
    // The label bytes are the first `len` bytes of the in-memory std::string objects (DIALECT.md 6.2): skip them.
    header.labels.reserve(header.cols);
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        if (size - offset < 2) {
            throw_daphne(ErrorCode::Truncated, offset,
                         "input ends inside the label length of frame column " + std::to_string(column));
        }
        const std::uint16_t length = load_le<std::uint16_t>(input.data() + offset);
        if (size - offset - 2 < length) {
            throw_daphne(ErrorCode::Truncated, offset,
                         "label of frame column " + std::to_string(column) + " (" + std::to_string(length) +
                             " bytes) runs past the end of the input");
        }
        header.labels.push_back("col_" + std::to_string(column));
        offset += 2 + std::uint64_t{length};
    }
    header.labels_recoverable = false;
    if (size - offset < kBlockPositionBytes) {
        throw_daphne(ErrorCode::Truncated, offset, "input ends inside the frame's rx/cx pair");
    }
    if (string_column)
        refuse_string_column(string_column->first, string_column->second, kValueTypeOffset + string_column->first);
    const std::uint64_t rx = load_le<std::uint64_t>(input.data() + offset);
    const std::uint64_t cx = load_le<std::uint64_t>(input.data() + offset + 8);
    if (rx != 0 || cx != 0) {
        throw_daphne(ErrorCode::Format, offset,
                     "the frame's block position is (" + std::to_string(rx) + ", " + std::to_string(cx) +
                         "); the daphne dialect stores one block at (0, 0)");
    }
    header_bytes = offset + kBlockPositionBytes;
    return header;
}

void require_exact_body(std::uint64_t input_size, std::uint64_t body_offset, Wide body_bytes, const std::string& what) {
    const std::uint64_t available = input_size - body_offset;
    if (body_bytes > available) {
        throw_daphne(ErrorCode::Truncated, input_size,
                     what + " needs " + wide_text(body_bytes) + " bytes from byte " + std::to_string(body_offset) +
                         " but only " + std::to_string(available) + " remain: the file is truncated");
    }
    if (body_bytes < available) {
        throw_daphne(ErrorCode::Format, body_offset + static_cast<std::uint64_t>(body_bytes),
                     std::to_string(available - static_cast<std::uint64_t>(body_bytes)) + " bytes follow " + what +
                         "; a daphne dialect file ends with its single block");
    }
}

BlockView matrix_block(const ByteSource& source, std::size_t header_bytes, const ObjectHeader& header) {
    const std::uint64_t offset = header_bytes;
    const std::uint64_t input_size = source.size();
    if (input_size - offset < kBlockRecordBytes) {
        throw_daphne(ErrorCode::Truncated, input_size,
                     "input ends inside the block header (26 bytes from byte " + std::to_string(offset) + ")");
    }
    // The block header and, for CSR, the #nzb after it.
    std::array<std::byte, kBlockRecordBytes + kNonZerosBytes> record_bytes{};
    read_exactly(source, offset,
                 std::span(record_bytes).first(std::min<std::uint64_t>(record_bytes.size(), input_size - offset)));
    const std::byte* record = record_bytes.data();
    BlockView block;
    block.offset = offset;
    block.row = load_le<std::uint64_t>(record);
    block.col = load_le<std::uint64_t>(record + 8);
    if (block.row != 0 || block.col != 0) {
        throw_daphne(ErrorCode::Format, offset,
                     "the block is at (" + std::to_string(block.row) + ", " + std::to_string(block.col) +
                         "); the daphne dialect stores one block at (0, 0)");
    }
    if (header.rows > kMaxBlockExtent || header.cols > kMaxBlockExtent) {
        throw_daphne(ErrorCode::Unsupported, kRowsOffset,
                     "the " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                         " matrix is not representable in the daphne dialect: its single block stores the "
                         "dimensions as uint32 casts, which wrap at 2^32");
    }
    block.rows = load_le<std::uint32_t>(record + 16);
    block.cols = load_le<std::uint32_t>(record + 20);
    if (block.rows != header.rows || block.cols != header.cols) {
        throw_daphne(ErrorCode::Format, offset + 16,
                     "the block is " + std::to_string(block.rows) + " x " + std::to_string(block.cols) +
                         " but the object is " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                         "; the daphne dialect's single block covers the object");
    }
    const auto block_code = static_cast<unsigned>(record[24]);
    const BlockType expected = header.data_type == DataType::DenseMatrix ? BlockType::Dense : BlockType::Csr;
    if (block_code != static_cast<unsigned>(expected)) {
        throw_daphne(ErrorCode::Format, offset + 24,
                     "block type " + std::to_string(block_code) + " in a " + std::string(name(header.data_type)) +
                         " matrix; DAPHNE's runtime always writes block type " +
                         std::to_string(static_cast<unsigned>(expected)) + " for it");
    }
    block.block_type = expected;
    const unsigned object_code = *daphne_value_code(header.value_type);  // the header's code, parsed from it
    if (static_cast<unsigned>(record[25]) != object_code) {
        throw_daphne(ErrorCode::Format, offset + 25,
                     "block value type code " + std::to_string(static_cast<unsigned>(record[25])) +
                         " differs from the object's " + std::to_string(object_code) +
                         "; the daphne dialect stores the object's value type in the block");
    }
    block.value_type = header.value_type;
    const std::size_t value_bytes = value_size(block.value_type);
    const Wide cells = Wide{block.rows} * block.cols;
    if (expected == BlockType::Dense) {
        block.stored_values = static_cast<std::uint64_t>(cells);
        block.payload_offset = offset + kBlockRecordBytes;
        const Wide body = cells * value_bytes;
        require_exact_body(input_size, block.payload_offset, body, "the dense block's values");
        block.payload_bytes = static_cast<std::uint64_t>(body);
    } else {
        const std::uint64_t count_offset = offset + kBlockRecordBytes;
        if (input_size - count_offset < kNonZerosBytes) {
            throw_daphne(ErrorCode::Truncated, input_size, "input ends inside the CSR block's #nzb");
        }
        block.stored_values = load_le<std::uint64_t>(record + kBlockRecordBytes);
        if (block.stored_values > cells) {
            throw_format(
                ErrorCode::Format, 12, count_offset,
                "#nzb " + std::to_string(block.stored_values) + " exceeds the block's " + wide_text(cells) + " cells");
        }
        block.payload_offset = count_offset + kNonZerosBytes;
        block.layout = PayloadLayout::DaphneCsr;
        const Wide body = Wide{8} * (Wide{block.rows} + 1) + Wide{block.stored_values} * (8 + value_bytes);
        require_exact_body(input_size, block.payload_offset, body,
                           "the CSR block's row offsets, column indices and values");
        block.payload_bytes = static_cast<std::uint64_t>(body);
        if (needs_zero_area_check(block)) {
            ByteBuffer payload;
            check_zero_area_csr(fetch(source, block.payload_offset, block.payload_bytes, payload), block);
        }
    }
    block.encoded_bytes = block.payload_offset + block.payload_bytes - offset;
    return block;
}

std::vector<BlockView> frame_blocks(std::uint64_t input_size, std::size_t header_bytes, const ObjectHeader& header) {
    std::uint64_t row_width = 0;  // W: bytes of one frame row
    for (ValueType type : header.column_types) row_width += value_size(type);
    require_exact_body(
        input_size, header_bytes, Wide{header.rows} * row_width,
        "the frame's " + std::to_string(header.rows) + " rows of " + std::to_string(row_width) + " bytes");
    std::vector<BlockView> blocks;
    if (header.rows == 0) return blocks;
    std::uint64_t column_offset = 0;
    for (std::uint64_t column = 0; column < header.cols; ++column) {
        const ValueType type = header.column_types[column];
        for (std::uint64_t row = 0; row < header.rows; row += kMaxBlockExtent) {
            BlockView block;
            block.index = blocks.size();
            block.row = row;
            block.col = column;
            block.rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(kMaxBlockExtent, header.rows - row));
            block.cols = 1;
            block.block_type = BlockType::Dense;
            block.value_type = type;
            block.stored_values = block.rows;
            block.layout = PayloadLayout::StridedColumn;
            block.value_stride = row_width;
            block.payload_offset = header_bytes + row * row_width + column_offset;
            block.payload_bytes = (std::uint64_t{block.rows} - 1) * row_width + value_size(type);
            block.offset = block.payload_offset;
            // The column's own bytes, so that the blocks' sizes add up to the body.
            block.encoded_bytes = std::uint64_t{block.rows} * value_size(type);
            blocks.push_back(block);
        }
        column_offset += value_size(type);
    }
    return blocks;
}

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

}  // namespace

ObjectHeader parse_daphne_header(std::span<const std::byte> input, std::size_t& header_bytes) {
    const std::uint64_t size = input.size();
    if (size > 0 && static_cast<unsigned>(input[kVersionOffset]) != kFormatVersion && starts_like_text(input)) {
        throw_daphne(ErrorCode::Format, kVersionOffset, not_a_dbdf_file(input));
    }
    if (size < kValueTypeOffset) {
        throw_daphne(ErrorCode::Truncated, size,
                     "input of " + std::to_string(size) + " bytes ends inside the 18-byte object header");
    }
    const auto version = static_cast<unsigned>(input[kVersionOffset]);
    if (version != kFormatVersion) {
        throw_daphne(ErrorCode::Format, kVersionOffset,
                     "format version " + std::to_string(version) + " is not the 1 DAPHNE's runtime writes");
    }
    const auto data_code = static_cast<unsigned>(input[kDataTypeOffset]);
    if (data_code < 1 || data_code > 4) {
        throw_daphne(ErrorCode::Format, kDataTypeOffset,
                     "data type " + std::to_string(data_code) +
                         " is not one of the daphne dialect's (1 dense, 2 CSR, 3 frame, 4 scalar)");
    }
    ObjectHeader header;
    header.data_type = static_cast<DataType>(data_code);
    header.rows = load_le<std::uint64_t>(input.data() + kRowsOffset);
    header.cols = load_le<std::uint64_t>(input.data() + kColsOffset);
    if (header.data_type == DataType::Frame) return parse_frame_header(input, std::move(header), header_bytes);
    if (size < kMatrixHeaderEnd) {
        throw_daphne(ErrorCode::Truncated, size, "input ends before the object's value type");
    }
    header.value_type = read_daphne_value_type(input, kValueTypeOffset, "the object");
    if (header.data_type == DataType::Scalar) {
        // The #r/#c slots of a serialized scalar are never assigned (DIALECT.md 7): their bytes mean nothing.
        header.rows = 1;
        header.cols = 1;
    }
    header_bytes = kMatrixHeaderEnd;
    return header;
}

std::vector<BlockView> daphne_body_blocks(const ByteSource& source, std::size_t header_bytes,
                                          const ObjectHeader& header) {
    switch (header.data_type) {
        case DataType::Frame: return frame_blocks(source.size(), header_bytes, header);
        case DataType::Scalar: {
            BlockView block;
            block.rows = 1;
            block.cols = 1;
            block.block_type = BlockType::Dense;
            block.value_type = header.value_type;
            block.stored_values = 1;
            block.offset = header_bytes;
            block.payload_offset = header_bytes;
            block.payload_bytes = value_size(header.value_type);
            block.encoded_bytes = block.payload_bytes;
            require_exact_body(source.size(), header_bytes, block.payload_bytes, "the scalar's value");
            return {block};
        }
        case DataType::DenseMatrix:
        case DataType::CsrMatrix: break;
    }
    return {matrix_block(source, header_bytes, header)};
}

std::string daphne_meta_json(const ObjectHeader& header, std::uint64_t non_zeros) {
    std::string json = "{\"numCols\":" + std::to_string(header.cols);
    if (header.data_type == DataType::CsrMatrix) json += ",\"numNonZeros\":" + std::to_string(non_zeros);
    json += ",\"numRows\":" + std::to_string(header.rows);
    if (header.data_type == DataType::Frame) {
        json += ",\"schema\":[";
        for (std::size_t column = 0; column < header.cols; ++column) {
            if (column > 0) json += ',';
            json += "{\"label\":";
            append_json_string(json, header.labels[column]);
            json += ",\"valueType\":\"";
            json += daphne_meta_name(header.column_types[column]);
            json += "\"}";
        }
        json += "]}";
        return json;
    }
    json += ",\"valueType\":\"";
    json += daphne_meta_name(header.value_type);
    json += "\"}";
    return json;
}

}  // namespace detail
}  // namespace dbdf
