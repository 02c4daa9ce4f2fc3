// A block's values as the caller passed them, before their C++ type is known: the front of the writer describes
// every add_* call and tile with one of these, and the body writer of the dialect turns it into the typed source
// it encodes from (visit). Keeping the value type a run-time field lets the body writers sit behind a virtual
// interface, called once per block; everything that runs once per value stays templated on the type.
// Arrays that are not aligned for their type are staged here, one block at a time (caller_arrays.hpp), so every
// typed source a body writer sees is aligned.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "block_sources.hpp"
#include "caller_arrays.hpp"
#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::detail {

// The aligned copies of one block's arrays, alive while the block is encoded.
struct BlockStaging {
    AlignedScratch values;
    AlignedScratch cols32;
    AlignedScratch row_offsets;
    AlignedScratch row_indices;
};

struct BlockInput {
    ValueType type = ValueType::None;    // of the caller's values
    BlockType given = BlockType::Dense;  // the layout passed: what the as-given encoding keeps
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
    const void* values = nullptr;
    std::uint64_t stride = 0;                      // dense: values between the starts of two rows
    SparseLayout layout = SparseLayout::LocalCsr;  // CSR and COO: how the index arrays below are laid out
    const std::uint32_t* cols32 = nullptr;
    const std::uint64_t* cols64 = nullptr;
    const std::uint64_t* row_offsets = nullptr;
    const std::uint32_t* row_indices = nullptr;
    std::uint64_t entries = 0;
    std::uint64_t row_base = 0;
    std::uint64_t col_base = 0;
    std::uint64_t col_limit = 0;

    // Dense values: rows x cols of `type`, rows `stride` values apart.
    static BlockInput dense_values(ValueType type, std::uint32_t rows, std::uint32_t cols, const void* values,
                                   std::uint64_t stride) {
        BlockInput input;
        input.type = type;
        input.given = BlockType::Dense;
        input.rows = rows;
        input.cols = cols;
        input.values = values;
        input.stride = stride;
        return input;
    }

    bool dense() const { return given == BlockType::Dense; }

    template <class T>
    DenseSource<T> dense_source() const {
        return DenseSource<T>{static_cast<const T*>(values), rows, cols, stride};
    }

    template <class T>
    SparseSource<T> sparse_source() const {
        SparseSource<T> source;
        source.layout = layout;
        source.rows = rows;
        source.cols = cols;
        source.values = static_cast<const T*>(values);
        source.cols32 = cols32;
        source.cols64 = cols64;
        source.row_offsets = row_offsets;
        source.row_indices = row_indices;
        source.entries = entries;
        source.row_base = row_base;
        source.col_base = col_base;
        source.col_limit = col_limit;
        return source;
    }

    // Whether every array is aligned for its element type (NULL arrays are).
    bool arrays_aligned() const;
    // These arrays copied into `staging`, aligned: dense values compacted to `cols` apart, sparse ones as
    // block-local CSR or COO holding only the block's entries. The caller checked the arrays (counts, offsets).
    BlockInput staged(BlockStaging& staging) const;

    // on_source(source) with the DenseSource<T> or SparseSource<T> of these values, T the C++ type of `type`.
    // Misaligned arrays are staged first, so the source reads aligned memory only.
    template <class OnSource>
    void visit(OnSource&& on_source) const {
        if (!arrays_aligned()) {
            BlockStaging staging;
            staged(staging).visit(on_source);
            return;
        }
        visit_value_type(type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (dense()) {
                DenseSource<T> source = dense_source<T>();
                on_source(source);
            } else {
                SparseSource<T> source = sparse_source<T>();
                on_source(source);
            }
        });
    }
};

// `blocks` cut into full-width row bands of about kStagedPieceBytes of `type` each (at least one row): how a misaligned
// whole dense matrix reaches a dialect whose one block may come in bands.
std::vector<BlockPlacement> row_bands(const std::vector<BlockPlacement>& blocks, ValueType type);

// The value type T of a DenseSource<T> or SparseSource<T>.
template <class Source>
using source_value_t = std::remove_cvref_t<decltype(*std::declval<Source>().values)>;

}  // namespace dbdf::detail
