#include "block_decoder.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "dbdf/endian.hpp"
#include "daphne_dialect.hpp"
#include "dbdf/error.hpp"
#include "payload_walkers.hpp"
#include "value_conversion.hpp"
#include "wide_count.hpp"

namespace dbdf::detail {
namespace {

using Wide = WideCount;

std::string block_name(const BlockView& block) { return block_label(block); }

ValueType read_value_type(std::span<const std::byte> input, std::uint64_t offset, const std::string& owner) {
    const auto code = static_cast<unsigned>(input[offset]);
    const auto type = static_cast<ValueType>(code);
    if (!is_valid(type)) {
        throw_format(ErrorCode::Format, code == 0 ? 6 : 0, offset,
                     "value type " + std::to_string(code) + " of " + owner +
                         (code == 0 ? " is reserved" : " is unknown (valid: 1..10)"));
    }
    return type;
}

// Checks that `needed` payload bytes follow `payload_offset`.
void require_payload(std::span<const std::byte> input, const BlockView& block, Wide needed,
                     const char* what) {
    const std::uint64_t available = input.size() - block.payload_offset;
    if (needed > available) {
        throw_format(ErrorCode::Truncated, 5, block.offset,
                     block_name(block) + ": " + what + " needs " +
                         (needed > Wide{~0ull} ? std::string("more than 2^64") : std::to_string(
                                                                                     static_cast<std::uint64_t>(needed))) +
                         " bytes but only " + std::to_string(available) + " remain");
    }
}

// A sparse block cannot hold more entries than it has cells (rules 12 and 13).
void require_entries_fit(const BlockView& block, std::uint64_t count_offset, int rule) {
    const std::uint64_t cells = std::uint64_t{block.rows} * block.cols;
    if (block.stored_values > cells) {
        throw_format(ErrorCode::Format, rule, count_offset,
                     block_name(block) + ": #nzb " + std::to_string(block.stored_values) + " exceeds the block's " +
                         std::to_string(cells) + " cells");
    }
}

// Decides whether values of type S need a per-value rule 8 check against the declared types of the cells of
// the block, and performs it.
template <class S>
class DeclaredTypeCheck {
public:
    DeclaredTypeCheck(const ObjectHeader& header, const BlockView& block) : header_(header), block_(block) {
        if (header.data_type != DataType::Frame) {
            needed_ = !always_fits_type<S>(header.value_type);
            return;
        }
        for (std::uint64_t column = block.col; column < block.col_end(); ++column) {
            if (!always_fits_type<S>(header.column_types[column])) {
                needed_ = true;
                return;
            }
        }
    }

    bool needed() const { return needed_; }

