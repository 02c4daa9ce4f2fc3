// Deterministic inputs shared by the core benchmarks: dense matrices of every kind of content the automatic
// encoding distinguishes, and sparse matrices of a given density, generated from fixed seeds.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <vector>

#include "dbdf/reader.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::bench {

// The yardstick of bandwidth targets: copies `bytes` once per iteration and reports the bytes copied.
inline void copy_bytes_each_iteration(benchmark::State& state, std::size_t bytes) {
    std::vector<char> source(bytes, 1);
    std::vector<char> target(bytes, 0);
    for (auto _ : state) {
        std::memcpy(target.data(), source.data(), bytes);
        benchmark::DoNotOptimize(target.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

// Doubles that need all 64 bits (no narrower type holds them exactly), none of them zero.
inline std::vector<double> random_doubles(std::size_t count, std::uint64_t seed = 42) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> distribution(1.0, 2.0);
    std::vector<double> values(count);
    for (double& value : values) value = distribution(generator);
    return values;
}

// Values of T, each non-zero with probability `density`, else exactly zero.
template <class T>
std::vector<T> sparse_values(std::size_t count, double density, std::uint64_t seed = 7) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    std::uniform_int_distribution<int> small(1, 100);
    std::vector<T> values(count, T{});
    for (T& value : values) {
        if (coin(generator) < density) value = static_cast<T>(small(generator));
    }
    return values;
}

// Object-local CSR arrays of a rows x cols matrix with `per_row` entries in every row (columns spread evenly,
// with a random offset inside each stride, so they are sorted and unique) and values 1.5, 2.5, ...
struct CsrArrays {
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint32_t> col_indices;
    std::vector<double> values;
};

inline CsrArrays csr_arrays(std::uint32_t rows, std::uint32_t cols, std::uint32_t per_row, std::uint64_t seed = 3) {
    std::mt19937_64 generator(seed);
    const std::uint32_t stride = cols / per_row;
    std::uniform_int_distribution<std::uint32_t> jitter(0, stride - 1);
    CsrArrays csr;
    csr.row_offsets.reserve(std::size_t{rows} + 1);
    csr.col_indices.reserve(std::size_t{rows} * per_row);
    csr.values.reserve(std::size_t{rows} * per_row);
    csr.row_offsets.push_back(0);
    for (std::uint32_t row = 0; row < rows; ++row) {
        for (std::uint32_t k = 0; k < per_row; ++k) {
            csr.col_indices.push_back(k * stride + jitter(generator));
            csr.values.push_back(0.5 + static_cast<double>(csr.values.size() % 1000));
        }
        csr.row_offsets.push_back(csr.col_indices.size());
    }
    return csr;
}

// The bytes of the object `build` writes to a memory sink, finished.
inline std::vector<std::byte> written_to_memory(const std::function<void(Writer&)>& build) {
    auto sink = std::make_unique<MemorySink>();
    MemorySink* memory = sink.get();
    Writer writer(std::move(sink));
    build(writer);
    writer.finish();
    return memory->bytes();
}

// A one-block object holding `values` (rows x cols, row-major) in the given block encoding, in memory.
template <class T>
std::vector<std::byte> one_block_file(std::uint32_t rows, std::uint32_t cols, std::span<const T> values,
                                      Encoding encoding, DataType data_type = DataType::DenseMatrix) {
    return written_to_memory([&](Writer& writer) {
        writer.begin_matrix(data_type, value_type_v<T>, rows, cols);
        writer.add_dense(BlockPlacement{0, 0, rows, cols}, value_type_v<T>, values.data(), values.size(), 0,
                         WriteOptions{encoding, 0, 0});
    });
}

// A reader positioned on the first (only) block of `file`.
inline Reader open_first_block(std::span<const std::byte> file) {
    Reader reader = Reader::open_memory(file);
    reader.next_block();
    return reader;
}

}  // namespace dbdf::bench
