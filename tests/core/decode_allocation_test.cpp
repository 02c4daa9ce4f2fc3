// Decoding allocates no more than a small bounded overhead beyond the caller's own output: every form of reading a
// large object (whole-object dense and CSR reads, block by block in every output form, narrowing and widening
// conversions, both dialects, frame columns) is measured with a counting global allocator, which is why this suite
// is its own executable. The output buffers are the caller's (allocated outside the measured calls), so what the
// library allocates during a call is pure overhead: it must not grow with the size of the data, only with the number
// of blocks (the index holds a few dozen bytes per block).
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <vector>

#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "replaced_global_allocator.hpp"
#include "test_support.hpp"

namespace {

// Bytes allocated through operator new and not yet freed, and the most there were since the last reset. Each
// allocation carries its size in a header as wide as the strictest fundamental alignment, so that the pointer
// handed out keeps that alignment.
constexpr std::size_t kHeaderBytes = alignof(std::max_align_t);
std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> peak_bytes{0};

void* counted_allocate(std::size_t size) {
    auto* block = static_cast<unsigned char*>(std::malloc(size + kHeaderBytes));
    if (block == nullptr) throw std::bad_alloc();
    *reinterpret_cast<std::size_t*>(block) = size;
    const std::size_t now = live_bytes.fetch_add(size) + size;
    std::size_t peak = peak_bytes.load();
    while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {}
    return block + kHeaderBytes;
}

void counted_free(void* pointer) noexcept {
    if (pointer == nullptr) return;
    auto* block = static_cast<unsigned char*>(pointer) - kHeaderBytes;
    live_bytes.fetch_sub(*reinterpret_cast<std::size_t*>(block));
    std::free(block);
}

// The most the library allocated at once while `read` ran, beyond what was live when it started.
std::size_t overhead_of(const std::function<void()>& read) {
    const std::size_t before = live_bytes.load();
    peak_bytes.store(before);
    read();
    return peak_bytes.load() - before;
}

}  // namespace

void* test_allocate(std::size_t size) { return counted_allocate(size); }
void test_release(void* pointer) noexcept { counted_free(pointer); }

namespace dbdf {
namespace {

// What a read may allocate beyond its output: a fixed allowance (thread handles, error-free bookkeeping) plus the
// block index. Against it stand outputs of 64 MiB and more, so an allocation that follows the data cannot pass.
constexpr std::size_t kFixedAllowance = 64 * 1024;
constexpr std::size_t kAllowancePerBlock = 256;
std::size_t allowance(std::size_t blocks) { return kFixedAllowance + kAllowancePerBlock * blocks; }

constexpr std::uint64_t kRows = 4096;
constexpr std::uint64_t kCols = 2048;  // 8 Mi cells: 64 MiB as f64

// A dense f64 matrix in 16 tiles of 512 x 1024, a quarter of its cells non-zero (halves and integers, so automatic
// encoding narrows the tiles and reading converts them back), so that CSR and COO outputs are large too.
const std::vector<std::byte>& dense_object() {
    static const std::vector<std::byte> bytes = testing::write_to_memory([](Writer& writer) {
        std::vector<double> values(kRows * kCols, 0.0);
        for (std::uint64_t i = 0; i < values.size(); i += 4) values[i] = (i / kCols) < kRows / 2 ? i + 0.5 : double(i);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 512, 1024});
    });
    return bytes;
}

// The bounds below mean something only if the replaced operator new sees the library's allocations.
TEST(DecodeAllocation, TheCountingAllocatorSeesAllocationsInsideTheLibrary) {
    std::vector<std::byte> kept;  // outlives the lambda, so the allocation cannot be elided
    EXPECT_GE(overhead_of([&] { kept.resize(std::size_t{1} << 20); }), std::size_t{1} << 20);
    Reader reader = Reader::open_memory(dense_object());
    EXPECT_GT(overhead_of([&] { reader.build_index(); }), 16 * sizeof(BlockView)) << "the index of 16 blocks";
}

TEST(DecodeAllocation, WholeObjectDenseReadsAllocateOnlyTheirBookkeeping) {
    const auto& bytes = dense_object();
    std::vector<double> out(kRows * kCols);
    std::vector<float> narrow(kRows * kCols);
    for (unsigned threads : {1u, 2u}) {
        Reader reader = Reader::open_memory(bytes);
        reader.set_decode_threads(threads);
        const std::size_t blocks = reader.build_index().size();
        EXPECT_LE(overhead_of([&] {
                      reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, out.data(), out.size(), 0);
                  }),
                  allowance(blocks))
            << threads << " threads";
        EXPECT_EQ(out[4], 4.5);
        // A window across tiles, converted to f32 (every value here is exact in f32).
        EXPECT_LE(
            overhead_of([&] {
                reader.read_dense_window(ValueType::F32, Window{100, 300, 3000, 1500}, narrow.data(), narrow.size(), 0);
            }),
            allowance(blocks))
            << threads << " threads";
    }
}

