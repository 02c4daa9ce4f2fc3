// Encoding one block record (position pair, block header, payload) from a dense or sparse source into a
// ByteOutput, with a chosen block type and stored value type E. The caller has established that every value is
// exactly representable in E, so the static_casts below never round.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

#include "block_sources.hpp"
#include "byte_output.hpp"
#include "csr_rows.hpp"
#include "dbdf/block.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/types.hpp"
#include "narrowing_copy.hpp"

namespace dbdf::detail {

struct BlockPosition {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
};

// The encoding decided for a block: its type, stored value type and entry count (CSR / COO).
struct EncodingPlan {
    BlockType block_type = BlockType::Dense;
    ValueType value_type = ValueType::F64;
    std::uint64_t entries = 0;
};

// Exact size of the block record (position pair included) for a plan.
std::uint64_t encoded_record_bytes(const BlockPosition& position, const EncodingPlan& plan);

// Smallest of empty / dense / CSR / COO for `entries` non-zeros stored as `value_type`; ties go to the simpler
// type in that order. COO needs entries < 2^32 (its #nzb is uint32).
EncodingPlan smallest_plan(const BlockPosition& position, std::uint64_t entries, ValueType value_type);

void put_record_header(ByteOutput& out, const BlockPosition& position, const EncodingPlan& plan);

template <class E, class T>
void put_value(ByteOutput& out, T value) {
    out.put<E>(static_cast<E>(value));
}

// values[0..count) as E, through the buffer's room in as few loops as it takes.
template <class E, class T>
void put_converted(ByteOutput& out, const T* values, std::size_t count) {
    while (count > 0) {
        const std::span<std::byte> room = out.room(sizeof(E));
        const std::size_t fitting = std::min(count, room.size() / sizeof(E));
        store_converted<E>(values, fitting, room.data());
        out.advance(fitting * sizeof(E));
        values += fitting;
        count -= fitting;
    }
}

template <class E>
void put_zeros(ByteOutput& out, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) out.put<E>(E{});
}

// Dense payload from a dense source.
template <class E, class T>
void put_dense_payload(ByteOutput& out, const DenseSource<T>& source) {
    if constexpr (std::is_same_v<E, T> && kHostIsLittleEndian) {
        if (source.stride == source.cols) {  // the payload lies in one piece in the caller's memory
            const std::size_t bytes = std::size_t{source.rows} * source.cols * sizeof(T);
            out.put_bytes(std::span(reinterpret_cast<const std::byte*>(source.values), bytes));
            return;
        }
    }
    for (std::uint32_t r = 0; r < source.rows; ++r) {
        const T* values = source.row(r);
        if constexpr (std::is_same_v<E, T> && kHostIsLittleEndian) {
            out.put_bytes(std::span(reinterpret_cast<const std::byte*>(values), std::size_t{source.cols} * sizeof(T)));
        } else {
            put_converted<E>(out, values, source.cols);
        }
    }
}

// Dense payload from a sparse source: zeros between entries, row by row, without a row buffer.
template <class E, class T>
void put_dense_payload(ByteOutput& out, const SparseSource<T>& source) {
    std::uint64_t next_cell = 0;  // row-major cell index of the next value to emit
    source.for_each_entry([&](std::uint32_t r, std::uint32_t c, T value) {
        const std::uint64_t cell = std::uint64_t{r} * source.cols + c;
        put_zeros<E>(out, cell - next_cell);
        put_value<E>(out, value);
        next_cell = cell + 1;
    });
    put_zeros<E>(out, std::uint64_t{source.rows} * source.cols - next_cell);
}

// Column index and value of a CSR entry, when `value` is one (not bit-zero).
template <class E, class T>
void put_csr_entry(ByteOutput& out, std::uint32_t col, T value) {
    if (is_bit_zero_value(value)) return;
    out.put<std::uint32_t>(col);
    put_value<E>(out, value);
}

// One row of a CSR payload from a dense row, stored straight into the output buffer (store_csr_row), so an entry
// costs no bounds check. False, with nothing written, when the buffer cannot hold the row's worst case.
template <class E, class T>
bool put_csr_row_in_place(ByteOutput& out, const T* values, std::uint32_t cols) {
    const std::size_t worst = csr_row_worst_bytes<E>(cols);
    if (worst > ByteOutput::kBufferBytes) return false;
    out.advance(store_csr_row<E>(out.room(worst).data(), values, cols));
    return true;
}

template <class E, class T>
void put_csr_payload(ByteOutput& out, const DenseSource<T>& source) {
    for (std::uint32_t r = 0; r < source.rows; ++r) {
        const T* values = source.row(r);
        if (put_csr_row_in_place<E>(out, values, source.cols)) continue;
        out.put<std::uint32_t>(static_cast<std::uint32_t>(count_nonzero_bits(values, source.cols)));
        // Sparse rows are mostly zeros: eight values at a time are passed over with one test of their ORed bits,
        // which also spares most of the mispredicted branches a test per value costs at random positions.
        constexpr std::uint32_t kGroup = 8;
        std::uint32_t c = 0;
        for (; c + kGroup <= source.cols; c += kGroup) {
            SameSizeBits<T> any = 0;
            for (std::uint32_t k = 0; k < kGroup; ++k) any |= std::bit_cast<SameSizeBits<T>>(values[c + k]);
            if (any == 0) continue;
            for (std::uint32_t k = c; k < c + kGroup; ++k) put_csr_entry<E>(out, k, values[k]);
        }
        for (; c < source.cols; ++c) put_csr_entry<E>(out, c, values[c]);
    }
}

template <class E, class T>
void put_csr_payload(ByteOutput& out, const SparseSource<T>& source) {
    source.for_each_row([&](std::uint32_t, std::uint64_t begin, std::uint64_t end) {
        out.put<std::uint32_t>(static_cast<std::uint32_t>(source.kept_in(begin, end)));
        for (std::uint64_t k = begin; k < end; ++k) {
            if (source.drop_zeros && is_bit_zero_value(source.values[k])) continue;
            out.put<std::uint32_t>(source.col(k));
            put_value<E>(out, source.values[k]);
        }
    });
}

template <class E, class Source>
void put_coo_payload(ByteOutput& out, const Source& source) {
    const bool single_column = source.cols == 1;
    auto put_entry = [&](std::uint32_t r, std::uint32_t c, auto value) {
        out.put<std::uint32_t>(r);
        if (!single_column) out.put<std::uint32_t>(c);
        put_value<E>(out, value);
    };
    if constexpr (requires { source.for_each_nonzero(put_entry); }) {
        source.for_each_nonzero(put_entry);
    } else {
        source.for_each_entry(put_entry);
    }
}

// Writes the whole block record for `plan`.
template <class Source>
void encode_block(ByteOutput& out, const BlockPosition& position, const Source& source, const EncodingPlan& plan) {
    put_record_header(out, position, plan);
    if (plan.block_type == BlockType::Empty) return;
    visit_value_type(plan.value_type, [&](auto tag) {
        using E = typename decltype(tag)::type;
        switch (plan.block_type) {
            case BlockType::Dense: put_dense_payload<E>(out, source); break;
            case BlockType::Csr: put_csr_payload<E>(out, source); break;
            case BlockType::Coo: put_coo_payload<E>(out, source); break;
            case BlockType::Empty: break;
        }
    });
}

}  // namespace dbdf::detail
