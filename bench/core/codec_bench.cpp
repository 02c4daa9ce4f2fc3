// Encoding and decoding of each block type, and value-type conversion on decode, in bytes per second of the
// output produced. BM_Memcpy copies the same number of bytes, so every figure here can be read as a fraction
// of the machine's copy bandwidth (bench/check_targets.py does that).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "bench_data.hpp"

namespace dbdf::bench {
namespace {

// Blocks of 2048 x 2048 values (32 MiB of float64): together with their output larger than the last-level cache,
// as the blocks of the big matrices dbdf is for are, so both the decoders and memcpy run at memory speed.
constexpr std::uint32_t kSide = 2048;
constexpr std::size_t kCells = std::size_t{kSide} * kSide;

// A sink that copies what it is given into one preallocated buffer, reused by every iteration: encoding is timed
// with the one copy a file write makes (into the page cache) and without growing a buffer.
class ReusedBufferSink final : public ByteSink {
public:
    explicit ReusedBufferSink(std::vector<std::byte>& buffer) : buffer_(buffer) {}
    void write(std::span<const std::byte> bytes) override {
        if (bytes.size() > buffer_.size() - used_) throw Error(ErrorCode::Sink, "the benchmark's buffer is too small");
        std::memcpy(buffer_.data() + used_, bytes.data(), bytes.size());
        used_ += bytes.size();
    }

private:
    std::vector<std::byte>& buffer_;
    std::size_t used_ = 0;
};

std::unique_ptr<ByteSink> reused_buffer_sink() {
    static std::vector<std::byte> buffer(kCells * 16 + (std::size_t{1} << 20));  // room for any block of the suite
    return std::make_unique<ReusedBufferSink>(buffer);
}

template <class T>
void encode_block(benchmark::State& state, const std::vector<T>& values, Encoding encoding) {
    std::uint64_t encoded = 0;
    for (auto _ : state) {
        Writer writer(reused_buffer_sink());
        writer.begin_matrix(DataType::DenseMatrix, value_type_v<T>, kSide, kSide);
        writer.add_dense(BlockPlacement{0, 0, kSide, kSide}, value_type_v<T>, values.data(), values.size(), 0,
                         WriteOptions{encoding, 0, 0});
        writer.finish();
        encoded = writer.bytes_written();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * encoded));
    state.counters["encoded_bytes"] = static_cast<double>(encoded);
}

void BM_Memcpy(benchmark::State& state) { copy_bytes_each_iteration(state, static_cast<std::size_t>(state.range(0))); }
BENCHMARK(BM_Memcpy)->Arg(kCells * 8)->Arg(kCells * 4);

// The same copy from a source 45 bytes past an aligned address, where a one-block file's float64 payload starts
// (19-byte header, 16-byte position, 10-byte block header): the bytes a same-type dense decode copies.
void BM_MemcpyFromPayloadOffset(benchmark::State& state) {
    const std::size_t bytes = static_cast<std::size_t>(state.range(0));
    constexpr std::size_t kPayloadOffset = kMatrixHeaderBytes + kBlockPositionBytes + kDenseFixedBytes;
    std::vector<char> source(bytes + 64, 1);
    std::vector<char> target(bytes, 0);
    for (auto _ : state) {
        std::memcpy(target.data(), source.data() + kPayloadOffset, bytes);
        benchmark::DoNotOptimize(target.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_MemcpyFromPayloadOffset)->Arg(kCells * 8);

// --- encoding -------------------------------------------------------------------------------------------------

void BM_EncodeDense_f64(benchmark::State& state) { encode_block(state, random_doubles(kCells), Encoding::Dense); }
BENCHMARK(BM_EncodeDense_f64);

void BM_EncodeDense_i32(benchmark::State& state) {
    encode_block(state, sparse_values<std::int32_t>(kCells, 1.0), Encoding::Dense);
}
BENCHMARK(BM_EncodeDense_i32);

void BM_EncodeCsr_f64_1pct(benchmark::State& state) {
    encode_block(state, sparse_values<double>(kCells, 0.01), Encoding::Csr);
}
BENCHMARK(BM_EncodeCsr_f64_1pct);

void BM_EncodeCoo_f64_0_1pct(benchmark::State& state) {
    encode_block(state, sparse_values<double>(kCells, 0.001), Encoding::Coo);
}
BENCHMARK(BM_EncodeCoo_f64_0_1pct);

// CSR arrays straight to a CSR block (no dense source to scan).
void BM_EncodeCsrFromArrays_f64(benchmark::State& state) {
    const CsrArrays csr = csr_arrays(kSide, kSide, 10);
    std::uint64_t encoded = 0;
    for (auto _ : state) {
        Writer writer(reused_buffer_sink());
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, kSide, kSide);
        writer.add_csr(BlockPlacement{0, 0, kSide, kSide}, ValueType::F64, csr.row_offsets.data(),
                       csr.col_indices.data(), csr.values.data(), csr.values.size(), WriteOptions{Encoding::Csr, 0, 0});
        writer.finish();
        encoded = writer.bytes_written();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * encoded));
}
BENCHMARK(BM_EncodeCsrFromArrays_f64);

// --- automatic encoding: the choice of block type and narrowest value type, then the encoding ----------------

void BM_EncodeAuto_f64_random(benchmark::State& state) { encode_block(state, random_doubles(kCells), Encoding::Auto); }
BENCHMARK(BM_EncodeAuto_f64_random);

void BM_EncodeAuto_f64_small_integers(benchmark::State& state) {  // narrows to u8
    encode_block(state, sparse_values<double>(kCells, 1.0), Encoding::Auto);
}
BENCHMARK(BM_EncodeAuto_f64_small_integers);

void BM_EncodeAuto_f64_1pct(benchmark::State& state) {  // becomes CSR
    encode_block(state, sparse_values<double>(kCells, 0.01), Encoding::Auto);
}
BENCHMARK(BM_EncodeAuto_f64_1pct);

// --- automatic encoding: file sizes --------------------------------------------------------------------------

// Sizes, not speed: a 2048 x 2048 float64 matrix of each kind of content, tiled into 512 x 512 blocks and written
// with automatic encoding. Counters: the file's size over the plain dense encoding's (never above 1) and over the
// smallest possible (per block the least of empty / dense / CSR / COO in the narrowest type that holds every value
// exactly, which the data's kind names; at most 1.05).
struct ContentKind {
    const char* name;
    double density;
    bool small_integers;  // values 1..100 (narrowest: u8), else doubles needing all 64 bits
};
constexpr ContentKind kContentKinds[] = {
    {"random_doubles", 1.0, false},      {"small_integers", 1.0, true},    {"doubles_60pct", 0.6, false},
    {"small_integers_5pct", 0.05, true}, {"doubles_0_1pct", 0.001, false}, {"all_zero", 0.0, false},
};

void BM_AutoEncodingSize(benchmark::State& state) {
    constexpr std::uint32_t side = 2048;
    constexpr std::uint32_t tile = 512;
    const ContentKind& kind = kContentKinds[state.range(0)];
    std::vector<double> values = kind.small_integers ? sparse_values<double>(std::size_t{side} * side, kind.density)
                                                     : random_doubles(std::size_t{side} * side);
    if (!kind.small_integers) {
        const auto mask = sparse_values<std::uint8_t>(values.size(), kind.density, 99);
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (mask[i] == 0) values[i] = 0.0;
        }
    }
    const ValueType narrowest = kind.small_integers ? ValueType::U8 : ValueType::F64;
    auto write = [&](Encoding encoding) {
        auto sink = std::make_unique<MemorySink>();
        MemorySink* memory = sink.get();
        Writer writer(std::move(sink));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, side, side);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{encoding, tile, tile});
        writer.finish();
        return memory->bytes();
    };
    std::vector<std::byte> automatic;
    for (auto _ : state) automatic = write(Encoding::Auto);
    const std::size_t dense = write(Encoding::Dense).size();

    std::uint64_t smallest = kMatrixHeaderBytes;
    for (std::uint32_t row = 0; row < side; row += tile) {
        for (std::uint32_t col = 0; col < side; col += tile) {
            std::uint64_t entries = 0;
            for (std::uint32_t i = row; i < row + tile; ++i) {
                for (std::uint32_t j = col; j < col + tile; ++j) entries += values[std::size_t{i} * side + j] != 0.0;
            }
            const std::uint64_t least =
                entries == 0
                    ? kEmptyBlockBytes
                    : std::min({dense_block_bytes(tile, tile, narrowest), csr_block_bytes(tile, entries, narrowest),
                                coo_block_bytes(tile, entries, narrowest)});
            smallest += kBlockPositionBytes + least;
        }
    }
    state.SetLabel(kind.name);
    state.counters["auto_bytes"] = static_cast<double>(automatic.size());
    state.counters["auto_over_dense"] = static_cast<double>(automatic.size()) / static_cast<double>(dense);
    state.counters["auto_over_smallest"] = static_cast<double>(automatic.size()) / static_cast<double>(smallest);
}
BENCHMARK(BM_AutoEncodingSize)->DenseRange(0, std::size(kContentKinds) - 1)->Unit(benchmark::kMillisecond);