    void check(S value, std::uint32_t row, std::uint32_t col, std::uint64_t offset) const {
        if (!needed_) return;
        const ValueType declared = header_.type_of_column(block_.col + col);
        if (!fits_type(declared, value)) {
            throw_format(ErrorCode::Range, 8, offset,
                         block_name(block_) + ": value " + value_text(value) + " at block cell (" +
                             std::to_string(row) + ", " + std::to_string(col) +
                             ") is not exactly representable in the declared type " +
                             std::string(name(declared)));
        }
    }

private:
    const ObjectHeader& header_;
    const BlockView& block_;
    bool needed_ = false;
};

template <class D, class S>
D convert_or_throw(S value, const BlockView& block, std::uint32_t row, std::uint32_t col, std::uint64_t offset) {
    D out{};
    if (!convert_exact<D>(value, out)) {
        throw_format(ErrorCode::Range, 8, offset,
                     block_name(block) + ": value " + value_text(value) + " at block cell (" + std::to_string(row) +
                         ", " + std::to_string(col) + ") is not exactly representable in the requested type " +
                         std::string(name(value_type_v<D>)));
    }
    return out;
}

template <class D>
void fill_zero(const DenseTarget& target) {
    auto* out = static_cast<D*>(target.data);
    const std::uint64_t width = target.col_end - target.col_begin;
    for (std::uint64_t row = 0; row < std::uint64_t{target.row_end} - target.row_begin; ++row) {
        std::fill_n(out + row * target.row_stride, width, D{});
    }
}

template <class S, class D>
void decode_dense_typed(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header,
                        const DenseTarget& target) {
    auto* out = static_cast<D*>(target.data);
    const DeclaredTypeCheck<S> declared(header, block);
    if (block.block_type == BlockType::Empty) {
        fill_zero<D>(target);
        return;
    }
    if (block.block_type == BlockType::Dense) {
        const std::uint32_t width = target.col_end - target.col_begin;
        for (std::uint32_t row = target.row_begin; row < target.row_end; ++row) {
            const std::uint64_t row_offset = dense_value_offset(block, row, target.col_begin, sizeof(S));
            D* out_row = out + std::uint64_t{row - target.row_begin} * target.row_stride;
            if constexpr (std::is_same_v<S, D> && kHostIsLittleEndian) {
                if (!declared.needed() && block.layout == PayloadLayout::Spec) {
                    std::memcpy(out_row, input.data() + row_offset, std::size_t{width} * sizeof(S));
                    continue;
                }
            }
            for (std::uint32_t j = 0; j < width; ++j) {
                const std::uint64_t value_offset = row_offset + std::uint64_t{j} * sizeof(S);
                const S value = load_le<S>(input.data() + value_offset);
                declared.check(value, row, target.col_begin + j, value_offset);
                out_row[j] = convert_or_throw<D>(value, block, row, target.col_begin + j, value_offset);
            }
        }
        return;
    }
    fill_zero<D>(target);
    auto store = [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t value_offset) {
        declared.check(value, row, col, value_offset);
        if (row < target.row_begin || row >= target.row_end || col < target.col_begin || col >= target.col_end) {
            return;
        }
        out[std::uint64_t{row - target.row_begin} * target.row_stride + (col - target.col_begin)] =
            convert_or_throw<D>(value, block, row, col, value_offset);
    };
    if (block.block_type == BlockType::Csr) {
        walk_csr<S>(input, block, target.row_end, [](std::uint32_t, std::uint32_t) {}, store);
    } else {
        walk_coo<S>(input, block, store);
    }
}

// Calls fn(type_tag<S>, type_tag<D>) for the block's stored type S and the requested type D.
template <class Fn>
void visit_pair(ValueType stored, ValueType requested, Fn&& fn) {
    visit_value_type(stored, [&](auto stored_tag) {
        visit_value_type(requested, [&](auto requested_tag) { fn(stored_tag, requested_tag); });
    });
}

// The stored value type to dispatch on; empty blocks have none, any type serves.
ValueType stored_or_default(const BlockView& block) {
    return block.block_type == BlockType::Empty ? ValueType::U8 : block.value_type;
}

// Calls on_entry(row, col, value S, value_offset) for each entry the block yields as CSR / COO: the
// bit-non-zero values of dense blocks (rule 14) and every stored entry of sparse blocks, in row-major order.
template <class S, class OnEntry>
void for_each_entry(std::span<const std::byte> input, const BlockView& block, OnEntry&& on_entry) {
    switch (block.block_type) {
        case BlockType::Empty: return;
        case BlockType::Dense: {
            if (block.cols == 0) return;  // zero-area blocks (rule 4) hold nothing; do not walk their rows
            for (std::uint32_t row = 0; row < block.rows; ++row) {
                for (std::uint32_t col = 0; col < block.cols; ++col) {
                    const std::uint64_t value_offset = dense_value_offset(block, row, col, sizeof(S));
                    if (is_bit_zero(input.data() + value_offset, sizeof(S))) continue;
                    on_entry(row, col, load_le<S>(input.data() + value_offset), value_offset);
                }
            }
            return;
        }
        case BlockType::Csr: walk_csr<S>(input, block, block.rows, [](std::uint32_t, std::uint32_t) {}, on_entry); return;
        case BlockType::Coo: walk_coo<S>(input, block, on_entry); return;
    }
}

}  // namespace

BlockView parse_block_record(std::span<const std::byte> input, std::uint64_t offset, std::uint64_t index) {
    const std::uint64_t size = input.size();
    BlockView block;
    block.index = index;
    block.offset = offset;
    if (size - offset < kBlockPositionBytes + kBlockHeaderBytes) {
        throw_format(ErrorCode::Truncated, 5, offset,
                     "block " + std::to_string(index) + ": " + std::to_string(size - offset) +
                         " trailing bytes do not form a complete block header (25 bytes needed)");
    }
    const std::byte* record = input.data() + offset;
    block.row = load_le<std::uint64_t>(record);
    block.col = load_le<std::uint64_t>(record + 8);
    block.rows = load_le<std::uint32_t>(record + 16);
    block.cols = load_le<std::uint32_t>(record + 20);
    const auto block_code = static_cast<unsigned>(record[24]);
    block.block_type = static_cast<BlockType>(block_code);
    if (!is_valid(block.block_type)) {
        throw_format(ErrorCode::Format, 0, offset + 24,
                     block_name(block) + ": block type " + std::to_string(block_code) +
                         " is unknown (0 empty, 1 dense, 2 CSR, 3 COO)");
    }
    const std::uint64_t type_offset = offset + kBlockPositionBytes + kBlockHeaderBytes;
    auto require_fixed = [&](std::uint64_t fixed_bytes, const char* fields) {
        if (size - offset < kBlockPositionBytes + fixed_bytes) {
            throw_format(ErrorCode::Truncated, 5, offset, block_name(block) + ": input ends inside " + fields);
        }
    };
    switch (block.block_type) {
        case BlockType::Empty:
            block.payload_offset = type_offset;
            block.payload_bytes = 0;
            break;
        case BlockType::Dense: {
            require_fixed(kDenseFixedBytes, "the dense block's value type");
            block.value_type = read_value_type(input, type_offset, block_name(block));
            block.stored_values = std::uint64_t{block.rows} * block.cols;
            block.payload_offset = type_offset + 1;
            const Wide needed = Wide{block.stored_values} * value_size(block.value_type);
            require_payload(input, block, needed, "dense values");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            break;
        }
        case BlockType::Csr: {
            require_fixed(kCsrFixedBytes, "the CSR block's value type and #nzb");
            block.value_type = read_value_type(input, type_offset, block_name(block));
            block.stored_values = load_le<std::uint64_t>(input.data() + type_offset + 1);
            block.payload_offset = type_offset + 9;
            require_entries_fit(block, type_offset + 1, 12);
            const Wide needed =
                Wide{4} * block.rows + Wide{block.stored_values} * (4 + value_size(block.value_type));
            require_payload(input, block, needed, "CSR rows");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            check_zero_area_csr(input, block);
            break;
        }
        case BlockType::Coo: {
            require_fixed(kCooFixedBytes, "the COO block's value type and #nzb");
            block.value_type = read_value_type(input, type_offset, block_name(block));
            block.stored_values = load_le<std::uint32_t>(input.data() + type_offset + 1);
            block.payload_offset = type_offset + 5;
            require_entries_fit(block, type_offset + 1, 13);
            const std::uint64_t index_bytes = block.cols == 1 ? 4 : 8;
            const Wide needed = Wide{block.stored_values} * (index_bytes + value_size(block.value_type));
            require_payload(input, block, needed, "COO entries");
            block.payload_bytes = static_cast<std::uint64_t>(needed);
            break;
        }
    }
    block.encoded_bytes = block.payload_offset + block.payload_bytes - offset;
    return block;
}

void check_zero_area_csr(std::span<const std::byte> input, const BlockView& block) {
    if (block.block_type != BlockType::Csr || block.area() != 0) return;
    // #nzb is 0 here (parse checked it against the zero cells), so the walk fails at the first non-zero count.
    auto ignore = [](auto...) {};
    walk_csr<std::uint8_t>(input, block, block.rows, ignore, ignore);
}

void check_block_bounds(const BlockView& block, const ObjectHeader& header) {
    const bool rows_fit = block.rows <= header.rows && block.row <= header.rows - block.rows;
    const bool cols_fit = block.cols <= header.cols && block.col <= header.cols - block.cols;
    if (!rows_fit || !cols_fit) {
        throw_format(ErrorCode::Format, 2, block.offset,
                     block_name(block) + " of shape " + std::to_string(block.rows) + " x " +
                         std::to_string(block.cols) + " reaches outside the " + std::to_string(header.rows) +
                         " x " + std::to_string(header.cols) + " object");
    }
}

void decode_block_dense(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header,
                        const DenseTarget& target) {
    if (target.row_begin >= target.row_end || target.col_begin >= target.col_end) return;
    visit_pair(stored_or_default(block), target.type, [&](auto stored_tag, auto requested_tag) {
        decode_dense_typed<typename decltype(stored_tag)::type, typename decltype(requested_tag)::type>(
            input, block, header, target);
    });
}

std::uint64_t count_block_entries(std::span<const std::byte> input, const BlockView& block) {
    if (block.block_type != BlockType::Dense) return block.stored_values;
    const std::size_t value_bytes = value_size(block.value_type);
    std::uint64_t entries = 0;
    if (block.layout == PayloadLayout::StridedColumn) {
        for (std::uint64_t row = 0; row < block.rows; ++row) {
            if (!is_bit_zero(input.data() + dense_value_offset(block, row, 0, value_bytes), value_bytes)) ++entries;
        }
        return entries;
    }
    const std::byte* values = input.data() + block.payload_offset;
    for (std::uint64_t k = 0; k < block.stored_values; ++k) {
        if (!is_bit_zero(values + k * value_bytes, value_bytes)) ++entries;
    }
    return entries;
}

void decode_block_csr(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header,
                      ValueType type, std::uint64_t* row_offsets, std::uint32_t* col_indices, void* values) {
    std::fill_n(row_offsets, std::uint64_t{block.rows} + 1, std::uint64_t{0});
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        auto* out = static_cast<D*>(values);
        const DeclaredTypeCheck<S> declared(header, block);
        std::uint64_t next = 0;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            out[next] = convert_or_throw<D>(value, block, row, col, offset);
            col_indices[next] = col;
            ++row_offsets[std::uint64_t{row} + 1];
            ++next;
        });
    });
    for (std::uint64_t row = 0; row < block.rows; ++row) row_offsets[row + 1] += row_offsets[row];
}