TEST(DecodeAllocation, WholeObjectCsrReadsAllocateOnlyTheirBookkeeping) {
    const auto& bytes = dense_object();
    Reader reader = Reader::open_memory(bytes);
    const std::size_t blocks = reader.build_index().size();
    std::uint64_t entries = 0;
    EXPECT_LE(overhead_of([&] { entries = reader.count_entries_total(); }), allowance(blocks));
    EXPECT_EQ(entries, kRows * kCols / 4);
    std::vector<std::uint64_t> row_offsets(kRows + 1);
    std::vector<std::uint64_t> col_indices(entries);
    std::vector<double> values(entries);
    EXPECT_LE(overhead_of([&] {
                  reader.read_csr(ValueType::F64, row_offsets.data(), row_offsets.size(), col_indices.data(),
                                  values.data(), values.size());
              }),
              allowance(blocks));
    EXPECT_EQ(row_offsets.back(), entries);
}

TEST(DecodeAllocation, BlockByBlockDecodingAllocatesNothingThatGrowsWithTheBlock) {
    const auto& bytes = dense_object();
    Reader reader = Reader::open_memory(bytes);
    std::vector<double> dense(512 * 1024);
    std::vector<std::uint64_t> row_offsets(513);
    std::vector<std::uint32_t> row_indices(512 * 1024), col_indices(512 * 1024);
    std::vector<double> values(512 * 1024);
    std::size_t largest = 0;
    std::uint64_t blocks = 0;
    while (reader.next_block()) {
        ++blocks;
        largest =
            std::max(largest, overhead_of([&] { reader.decode_dense(ValueType::F64, dense.data(), dense.size(), 0); }));
        std::uint64_t entries = 0;
        largest = std::max(largest, overhead_of([&] { entries = reader.count_entries(); }));
        largest = std::max(largest, overhead_of([&] {
                               reader.decode_csr(ValueType::F64, row_offsets.data(), row_offsets.size(),
                                                 col_indices.data(), values.data(), values.size());
                           }));
        largest = std::max(largest, overhead_of([&] {
                               reader.decode_coo(ValueType::F64, row_indices.data(), col_indices.data(), values.data(),
                                                 values.size());
                           }));
        EXPECT_EQ(entries, 512u * 1024 / 4);
    }
    EXPECT_EQ(blocks, 16u);
    EXPECT_LE(largest, kFixedAllowance);
}

TEST(DecodeAllocation, ValidationAndIndexGrowOnlyWithTheBlocks) {
    const auto& bytes = dense_object();
    Reader reader = Reader::open_memory(bytes);
    EXPECT_LE(overhead_of([&] { reader.build_index(); }), allowance(16));
    EXPECT_LE(overhead_of([&] { EXPECT_EQ(reader.validate({}), 0u); }), allowance(16));
}

TEST(DecodeAllocation, DaphneMatricesAndFrameColumnsReadIntoTheCallersMemory) {
    std::vector<double> values(kRows * kCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(i % 1000);
    const auto daphne = [&] {
        WriterDialect dialect;
        dialect.dialect = Dialect::Daphne;
        Writer writer(std::make_unique<MemorySink>(), dialect);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
        writer.finish();
        return static_cast<MemorySink&>(writer.sink()).bytes();
    }();
    std::vector<double> out(values.size());
    Reader reader = Reader::open_memory(daphne, Dialect::Daphne);
    EXPECT_LE(overhead_of([&] {
                  reader.read_dense_window(ValueType::F64, Window{0, 0, kRows, kCols}, out.data(), out.size(), 0);
              }),
              allowance(1));
    EXPECT_EQ(out, values);

    // A frame of four 2 Mi-row columns of different types, each column read on its own.
    constexpr std::uint64_t kFrameRows = std::uint64_t{1} << 21;
    const auto frame = testing::write_to_memory([&](Writer& writer) {
        writer.begin_frame(kFrameRows, {ValueType::I64, ValueType::F64, ValueType::U8, ValueType::I32},
                           {"id", "x", "flag", "count"});
        std::vector<double> column(kFrameRows);
        for (std::uint64_t c = 0; c < 4; ++c) {
            for (std::uint64_t r = 0; r < kFrameRows; ++r) column[r] = double((r + c) % 100);
            writer.write_column(c, ValueType::F64, column.data(), column.size(), WriteOptions{});
        }
    });
    Reader frame_reader = Reader::open_memory(frame);
    const std::size_t blocks = frame_reader.build_index().size();
    std::vector<double> column(kFrameRows);
    for (std::uint64_t c = 0; c < 4; ++c) {
        EXPECT_LE(overhead_of([&] {
                      frame_reader.read_dense_window(ValueType::F64, Window{0, c, kFrameRows, 1}, column.data(),
                                                     column.size(), 0);
                  }),
                  allowance(blocks))
            << "column " << c;
        EXPECT_EQ(column[kFrameRows - 1], double((kFrameRows - 1 + c) % 100));
    }
}

}  // namespace
}  // namespace dbdf