// --- decoding ---------------------------------------------------------------------------------------------------

// Decodes the only block of `file` densely as Out; bytes produced = the dense output.
template <class Out>
void decode_dense(benchmark::State& state, const std::vector<std::byte>& file) {
    Reader reader = open_first_block(file);
    std::vector<Out> out(kCells);
    for (auto _ : state) {
        reader.decode_dense(value_type_v<Out>, out.data(), out.size(), 0);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kCells * sizeof(Out)));
}

void BM_DecodeDense_f64_to_f64(benchmark::State& state) {
    const auto values = random_doubles(kCells);
    decode_dense<double>(state, one_block_file<double>(kSide, kSide, values, Encoding::Dense));
}
BENCHMARK(BM_DecodeDense_f64_to_f64);

void BM_DecodeDense_f32_to_f64(benchmark::State& state) {
    const auto values = sparse_values<float>(kCells, 1.0);
    decode_dense<double>(state, one_block_file<float>(kSide, kSide, values, Encoding::Dense));
}
BENCHMARK(BM_DecodeDense_f32_to_f64);

void BM_DecodeDense_u8_to_f64(benchmark::State& state) {
    const auto values = sparse_values<std::uint8_t>(kCells, 1.0);
    decode_dense<double>(state, one_block_file<std::uint8_t>(kSide, kSide, values, Encoding::Dense));
}
BENCHMARK(BM_DecodeDense_u8_to_f64);

