// What the spec dialect's writer learns about a block's values before it chooses how to encode the block: how many
// are non-zero, into which value types every value round-trips (rule 9), and that every value is exactly
// representable in the declared type of its cell (rule 8, checked on the way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "block_sources.hpp"
#include "csr_rows.hpp"
#include "narrowed_values.hpp"
#include "placed_payload.hpp"
#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
#include "dbdf/writer.hpp"
#include "value_analysis.hpp"
#include "value_conversion.hpp"
#include "write_context.hpp"

namespace dbdf::detail {

// Rule 8 on write: every value must be exactly representable in the declared type of its cell.
template <class T>
class DeclaredTypes {
public:
    DeclaredTypes(const ObjectHeader& header, const BlockPlacement& place) : header_(header), place_(place) {
        if (header.data_type != DataType::Frame) {
            needed_ = !always_fits_type<T>(header.value_type);
            return;
        }
        for (std::uint64_t column = place.col; column < place.col + place.cols && !needed_; ++column) {
            needed_ = !always_fits_type<T>(header.column_types[column]);
        }
    }

    bool needed() const { return needed_; }

    // Inline and cheap when no check is needed, which is the common case: it runs once per value written.
    void check(T value, std::uint32_t row, std::uint32_t col) const {
        if (needed_) [[unlikely]]
            check_declared(value, row, col);
    }

private:
    [[gnu::noinline]] void check_declared(T value, std::uint32_t row, std::uint32_t col) const {
        const ValueType declared = header_.type_of_column(place_.col + col);
        if (!fits_type(declared, value)) fail(value, row, col, declared);
    }

    [[noreturn, gnu::cold, gnu::noinline]] void fail(T value, std::uint32_t row, std::uint32_t col,
                                                     ValueType declared) const {
        throw Error(ErrorCode::Range,
                    placement_text(place_) + ": value " + value_text(value) + " at block cell (" + std::to_string(row) +
                        ", " + std::to_string(col) + ") is not exactly representable in the declared type " +
                        std::string(name(declared)) + " (rule 8)",
                    8);
    }

    const ObjectHeader& header_;
    const BlockPlacement& place_;
    bool needed_ = false;
};

struct BlockFacts {
    std::uint64_t entries = 0;  // non-zeros of a dense source, kept entries of a sparse one
    TypeMask feasible = 0;
    // A dense source of doubles under automatic encoding: its values, row-major, in the narrowest type that holds
    // them all (u8 / i8, u16 / i16, u32 / i32 or f32), stored while they were analysed; storing nothing when that
    // type is wider, or when the analysis did not see every value. A block written dense in that type is written
    // from them, so its values are read once, not twice.
    NarrowedValues narrowed;
    // A dense source under automatic encoding whose values keep their type T (no narrower one holds them all):
    // the block's CSR payload with T values, collected while its non-zeros were counted (csr_payload_bytes of it;
    // null when not collected). A block written as CSR is then read once, not twice.
    std::unique_ptr<std::byte[]> csr_payload;
    std::size_t csr_payload_bytes = 0;
    // A dense source whose block is written dense in its own type: a copy of its payload placed for the kernel's
    // copy into the page cache (placed_payload.hpp), made by the thread that analysed it; empty when not made.
    PlacedPayload placed;
};

// Collects a dense block's CSR payload row by row (store_csr_row) into a buffer of bounded size: a quarter of the
// block's dense payload, plus one row's worst case. A block with more entries than that is rarely written as CSR;
// its collection stops (drop) and its rows are only counted, as before.
template <class T>
class CsrPayloadCollector {
public:
    bool active() const { return payload_ != nullptr; }

    // Starts collecting, with the block's rows [0, rows_done) stored at once: they were counted already and hold
    // `entries`. Not when those rows are dense enough to fill the buffer before the block's end (random doubles),
    // nor for rows narrower than 32 bytes (a frame's column), whose entry counts alone would take half the buffer
    // or more: storing them would be wasted work.
    void start(const DenseSource<T>& source, std::uint32_t rows_done, std::uint64_t entries) {
        const std::uint64_t cells_done = std::uint64_t{rows_done} * source.cols;
        constexpr std::uint64_t kEntryBytes = sizeof(std::uint32_t) + sizeof(T);
        if (std::uint64_t{source.cols} * sizeof(T) < 32 || entries * kEntryBytes * 4 > cells_done * sizeof(T)) return;
        worst_row_ = csr_row_worst_bytes<T>(source.cols);
        capacity_ = std::size_t{source.rows} * source.cols * sizeof(T) / 4 + worst_row_;
        payload_.reset(new std::byte[capacity_]);  // not zeroed: only what is stored is used
        for (std::uint32_t row = 0; row < rows_done && active(); ++row) add_row(source.row(row), source.cols);
    }