void decode_block_coo(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header,
                      ValueType type, std::uint32_t* row_indices, std::uint32_t* col_indices, void* values) {
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        auto* out = static_cast<D*>(values);
        const DeclaredTypeCheck<S> declared(header, block);
        std::uint64_t next = 0;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            out[next] = convert_or_throw<D>(value, block, row, col, offset);
            row_indices[next] = row;
            col_indices[next] = col;
            ++next;
        });
    });
}

void add_block_row_counts(std::span<const std::byte> input, const BlockView& block, std::uint64_t* row_counts) {
    visit_value_type(stored_or_default(block), [&](auto stored_tag) {
        using S = typename decltype(stored_tag)::type;
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t, S, std::uint64_t) {
            ++row_counts[block.row + row];
        });
    });
}

void scatter_block_csr(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header,
                       ValueType type, std::uint64_t* row_cursor, std::uint64_t* col_indices, void* values) {
    visit_pair(stored_or_default(block), type, [&](auto stored_tag, auto requested_tag) {
        using S = typename decltype(stored_tag)::type;
        using D = typename decltype(requested_tag)::type;
        auto* out = static_cast<D*>(values);
        const DeclaredTypeCheck<S> declared(header, block);
        for_each_entry<S>(input, block, [&](std::uint32_t row, std::uint32_t col, S value, std::uint64_t offset) {
            declared.check(value, row, col, offset);
            const std::uint64_t position = row_cursor[block.row + row]++;
            out[position] = convert_or_throw<D>(value, block, row, col, offset);
            col_indices[position] = block.col + col;
        });
    });
}

void check_block_payload(std::span<const std::byte> input, const BlockView& block, const ObjectHeader& header) {
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
                    check(row, col, load_le<S>(input.data() + offset), offset);
                }
            }
        } else if (block.block_type == BlockType::Csr) {
            walk_csr<S>(input, block, block.rows, [](std::uint32_t, std::uint32_t) {}, check);
        } else {
            walk_coo<S>(input, block, check);
        }
    });
}

}  // namespace dbdf::detail
