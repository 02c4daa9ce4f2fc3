#include "daphne_encoder.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "dbdf/dialect.hpp"
#include "dbdf/endian.hpp"

namespace dbdf::detail {
namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); }

std::uint8_t code_or_refuse(ValueType type, const std::string& owner) {
    if (auto code = daphne_value_code(type)) return *code;
    invalid(owner + " has value type " + std::string(name(type)) +
            ", which the daphne dialect cannot express: DAPHNE's runtime has no 16-bit integer types (its codes "
            "cover i8, i32, i64, u8, u32, u64, f32, f64)");
}

// The start of a label for a message: printable ASCII as it is, other bytes as \xNN, and an ellipsis when cut.
std::string label_excerpt(const std::string& label) {
    constexpr std::size_t kShown = 20;
    std::string text;
    for (std::size_t i = 0; i < label.size() && i < kShown; ++i) {
        const auto byte = static_cast<unsigned char>(label[i]);
        if (byte >= 0x20 && byte < 0x7F && byte != '\\') {
            text += static_cast<char>(byte);
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            text += escaped;
        }
    }
    if (label.size() > kShown) text += "\u2026";
    return text;
}

// DAPHNE's frame reader reads each label's bytes over a std::string object (DIALECT.md 6.2, docs/daphne-dialect.md):
// more than the object's size lands in the heap beyond it.
void check_daphne_label(const std::string& label, std::size_t column) {
    if (label.size() <= kDaphneMaxLabelBytes) return;
    invalid("frame column " + std::to_string(column) + " label '" + label_excerpt(label) + "' is " +
            std::to_string(label.size()) + " bytes; DAPHNE's reader copies each label's bytes over a " +
            std::to_string(kDaphneMaxLabelBytes) + "-byte std::string object, so a longer label overflows its heap: "
            "the daphne dialect takes labels of at most " + std::to_string(kDaphneMaxLabelBytes) + " bytes");
}

}  // namespace

void check_daphne_header_for_writing(const ObjectHeader& header) {
    if (header.data_type == DataType::Frame) {
        for (std::size_t column = 0; column < header.column_types.size(); ++column) {
            code_or_refuse(header.column_types[column], "frame column " + std::to_string(column));
        }
        for (std::size_t column = 0; column < header.labels.size(); ++column) {
            check_daphne_label(header.labels[column], column);
        }
        return;
    }
    if (header.data_type == DataType::Scalar) {
        // The runtime's serializer for single values takes any fundamental C++ type that has a value type code:
        // the eight numeric ones (DIALECT.md 2 and 7).
        code_or_refuse(header.value_type, "the scalar");
        if (header.rows != 1 || header.cols != 1) {
            invalid("a scalar is 1 x 1, not " + std::to_string(header.rows) + " x " + std::to_string(header.cols));
        }
        return;
    }
    if (!is_matrix(header.data_type)) {
        invalid("the daphne dialect writes dense and CSR matrices, frames and scalars");
    }
    code_or_refuse(header.value_type, "the matrix");
    if (header.rows > kMaxBlockExtent || header.cols > kMaxBlockExtent) {
        invalid("a " + std::to_string(header.rows) + " x " + std::to_string(header.cols) +
                " matrix cannot be written in the daphne dialect: its single block holds the dimensions as uint32, "
                "so they must stay below 2^32");
    }
}

std::vector<std::byte> encode_daphne_header(const ObjectHeader& header) {
    std::vector<std::byte> bytes(18);
    bytes[0] = std::byte{kFormatVersion};
    bytes[1] = static_cast<std::byte>(header.data_type);
    if (header.data_type == DataType::Scalar) {
        // The runtime never assigns the #r/#c slots of a scalar (DIALECT.md 7), so any bytes there are its; the
        // corpus files hold zeros, which is what they stay here. The value type follows, then the value: no
        // rx/cx and no block header.
        bytes.push_back(std::byte{*daphne_value_code(header.value_type)});
        return bytes;
    }
    store_le<std::uint64_t>(bytes.data() + 2, header.rows);
    store_le<std::uint64_t>(bytes.data() + 10, header.cols);
    auto append = [&](const void* data, std::size_t size) {
        const auto* first = static_cast<const std::byte*>(data);
        bytes.insert(bytes.end(), first, first + size);
    };
    auto append_u64 = [&](std::uint64_t value) {
        std::byte field[8];
        store_le<std::uint64_t>(field, value);
        append(field, sizeof field);
    };
    if (header.data_type == DataType::Frame) {
        for (ValueType type : header.column_types) bytes.push_back(std::byte{*daphne_value_code(type)});
        for (const std::string& label : header.labels) {
            std::byte length[2];
            store_le<std::uint16_t>(length, static_cast<std::uint16_t>(label.size()));
            append(length, sizeof length);
            append(label.data(), label.size());
        }
        append_u64(0);  // rx
        append_u64(0);  // cx
        return bytes;
    }
    const std::byte code{*daphne_value_code(header.value_type)};
    bytes.push_back(code);
    append_u64(0);  // rx
    append_u64(0);  // cx
    std::byte extent[4];
    store_le<std::uint32_t>(extent, static_cast<std::uint32_t>(header.rows));
    append(extent, sizeof extent);
    store_le<std::uint32_t>(extent, static_cast<std::uint32_t>(header.cols));
    append(extent, sizeof extent);
    bytes.push_back(static_cast<std::byte>(header.data_type == DataType::DenseMatrix ? BlockType::Dense : BlockType::Csr));
    bytes.push_back(code);
    return bytes;
}

void put_daphne_zero_values(ByteOutput& out, ValueType type, std::uint64_t count) {
    // Counts come from dimensions below 2^32 (checked at begin), so the product fits.
    static constexpr std::array<std::byte, 1 << 16> kZeros{};
    std::uint64_t remaining = count * value_size(type);
    while (remaining > 0) {
        const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, kZeros.size()));
        out.put_bytes(std::span<const std::byte>(kZeros.data(), piece));
        remaining -= piece;
    }
}

void put_daphne_empty_body(ByteOutput& out, const ObjectHeader& header) {
    if (header.data_type != DataType::CsrMatrix) {
        put_daphne_zero_values(out, header.value_type, header.rows * header.cols);
        return;
    }
    out.put<std::uint64_t>(0);
    for (std::uint64_t row = 0; row <= header.rows; ++row) out.put<std::uint64_t>(0);
}

DaphneFrameColumns::DaphneFrameColumns(const ObjectHeader& header)
    : header_(&header), columns_(header.cols), given_(header.cols, false) {}

void DaphneFrameColumns::require_complete() const {
    if (header_->rows == 0) return;
    for (std::size_t column = 0; column < given_.size(); ++column) {
        if (!given_[column]) {
            throw Error(ErrorCode::Format, "frame column " + std::to_string(column) +
                                               " was not written; the daphne dialect interleaves all columns row by "
                                               "row, so every column is needed before finishing");
        }
    }
}

void DaphneFrameColumns::put_rows(ByteOutput& out) const {
    for (std::uint64_t row = 0; row < header_->rows; ++row) {
        for (std::size_t column = 0; column < columns_.size(); ++column) {
            const std::size_t width = value_size(header_->column_types[column]);
            out.put_bytes(std::span<const std::byte>(columns_[column].data() + row * width, width));
        }
    }
}

}  // namespace dbdf::detail
