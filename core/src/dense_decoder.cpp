#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "block_decoder.hpp"
#include "copy_bytes.hpp"
#include "decoding_support.hpp"

namespace dbdf::detail {
namespace {

template <class D>
void fill_zero(const DenseTarget& target) {
    auto* out = static_cast<D*>(target.data);
    const std::uint64_t width = target.col_end - target.col_begin;
    for (std::uint64_t row = 0; row < std::uint64_t{target.row_end} - target.row_begin; ++row) {
        std::fill_n(out + row * target.row_stride, width, D{});
    }
}

// Integer narrowing: every value is stored truncated (defined modulo 2^n) and the range test is ORed over all of
// them (IntegerRangeTest), so the loop has no branch and vectorizes. __restrict spares the vectorizer an overlap
// check: the payload must stay unchanged while a reader uses it (dbdf_reader_open_memory), so output written
// into it would break that rule before it could overlap.
template <class S, class D>
bool narrow_integers(const std::byte* __restrict in, D* __restrict out, std::uint64_t count) {
    using Test = IntegerRangeTest<S, D>;
    typename Test::Bits any_biased = 0;
    for (std::uint64_t j = 0; j < count; ++j) {
        const S value = load_le<S>(in + j * sizeof(S));
        any_biased |= Test::biased(value);
        out[j] = static_cast<D>(value);
    }
    return Test::all_fit(any_biased);
}

// Converts `count` values stored as S at `in` into out[0, count) in tight loops: a copy, a widening that cannot
// fail, or a narrowing that stores every value and checks alongside. Returns false when some value is not exactly
// representable in D; what was stored for it is then meaningless and the caller reports the error.
template <class S, class D>
bool convert_run(const std::byte* in, D* out, std::uint64_t count) {
    if constexpr (std::is_same_v<S, D> && kHostIsLittleEndian) {
        copy_bytes(out, in, count * sizeof(S));
        return true;
    } else if constexpr (always_fits<S, D>()) {
        for (std::uint64_t j = 0; j < count; ++j) out[j] = static_cast<D>(load_le<S>(in + j * sizeof(S)));
        return true;
    } else if constexpr (std::is_integral_v<S> && std::is_integral_v<D>) {
        return narrow_integers<S, D>(in, out, count);
    } else {
        bool all_exact = true;
        for (std::uint64_t j = 0; j < count; ++j) {
            D converted{};
            all_exact &= convert_exact<D>(load_le<S>(in + j * sizeof(S)), converted);
            out[j] = converted;
        }
        return all_exact;
    }
}

template <class S, class D>
void decode_dense_typed(const ByteWindow& input, const BlockView& block, const ObjectHeader& header,
                        const DenseTarget& target) {
    auto* out = static_cast<D*>(target.data);
    const DeclaredTypeCheck<S> declared(header, block);
    if (block.block_type == BlockType::Empty) {
        fill_zero<D>(target);
        return;
    }
    if (block.block_type == BlockType::Dense) {
        const std::uint32_t width = target.col_end - target.col_begin;
        if (!declared.needed() && block.layout == PayloadLayout::Spec) {
            // Rows that lie back to back in both the payload and the output are converted as one run.
            const std::uint32_t rows = target.row_end - target.row_begin;
            const bool one_run = width == block.cols && target.row_stride == width;
            const std::uint64_t run_length = one_run ? std::uint64_t{width} * rows : width;
            bool all_exact = true;
            for (std::uint32_t run = 0; run < (one_run ? 1u : rows); ++run) {
                const std::uint64_t in_offset =
                    dense_value_offset(block, target.row_begin + run, target.col_begin, sizeof(S));
                all_exact &=
                    convert_run<S, D>(input.at(in_offset), out + std::uint64_t{run} * target.row_stride, run_length);
            }
            if (all_exact) return;
            // A value did not convert; the checking loop below finds the first one and reports it.
        }
        for (std::uint32_t row = target.row_begin; row < target.row_end; ++row) {
            const std::uint64_t row_offset = dense_value_offset(block, row, target.col_begin, sizeof(S));
            D* out_row = out + std::uint64_t{row - target.row_begin} * target.row_stride;
            for (std::uint32_t j = 0; j < width; ++j) {
                const std::uint64_t value_offset = row_offset + std::uint64_t{j} * sizeof(S);
                const S value = load_le<S>(input.at(value_offset));
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
        walk_csr<S>(
            input, block, target.row_end, [](std::uint32_t, std::uint32_t) {}, store);
    } else {
        walk_coo<S>(input, block, store);
    }
}

}  // namespace

void decode_block_dense(const ByteWindow& input, const BlockView& block, const ObjectHeader& header,
                        const DenseTarget& target) {
    if (target.row_begin >= target.row_end || target.col_begin >= target.col_end) return;
    visit_pair(stored_or_default(block), target.type, [&](auto stored_tag, auto requested_tag) {
        decode_dense_typed<typename decltype(stored_tag)::type, typename decltype(requested_tag)::type>(input, block,
                                                                                                        header, target);
    });
}

}  // namespace dbdf::detail
