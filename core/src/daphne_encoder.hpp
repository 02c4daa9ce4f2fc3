// Writing the daphne dialect's layout (DIALECT.md): the header with the runtime's value type codes and its single
// block header, the body of a matrix (dense values, or CSR as rowOffsets, colIdxs and values with uint64
// indices), and frame rows interleaved across columns. Values are always stored in the object's (column's)
// value type, as the runtime does: every value must convert exactly (rule 8), nothing is narrowed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "block_sources.hpp"
#include "byte_output.hpp"
#include "caller_arrays.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
#include "value_conversion.hpp"

namespace dbdf::detail {

// The longest frame label DAPHNE's reader survives: it reads each label's bytes over a std::string object, which
// is 32 bytes on libstdc++ (heap pointer, length, 16-byte inline buffer); a longer label overflows its heap.
inline constexpr std::size_t kDaphneMaxLabelBytes = 32;

// Refuses what the daphne dialect cannot express: value types without a DAPHNE code (u16, i16), matrix
// dimensions of 2^32 or more (the block header holds them as uint32), scalars that are not 1 x 1, and frame labels
// longer than kDaphneMaxLabelBytes. Throws Error(InvalidArgument).
void check_daphne_header_for_writing(const ObjectHeader& header);

// Matrices: object header, (rx, cx) = (0, 0) and the block header up to its value type (45 bytes); the body
// follows. Frames: object header, value types, labels as text (DAPHNE's reader skips them) and (rx, cx).
// Scalars: object header with zero #r/#c and the value type (19 bytes); the value follows as a 1 x 1 dense body.
std::vector<std::byte> encode_daphne_header(const ObjectHeader& header);

// The body of a matrix without any non-zero: zero values for dense matrices and scalars (none when a dimension
// is 0); for CSR #nzb = 0 and #r + 1 zero offsets.
void put_daphne_empty_body(ByteOutput& out, const ObjectHeader& header);

// `count` zero values of `type` (zero bits are every type's zero): a band of an empty block.
void put_daphne_zero_values(ByteOutput& out, ValueType type, std::uint64_t count);

// Out of line: daphne_stored_value runs once per value written.
template <class T>
[[noreturn, gnu::cold, gnu::noinline]] void fail_daphne_stored_value(T value, std::uint64_t row, std::uint64_t col,
                                                                     ValueType object_type) {
    throw Error(ErrorCode::Range,
                "value " + value_text(value) + " at (" + std::to_string(row) + ", " + std::to_string(col) +
                    ") is not exactly representable in the object's type " + std::string(name(object_type)) +
                    "; the daphne dialect stores every value in that type (rule 8)",
                8);
}

// A value of the caller's type T converted exactly to the object's type D, or Error(Range).
template <class D, class T>
D daphne_stored_value(T value, std::uint64_t row, std::uint64_t col) {
    D stored{};
    if (!convert_exact<D>(value, stored)) fail_daphne_stored_value(value, row, col, value_type_v<D>);
    return stored;
}

// Dense body, or a full-width band of it whose first row is `row_base` (named in range errors): the source's
// rows x cols values of D, row-major.
template <class D, class T>
void put_daphne_dense_body(ByteOutput& out, const DenseSource<T>& source, std::uint64_t row_base) {
    if constexpr (std::is_same_v<D, T> && kHostIsLittleEndian) {
        // The values are stored as they are: rows go to the output as runs of bytes, all in one piece when they
        // lie back to back.
        const std::size_t row_bytes = std::size_t{source.cols} * sizeof(T);
        const std::uint32_t pieces = source.stride == source.cols ? 1 : source.rows;
        const std::size_t piece_bytes = source.stride == source.cols ? row_bytes * source.rows : row_bytes;
        for (std::uint32_t piece = 0; piece < pieces; ++piece) {
            out.put_bytes(std::span(reinterpret_cast<const std::byte*>(source.row(piece)), piece_bytes));
        }
        return;
    }
    for (std::uint32_t row = 0; row < source.rows; ++row) {
        const T* values = source.row(row);
        for (std::uint32_t col = 0; col < source.cols; ++col) {
            out.put<D>(daphne_stored_value<D>(values[col], row_base + row, col));
        }
    }
}

template <class D, class T>
void put_daphne_dense_body(ByteOutput& out, const SparseSource<T>& source, std::uint64_t row_base) {
    source.for_each_row([&](std::uint32_t row, std::uint64_t begin, std::uint64_t end) {
        std::uint32_t next_col = 0;
        for (std::uint64_t k = begin; k < end; ++k) {
            const std::uint32_t col = source.col(k);
            for (; next_col < col; ++next_col) out.put<D>(D{});
            out.put<D>(daphne_stored_value<D>(source.values[k], row_base + row, col));
            next_col = col + 1;
        }
        for (; next_col < source.cols; ++next_col) out.put<D>(D{});
    });
}

// CSR body: #nzb, rowOffsets (uint64 x (#r + 1)), colIdxs (uint64 x #nzb), values (D x #nzb). A dense source
// contributes its bit-non-zero values; a sparse source every entry given (explicit zeros included, as the
// runtime stores them). Returns #nzb.
template <class D, class T>
std::uint64_t put_daphne_csr_body(ByteOutput& out, const DenseSource<T>& source) {
    std::uint64_t entries = 0;
    source.for_each_nonzero([&](std::uint32_t, std::uint32_t, T) { ++entries; });
    out.put<std::uint64_t>(entries);
    out.put<std::uint64_t>(0);
    std::uint64_t running = 0;
    for (std::uint32_t row = 0; row < source.rows; ++row) {
        const T* values = source.row(row);
        for (std::uint32_t col = 0; col < source.cols; ++col) running += is_bit_zero_value(values[col]) ? 0 : 1;
        out.put<std::uint64_t>(running);
    }
    source.for_each_nonzero([&](std::uint32_t, std::uint32_t col, T) { out.put<std::uint64_t>(col); });
    source.for_each_nonzero(
        [&](std::uint32_t row, std::uint32_t col, T value) { out.put<D>(daphne_stored_value<D>(value, row, col)); });
    return entries;
}

template <class D, class T>
std::uint64_t put_daphne_csr_body(ByteOutput& out, const SparseSource<T>& source) {
    std::uint64_t entries = 0;
    source.for_each_row([&](std::uint32_t, std::uint64_t begin, std::uint64_t end) { entries += end - begin; });
    out.put<std::uint64_t>(entries);
    out.put<std::uint64_t>(0);
    std::uint64_t running = 0;
    source.for_each_row([&](std::uint32_t, std::uint64_t begin, std::uint64_t end) {
        running += end - begin;
        out.put<std::uint64_t>(running);
    });
    source.for_each_row([&](std::uint32_t, std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t k = begin; k < end; ++k) out.put<std::uint64_t>(source.col(k));
    });
    source.for_each_row([&](std::uint32_t row, std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t k = begin; k < end; ++k) {
            out.put<D>(daphne_stored_value<D>(source.values[k], row, source.col(k)));
        }
    });
    return entries;
}

