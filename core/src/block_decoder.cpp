#include "block_decoder.hpp"

#include <string>

#include "daphne_dialect.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "decoding_support.hpp"
#include "payload_walkers.hpp"
#include "wide_count.hpp"

namespace dbdf::detail {
namespace {

using Wide = WideCount;

ValueType read_value_type(std::byte field, std::uint64_t offset, const BlockView& block) {
    const auto code = static_cast<unsigned>(field);
    const auto type = static_cast<ValueType>(code);
    if (!is_valid(type)) {
        throw_format(
            ErrorCode::Format, code == 0 ? 6 : 0, offset,
            "value type " + std::to_string(code) + " of " + block_label(block) + invalid_value_type_reason(code));
    }
    return type;
}

// Checks that `needed` payload bytes follow `payload_offset`.
void require_payload(std::uint64_t input_size, const BlockView& block, Wide needed, const char* what) {
    const std::uint64_t available = input_size - block.payload_offset;
    if (needed > available) {
        throw_format(ErrorCode::Truncated, 5, block.offset,
                     block_label(block) + ": " + what + " needs " +
                         (needed > Wide{~0ull} ? std::string("more than 2^64")
                                               : std::to_string(static_cast<std::uint64_t>(needed))) +
                         " bytes but only " + std::to_string(available) + " remain");
    }
}

// A sparse block cannot hold more entries than it has cells (rules 12 and 13).
void require_entries_fit(const BlockView& block, std::uint64_t count_offset, int rule) {
    const std::uint64_t cells = std::uint64_t{block.rows} * block.cols;
    if (block.stored_values > cells) {
        throw_format(ErrorCode::Format, rule, count_offset,
                     block_label(block) + ": #nzb " + std::to_string(block.stored_values) + " exceeds the block's " +
                         std::to_string(cells) + " cells");
    }
}

}  // namespace

BlockView parse_block_record_at(const std::byte* record, std::uint64_t size, std::uint64_t offset,
                                std::uint64_t index) {
    BlockView block;
    block.index = index;
    block.offset = offset;
    if (size - offset < kBlockPositionBytes + kBlockHeaderBytes) {
        throw_format(ErrorCode::Truncated, 5, offset,
                     "block " + std::to_string(index) + ": " + std::to_string(size - offset) +
                         " trailing bytes do not form a complete block header (25 bytes needed)");
    }
    block.row = load_le<std::uint64_t>(record);
    block.col = load_le<std::uint64_t>(record + 8);
    block.rows = load_le<std::uint32_t>(record + 16);
    block.cols = load_le<std::uint32_t>(record + 20);
    const auto block_code = static_cast<unsigned>(record[24]);
    block.block_type = static_cast<BlockType>(block_code);
    if (!is_valid(block.block_type)) {
        throw_format(ErrorCode::Format, 0, offset + 24,
                     block_label(block) + ": block type " + std::to_string(block_code) +
                         " is unknown (0 empty, 1 dense, 2 CSR, 3 COO)");
    }
    constexpr std::size_t kTypeField = kBlockPositionBytes + kBlockHeaderBytes;  // value type, then #nzb
    const std::uint64_t type_offset = offset + kTypeField;
    auto require_fixed = [&](std::uint64_t fixed_bytes, const char* fields) {
        if (size - offset < kBlockPositionBytes + fixed_bytes) {
            throw_format(ErrorCode::Truncated, 5, offset, block_label(block) + ": input ends inside " + fields);
        }
    };
    switch (block.block_type) {
        case BlockType::Empty:
            block.payload_offset = type_offset;
            block.payload_bytes = 0;
            break;
        case BlockType::Dense: {
            require_fixed(kDenseFixedBytes, "the dense block's value type");
            block.value_type = read_value_type(record[kTypeField], type_offset, block);
            block.stored_values = std::uint64_t{block.rows} * block.cols;
            block.payload_offset = type_offset + 1;
            const Wide needed = Wide{block.stored_values} * value_size(block.value_type);
            require_payload(size, block, needed, "dense values");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            break;
        }
        case BlockType::Csr: {
            require_fixed(kCsrFixedBytes, "the CSR block's value type and #nzb");
            block.value_type = read_value_type(record[kTypeField], type_offset, block);
            block.stored_values = load_le<std::uint64_t>(record + kTypeField + 1);
            block.payload_offset = type_offset + 9;
            require_entries_fit(block, type_offset + 1, 12);
            const Wide needed = Wide{4} * block.rows + Wide{block.stored_values} * (4 + value_size(block.value_type));
            require_payload(size, block, needed, "CSR rows");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            break;
        }
        case BlockType::Coo: {
            require_fixed(kCooFixedBytes, "the COO block's value type and #nzb");
            block.value_type = read_value_type(record[kTypeField], type_offset, block);
            block.stored_values = load_le<std::uint32_t>(record + kTypeField + 1);
            block.payload_offset = type_offset + 5;
            require_entries_fit(block, type_offset + 1, 13);
            const std::uint64_t index_bytes = block.cols == 1 ? 4 : 8;
            const Wide needed = Wide{block.stored_values} * (index_bytes + value_size(block.value_type));
            require_payload(size, block, needed, "COO entries");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            break;
        }
    }
    block.encoded_bytes = block.payload_offset + block.payload_bytes - offset;
    return block;
}

void check_zero_area_csr(const ByteWindow& input, const BlockView& block) {
    if (!needs_zero_area_check(block)) return;
    // #nzb is 0 here (parse checked it against the zero cells), so the walk fails at the first non-zero count.
    auto ignore = [](auto...) {};
    walk_csr<std::uint8_t>(input, block, block.rows, ignore, ignore);
}

void check_block_bounds(const BlockView& block, const ObjectHeader& header) {
    const bool rows_fit = block.rows <= header.rows && block.row <= header.rows - block.rows;
    const bool cols_fit = block.cols <= header.cols && block.col <= header.cols - block.cols;
    if (!rows_fit || !cols_fit) {
        throw_format(ErrorCode::Format, 2, block.offset,
                     block_label(block) + " of shape " + std::to_string(block.rows) + " x " +
                         std::to_string(block.cols) + " reaches outside the " + std::to_string(header.rows) + " x " +
                         std::to_string(header.cols) + " object");
    }
}

std::uint64_t count_block_entries(const ByteWindow& input, const BlockView& block) {
    if (block.block_type != BlockType::Dense) return block.stored_values;
    const std::size_t value_bytes = value_size(block.value_type);
    std::uint64_t entries = 0;
    if (block.layout == PayloadLayout::StridedColumn) {
        for (std::uint64_t row = 0; row < block.rows; ++row) {
            if (!is_bit_zero(input.at(dense_value_offset(block, row, 0, value_bytes)), value_bytes)) ++entries;
        }
        return entries;
    }
    const std::byte* values = input.at(block.payload_offset);
    for (std::uint64_t k = 0; k < block.stored_values; ++k) {
        if (!is_bit_zero(values + k * value_bytes, value_bytes)) ++entries;
    }
    return entries;
}

bool needs_declared_check(const BlockView& block, const ObjectHeader& header) {
    if (block.block_type == BlockType::Empty) return false;
    bool needed = false;
    visit_value_type(block.value_type, [&](auto stored_tag) {
        needed = DeclaredTypeCheck<typename decltype(stored_tag)::type>(header, block).needed();
    });
    return needed;
}

void check_block_payload(const ByteWindow& input, const BlockView& block, const ObjectHeader& header) {
    // Zero-area blocks (rule 4) hold no values; their row count alone must not drive a loop. The row counts of
    // zero-area CSR blocks were checked when the block was parsed (check_zero_area_csr).
    if (block.block_type == BlockType::Empty || block.area() == 0) return;
    visit_value_type(block.value_type, [&](auto stored_tag) {
        using S = typename decltype(stored_tag)::type;
        const DeclaredTypeCheck<S> declared(header, block);
        auto check = [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
        };
        if (block.block_type == BlockType::Dense) {
            if (!declared.needed()) return;
            for (std::uint32_t row = 0; row < block.rows; ++row) {
                for (std::uint32_t col = 0; col < block.cols; ++col) {
                    const std::uint64_t offset = dense_value_offset(block, row, col, sizeof(S));
                    check(row, col, load_le<S>(input.at(offset)), offset);
                }
            }
        } else if (block.block_type == BlockType::Csr) {
            walk_csr<S>(
                input, block, block.rows, [](std::uint32_t, std::uint32_t) {}, check);
        } else {
            walk_coo<S>(input, block, check);
        }
    });
}

}  // namespace dbdf::detail
