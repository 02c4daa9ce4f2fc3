// One row of a CSR payload (its entry count, then each entry's column index and value) stored from a dense row
// into memory the caller has made room in: the output buffer of the block encoder, or the payload the analysis
// collects while it counts a block's non-zeros (block_facts.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "dbdf/endian.hpp"
#include "value_analysis.hpp"
#include "value_scan.hpp"

namespace dbdf::detail {

// The most bytes store_csr_row writes for a row of `cols` values: every value an entry.
template <class E>
constexpr std::size_t csr_row_worst_bytes(std::uint32_t cols) {
    return sizeof(std::uint32_t) + std::size_t{cols} * (sizeof(std::uint32_t) + sizeof(E));
}

// Stores the row's CSR bytes, the bit-non-zero values as E, at `target` (room for csr_row_worst_bytes<E>(cols))
// and returns how many it stored. The count goes first as a placeholder and is patched once the entries are known,
// so the row is read once, not counted first. Every value of a group holding a non-zero is stored and the cursor
// moves past it only when it is one, which spares a branch per value at random positions; the store of value c
// lands at most c entries past the count, so it stays within the worst case. The caller has established that
// every value converts to E exactly.
template <class E, class T>
std::size_t store_csr_row(std::byte* target, const T* values, std::uint32_t cols) {
    constexpr std::size_t kEntryBytes = sizeof(std::uint32_t) + sizeof(E);
    std::byte* cursor = target + sizeof(std::uint32_t);
    const auto put_entry = [&](std::uint32_t col, T value) {
        store_le<std::uint32_t>(cursor, col);
        store_le<E>(cursor + sizeof(std::uint32_t), static_cast<E>(value));
        cursor += is_bit_zero_value(value) ? 0 : kEntryBytes;
    };
    constexpr std::uint32_t kGroup = 8;  // passed over with one test of their ORed bits when all are zero
    std::uint32_t c = 0;
    for (; c + kGroup <= cols; c += kGroup) {
        SameSizeBits<T> any = 0;
        for (std::uint32_t k = 0; k < kGroup; ++k) any |= std::bit_cast<SameSizeBits<T>>(values[c + k]);
        if (any == 0) continue;
        for (std::uint32_t k = c; k < c + kGroup; ++k) put_entry(k, values[k]);
    }
    for (; c < cols; ++c) put_entry(c, values[c]);
    const auto bytes = static_cast<std::size_t>(cursor - target);
    store_le<std::uint32_t>(target, static_cast<std::uint32_t>((bytes - sizeof(std::uint32_t)) / kEntryBytes));
    return bytes;
}

// The entry count a row stored by store_csr_row begins with.
inline std::uint32_t csr_row_entries(const std::byte* row) { return load_le<std::uint32_t>(row); }

}  // namespace dbdf::detail
