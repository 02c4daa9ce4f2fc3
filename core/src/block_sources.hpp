// The inputs a writer encodes a block from: dense row-major values with a row stride, or sparse entries in
// row-major order (block-local CSR arrays, COO triplets, or a column window of object-wide CSR arrays). All
// index and value arrays are host-order caller memory.
#pragma once

#include <algorithm>
#include <cstdint>

#include "value_analysis.hpp"

namespace dbdf::detail {

template <class T>
struct DenseSource {
    const T* values = nullptr;
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    std::uint64_t stride = 0;

    const T* row(std::uint32_t index) const { return values + std::uint64_t{index} * stride; }

    // on_entry(row, col, value) for every bit-non-zero value, row-major.
    template <class OnEntry>
    void for_each_nonzero(OnEntry&& on_entry) const {
        for (std::uint32_t r = 0; r < rows; ++r) {
            const T* values_of_row = row(r);
            for (std::uint32_t c = 0; c < cols; ++c) {
                if (!is_bit_zero_value(values_of_row[c])) on_entry(r, c, values_of_row[c]);
            }
        }
    }
};

// Whether Source is a DenseSource (it has a row stride) rather than a SparseSource.
template <class Source>
constexpr bool kIsDenseSource = requires(const Source& source) { source.stride; };

enum class SparseLayout {
    LocalCsr,   // row_offsets[0..rows], block-local cols32
    LocalCoo,   // row_indices[k], cols32[k], k < entries
    CsrWindow,  // object-wide row_offsets from row_base, cols64 restricted to [col_base, col_limit)
};

template <class T>
struct SparseSource {
    SparseLayout layout = SparseLayout::LocalCsr;
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    const T* values = nullptr;
    const std::uint32_t* cols32 = nullptr;
    const std::uint64_t* cols64 = nullptr;
    const std::uint64_t* row_offsets = nullptr;
    const std::uint32_t* row_indices = nullptr;
    std::uint64_t entries = 0;  // LocalCoo
    std::uint64_t row_base = 0;
    std::uint64_t col_base = 0;
    std::uint64_t col_limit = 0;
    bool drop_zeros = false;  // skip bit-zero values (automatic encoding)

    std::uint32_t col(std::uint64_t k) const {
        return cols32 != nullptr ? cols32[k] : static_cast<std::uint32_t>(cols64[k] - col_base);
    }

    // on_row(row, begin, end): the entries of each row, rows in order (explicit zeros included).
    template <class OnRow>
    void for_each_row(OnRow&& on_row) const {
        switch (layout) {
            case SparseLayout::LocalCsr:
                for (std::uint32_t r = 0; r < rows; ++r) on_row(r, row_offsets[r], row_offsets[r + 1]);
                return;
            case SparseLayout::LocalCoo: {
                std::uint64_t k = 0;
                for (std::uint32_t r = 0; r < rows; ++r) {
                    const std::uint64_t begin = k;
                    while (k < entries && row_indices[k] == r) ++k;
                    on_row(r, begin, k);
                }
                return;
            }
            case SparseLayout::CsrWindow:
                for (std::uint32_t r = 0; r < rows; ++r) {
                    const std::uint64_t* row_begin = cols64 + row_offsets[row_base + r];
                    const std::uint64_t* row_end = cols64 + row_offsets[row_base + r + 1];
                    const std::uint64_t* first = std::lower_bound(row_begin, row_end, col_base);
                    const std::uint64_t* last = std::lower_bound(first, row_end, col_limit);
                    on_row(r, static_cast<std::uint64_t>(first - cols64), static_cast<std::uint64_t>(last - cols64));
                }
                return;
        }
    }

    // on_entry(row, col, value) for every entry kept (bit-zero values skipped when drop_zeros), row-major.
    template <class OnEntry>
    void for_each_entry(OnEntry&& on_entry) const {
        auto visit = [&](std::uint32_t r, std::uint64_t k) {
            if (drop_zeros && is_bit_zero_value(values[k])) return;
            on_entry(r, col(k), values[k]);
        };
        if (layout == SparseLayout::LocalCoo) {
            for (std::uint64_t k = 0; k < entries; ++k) visit(row_indices[k], k);
            return;
        }
        for_each_row([&](std::uint32_t r, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t k = begin; k < end; ++k) visit(r, k);
        });
    }

    // Entries kept in row r's range [begin, end).
    std::uint64_t kept_in(std::uint64_t begin, std::uint64_t end) const {
        if (!drop_zeros) return end - begin;
        std::uint64_t kept = 0;
        for (std::uint64_t k = begin; k < end; ++k) kept += is_bit_zero_value(values[k]) ? 0 : 1;
        return kept;
    }
};

}  // namespace dbdf::detail