    // Stores one more row (the next in order) and returns its entries.
    std::uint64_t add_row(const T* values, std::uint32_t cols) {
        if (capacity_ - used_ < worst_row_) {
            drop();
            return count_nonzero_bits(values, cols);
        }
        const std::byte* row = payload_.get() + used_;
        used_ += store_csr_row<T>(payload_.get() + used_, values, cols);
        return csr_row_entries(row);
    }

    void drop() { payload_.reset(); }

    // The payload into `facts`, when it is still being collected.
    void hand_to(BlockFacts& facts) {
        if (!active()) return;
        facts.csr_payload = std::move(payload_);
        facts.csr_payload_bytes = used_;
    }

private:
    std::unique_ptr<std::byte[]> payload_;
    std::size_t capacity_ = 0;
    std::size_t used_ = 0;
    std::size_t worst_row_ = 0;
};

// What the choice of encoding needs to know about a block's values: automatic encoding everything; a given sparse
// encoding the entry count; a given dense encoding nothing (only rule 8 is checked).
enum class FactsWanted { All, Entries, None };

FactsWanted facts_wanted(Encoding encoding);

// The fewest entries with which neither a CSR nor a COO block of `type` is smaller than a dense one of the given
// shape, or UINT64_MAX when a full block still leaves a sparse one smaller. Sizes grow with the entries, so the
// automatic choice is dense as soon as that many are seen, whatever the rest of the values.
std::uint64_t entries_that_rule_out_sparse(std::uint32_t rows, std::uint32_t cols, ValueType type);

// A dense source row by row. The narrowing analysis stops as soon as no type narrower than T can hold every
// value seen: counting the non-zeros of the rest is then all that is left, and it runs at memory speed. For the
// automatic encoding, that count stops too once it rules out a sparse block (the entries reported are then a lower
// bound, which only a sparse encoding would use); rule 8's check of every value against the object's type never
// stops early.
template <class T>
BlockFacts analyze(const DenseSource<T>& source, const DeclaredTypes<T>& declared, FactsWanted wanted,
                   SpareBuffers* spares) {
    BlockFacts facts;
    NarrowingAnalysis<T> narrowing;
    bool narrowing_open = wanted == FactsWanted::All;
    if constexpr (std::is_same_v<T, double>) {
        if (narrowing_open) facts.narrowed = NarrowedValues(std::size_t{source.rows} * source.cols, spares);
    }
    NarrowedValues* narrowed = facts.narrowed.storing() ? &facts.narrowed : nullptr;
    // With narrowing ruled out the block keeps T's width, on which the sizes depend: known once it closes.
    std::uint64_t enough_for_dense = UINT64_MAX;
    CsrPayloadCollector<T> csr_rows;
    for (std::uint32_t row = 0; row < source.rows; ++row) {
        const T* values = source.row(row);
        if (declared.needed()) {
            for (std::uint32_t col = 0; col < source.cols; ++col) {
                if (!is_bit_zero_value(values[col])) declared.check(values[col], row, col);
            }
        }
        if (narrowing_open) {
            facts.entries += narrowing.observe_values(values, source.cols, narrowed, std::size_t{row} * source.cols);
            narrowing_open = narrowing.narrower_possible();
            if (!narrowing_open && !declared.needed()) {
                enough_for_dense = entries_that_rule_out_sparse(source.rows, source.cols, value_type_v<T>);
                // Rows counted so far are stored again from the cache; the rest are stored as they are counted.
                if (facts.entries < enough_for_dense) csr_rows.start(source, row + 1, facts.entries);
            }
        } else if (csr_rows.active()) {
            facts.entries += csr_rows.add_row(values, source.cols);
        } else if (wanted != FactsWanted::None) {
            facts.entries += count_nonzero_bits(values, source.cols);
        }
        if (facts.entries >= enough_for_dense) {
            csr_rows.drop();  // a dense block
            break;
        }
    }
    csr_rows.hand_to(facts);
    facts.feasible = narrowing.feasible();
    // Only a block whose every value was observed has its payload stored.
    if (!narrowing_open) facts.narrowed = NarrowedValues();
    return facts;
}

template <class T>
BlockFacts analyze(const SparseSource<T>& source, const DeclaredTypes<T>& declared, FactsWanted, SpareBuffers*) {
    BlockFacts facts;
    NarrowingAnalysis<T> narrowing;
    auto observe = [&](std::uint32_t row, std::uint32_t col, T value) {
        declared.check(value, row, col);
        narrowing.observe(value);
        ++facts.entries;
    };
    source.for_each_entry(observe);
    facts.feasible = narrowing.feasible();
    return facts;
}

}  // namespace dbdf::detail
