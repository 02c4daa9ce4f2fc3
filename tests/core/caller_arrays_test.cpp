// The pieces that let caller arrays be misaligned for their type (caller_arrays.hpp, block_staging.cpp): what a
// staged copy holds, how far it reaches, and how a whole dense matrix is cut into bounded bands.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "block_input.hpp"
#include "caller_arrays.hpp"

using namespace dbdf;
using namespace dbdf::detail;

namespace {

// `values` copied to offset 1 of `storage`: misaligned for every element wider than a byte.
template <class T>
const T* misaligned_copy(std::vector<std::byte>& storage, const std::vector<T>& values) {
    storage.assign(values.size() * sizeof(T) + 1, std::byte{0});
    std::memcpy(storage.data() + 1, values.data(), values.size() * sizeof(T));
    return reinterpret_cast<const T*>(storage.data() + 1);
}

}  // namespace

TEST(CallerArrays, ElementsLoadAndStoreAtAnyAddress) {
    std::vector<std::byte> storage;
    const std::uint64_t* array = misaligned_copy(storage, std::vector<std::uint64_t>{7, 0x0102030405060708u});
    EXPECT_FALSE(is_aligned_for<std::uint64_t>(array));
    EXPECT_EQ(load_element<std::uint64_t>(array, 1), 0x0102030405060708u);
    store_element(const_cast<std::uint64_t*>(array), 0, std::uint64_t{42});
    EXPECT_EQ(load_element<std::uint64_t>(array, 0), 42u);
    EXPECT_EQ(load_element<std::uint64_t>(array, 1), 0x0102030405060708u);
}

TEST(CallerArrays, OutputArrayWritesInPlaceWhenAlignedAndThroughACopyOtherwise) {
    std::vector<double> aligned(4, 0.0);
    OutputArray in_place(aligned.data(), alignof(double));
    EXPECT_EQ(in_place.at(32), aligned.data());

    std::vector<std::byte> storage(33, std::byte{0});
    void* caller = storage.data() + 1;
    OutputArray staged(caller, alignof(double));
    auto* target = static_cast<double*>(staged.at(32));
    EXPECT_NE(static_cast<void*>(target), caller);
    EXPECT_TRUE(is_aligned_for<double>(target));
    for (int i = 0; i < 4; ++i) target[i] = -0.0 - i;
    staged.deliver(32);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(load_element<double>(caller, i), -0.0 - i);
    EXPECT_EQ(storage[0], std::byte{0});  // nothing before the caller's array
}

// write_csr's block is a column window of object-wide arrays: the staged copy is block-local CSR holding only the
// window's entries, with columns relative to the block.
TEST(CallerArrays, StagedCsrWindowHoldsOnlyTheBlocksEntries) {
    // 3 x 6 object: row 0 columns 0 2 3 5, row 1 none, row 2 columns 1 3 4.
    const std::vector<std::uint64_t> offsets{0, 4, 4, 7};
    const std::vector<std::uint64_t> cols{0, 2, 3, 5, 1, 3, 4};
    const std::vector<double> values{1, 2, 3, 4, 5, 6, 7};
    std::vector<std::byte> offsets_storage, cols_storage, values_storage;
    BlockInput input;
    input.type = ValueType::F64;
    input.given = BlockType::Csr;
    input.layout = SparseLayout::CsrWindow;
    input.rows = 2;  // object rows 1 and 2
    input.cols = 2;  // object columns 3 and 4
    input.row_offsets = misaligned_copy(offsets_storage, offsets);
    input.cols64 = misaligned_copy(cols_storage, cols);
    input.values = misaligned_copy(values_storage, values);
    input.row_base = 1;
    input.col_base = 3;
    input.col_limit = 5;
    EXPECT_FALSE(input.arrays_aligned());

    BlockStaging staging;
    const BlockInput staged = input.staged(staging);
    EXPECT_TRUE(staged.arrays_aligned());
    ASSERT_EQ(staged.layout, SparseLayout::LocalCsr);
    EXPECT_EQ(std::vector<std::uint64_t>(staged.row_offsets, staged.row_offsets + 3),
              (std::vector<std::uint64_t>{0, 0, 2}));
    EXPECT_EQ(std::vector<std::uint32_t>(staged.cols32, staged.cols32 + 2), (std::vector<std::uint32_t>{0, 1}));
    const auto* staged_values = static_cast<const double*>(staged.values);
    EXPECT_EQ(std::vector<double>(staged_values, staged_values + 2), (std::vector<double>{6, 7}));
}

TEST(CallerArrays, StagedDenseValuesAreCompactedToTheBlocksColumns) {
    const std::vector<std::int32_t> values{1, 2, -9, 3, 4, -9};  // 2 x 2 at stride 3
    std::vector<std::byte> storage;
    const BlockInput input = BlockInput::dense_values(ValueType::I32, 2, 2, misaligned_copy(storage, values), 3);
    BlockStaging staging;
    const BlockInput staged = input.staged(staging);
    EXPECT_EQ(staged.stride, 2u);
    const auto* staged_values = static_cast<const std::int32_t*>(staged.values);
    EXPECT_EQ(std::vector<std::int32_t>(staged_values, staged_values + 4), (std::vector<std::int32_t>{1, 2, 3, 4}));
}

TEST(CallerArrays, RowBandsBoundEachPieceAndCoverTheBlock) {
    // 1000 columns of f64 are 8000 bytes a row: 524 rows fit in 4 MiB.
    const std::vector<BlockPlacement> bands = row_bands({BlockPlacement{0, 0, 1000, 1000}}, ValueType::F64);
    ASSERT_EQ(bands.size(), 2u);
    EXPECT_EQ(bands[0].row, 0u);
    EXPECT_EQ(bands[0].rows, 524u);
    EXPECT_EQ(bands[1].row, 524u);
    EXPECT_EQ(bands[1].rows, 476u);
    EXPECT_EQ(bands[1].cols, 1000u);
    // A row wider than a piece is a band of its own.
    const std::vector<BlockPlacement> wide = row_bands({BlockPlacement{0, 0, 2, 1u << 20}}, ValueType::F64);
    ASSERT_EQ(wide.size(), 2u);
    EXPECT_EQ(wide[1].row, 1u);
    EXPECT_EQ(wide[1].rows, 1u);
}