// Frame columns are kept until all have arrived: the runtime's layout interleaves them row by row.
class DaphneFrameColumns {
public:
    explicit DaphneFrameColumns(const ObjectHeader& header);

    // Stores `rows` values of T (values[i * stride]) converted exactly to the column's type. The caller's values
    // need not be aligned for T: each is loaded byte-safely.
    template <class T>
    void set(std::uint64_t column, const T* values, std::uint64_t stride) {
        const ValueType declared = header_->column_types[column];
        std::vector<std::byte>& bytes = columns_[column];
        bytes.resize(header_->rows * value_size(declared));
        visit_value_type(declared, [&](auto declared_tag) {
            using D = typename decltype(declared_tag)::type;
            for (std::uint64_t row = 0; row < header_->rows; ++row) {
                store_le<D>(bytes.data() + row * sizeof(D),
                            daphne_stored_value<D>(load_element<T>(values, row * stride), row, column));
            }
        });
        given_[column] = true;
    }

    bool has(std::uint64_t column) const { return given_[column]; }
    // Throws Error(Format) naming the first column not given (frames with rows need every column).
    void require_complete() const;
    // The body: row by row, column by column.
    void put_rows(ByteOutput& out) const;

private:
    const ObjectHeader* header_;
    std::vector<std::vector<std::byte>> columns_;
    std::vector<bool> given_;
};

}  // namespace dbdf::detail