void BM_DecodeDense_i8_to_i64(benchmark::State& state) {
    const auto values = sparse_values<std::int8_t>(kCells, 1.0);
    decode_dense<std::int64_t>(state, one_block_file<std::int8_t>(kSide, kSide, values, Encoding::Dense));
}
BENCHMARK(BM_DecodeDense_i8_to_i64);

// Narrowing on read: every value fits, so each one is checked and converted.
void BM_DecodeDense_i64_to_i32(benchmark::State& state) {
    const auto values = sparse_values<std::int64_t>(kCells, 1.0);
    decode_dense<std::int32_t>(state, one_block_file<std::int64_t>(kSide, kSide, values, Encoding::Dense));
}
BENCHMARK(BM_DecodeDense_i64_to_i32);

void BM_DecodeCsrToDense_f64_1pct(benchmark::State& state) {
    const auto values = sparse_values<double>(kCells, 0.01);
    decode_dense<double>(state, one_block_file<double>(kSide, kSide, values, Encoding::Csr));
}
BENCHMARK(BM_DecodeCsrToDense_f64_1pct);

void BM_DecodeCooToDense_f64_0_1pct(benchmark::State& state) {
    const auto values = sparse_values<double>(kCells, 0.001);
    decode_dense<double>(state, one_block_file<double>(kSide, kSide, values, Encoding::Coo));
}
BENCHMARK(BM_DecodeCooToDense_f64_0_1pct);

// Sparse output: bytes produced = row offsets + column indices + values.
void BM_DecodeCsr_f64_10pct(benchmark::State& state) {
    const auto values = sparse_values<double>(kCells, 0.10);
    const auto file = one_block_file<double>(kSide, kSide, values, Encoding::Csr, DataType::CsrMatrix);
    Reader reader = open_first_block(file);
    const std::uint64_t entries = reader.count_entries();
    std::vector<std::uint64_t> row_offsets(kSide + 1);
    std::vector<std::uint32_t> col_indices(entries);
    std::vector<double> out(entries);
    for (auto _ : state) {
        reader.decode_csr(ValueType::F64, row_offsets.data(), row_offsets.size(), col_indices.data(), out.data(),
                          out.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const std::uint64_t produced = (kSide + 1) * 8 + entries * (4 + 8);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * produced));
}
BENCHMARK(BM_DecodeCsr_f64_10pct);

void BM_DecodeCoo_f64_1pct(benchmark::State& state) {
    const auto values = sparse_values<double>(kCells, 0.01);
    const auto file = one_block_file<double>(kSide, kSide, values, Encoding::Coo, DataType::CsrMatrix);
    Reader reader = open_first_block(file);
    const std::uint64_t entries = reader.count_entries();
    std::vector<std::uint32_t> row_indices(entries);
    std::vector<std::uint32_t> col_indices(entries);
    std::vector<double> out(entries);
    for (auto _ : state) {
        reader.decode_coo(ValueType::F64, row_indices.data(), col_indices.data(), out.data(), out.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const std::uint64_t produced = entries * (4 + 4 + 8);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * produced));
}
BENCHMARK(BM_DecodeCoo_f64_1pct);

}  // namespace
}  // namespace dbdf::bench

BENCHMARK_MAIN();
