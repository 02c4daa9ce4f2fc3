// Work on whole files: opening a file and building its block index (which must touch no payload), reading a
// whole dense object, and assembling frame columns. The 1 GiB file is written once into the temporary directory
// (DBDF_BENCH_DIR overrides it) and reused by later runs.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_data.hpp"

namespace dbdf::bench {
namespace {

namespace fs = std::filesystem;

fs::path bench_dir() {
    const char* chosen = std::getenv("DBDF_BENCH_DIR");
    return chosen != nullptr ? fs::path(chosen) : fs::temp_directory_path();
}

// 1 GiB of float64 in 1024 dense blocks of 1 MiB: 32768 x 4096 values, tiles of 32 x 4096.
constexpr std::uint32_t kIndexRows = 32768;
constexpr std::uint32_t kIndexCols = 4096;
constexpr std::uint32_t kIndexTileRows = 32;

const fs::path& gib_file() {
    static const fs::path path = [] {
        const fs::path target = bench_dir() / "dbdf-bench-1gib-1024-blocks.dbdf";
        const std::uint64_t expected_bytes =
            kMatrixHeaderBytes +
            (kIndexRows / kIndexTileRows) *
                (kBlockPositionBytes + dense_block_bytes(kIndexTileRows, kIndexCols, ValueType::F64));
        std::error_code error;
        if (fs::file_size(target, error) == expected_bytes) return target;
        const auto tile = random_doubles(std::size_t{kIndexTileRows} * kIndexCols);
        Writer writer(make_file_sink(target));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kIndexRows, kIndexCols);
        for (std::uint32_t row = 0; row < kIndexRows; row += kIndexTileRows) {
            writer.add_dense(BlockPlacement{row, 0, kIndexTileRows, kIndexCols}, ValueType::F64, tile.data(),
                             tile.size(), 0, WriteOptions{Encoding::Dense, 0, 0});
        }
        writer.finish();
        return target;
    }();
    return path;
}

// Opening maps the file and parses the header; the index walks the 1024 block headers, skipping payloads.
void BM_OpenAndIndex_1GiB_1024_blocks(benchmark::State& state) {
    const fs::path& path = gib_file();
    std::size_t blocks = 0;
    for (auto _ : state) {
        Reader reader = Reader::open_file(path);
        blocks = reader.build_index().size();
        benchmark::DoNotOptimize(blocks);
    }
    state.counters["blocks"] = static_cast<double>(blocks);
    state.counters["file_bytes"] = static_cast<double>(fs::file_size(path));
}
BENCHMARK(BM_OpenAndIndex_1GiB_1024_blocks)->Unit(benchmark::kMicrosecond);

// The floor under the index: one pread() of a record's 34 bytes for each of the 1024 blocks, which is what building
// the index costs in system calls (each record's place is known only from the one before it).
void BM_PreadFloor_1024_records(benchmark::State& state) {
    const fs::path& path = gib_file();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const std::uint64_t record_bytes =
        kBlockPositionBytes + dense_block_bytes(kIndexTileRows, kIndexCols, ValueType::F64);
    std::array<std::byte, 34> record{};
    for (auto _ : state) {
        for (std::uint64_t block = 0; block < kIndexRows / kIndexTileRows; ++block) {
            const auto offset = static_cast<off_t>(kMatrixHeaderBytes + block * record_bytes);
            benchmark::DoNotOptimize(::pread(fd, record.data(), record.size(), offset));
        }
    }
    ::close(fd);
}
BENCHMARK(BM_PreadFloor_1024_records)->Unit(benchmark::kMicrosecond);

// The partition check (rule 1) of an object tiled in wide bands: 2 bands of 32,768 empty blocks each, whose first
// rows the check must enter at the right column rather than walk from their first block. Validation of such a file
// once cost time in proportion to the blocks of a band for every block (found by fuzzing); it must grow as n log n.
void BM_ValidateWideBands_65536_blocks(benchmark::State& state) {
    constexpr std::uint64_t kBandRows = 1000;
    constexpr std::uint32_t kTileCols = 1000;
    constexpr std::uint64_t kTilesPerBand = 32768;
    const auto bytes = written_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::CsrMatrix, ValueType::F64, 2 * kBandRows, kTilesPerBand * kTileCols);
        for (std::uint64_t band = 0; band < 2; ++band) {
            for (std::uint64_t tile = 0; tile < kTilesPerBand; ++tile) {
                writer.add_empty(BlockPlacement{band * kBandRows, tile * kTileCols, kBandRows, kTileCols});
            }
        }
    });
    for (auto _ : state) {
        Reader reader = Reader::open_memory(bytes);
        benchmark::DoNotOptimize(reader.validate({}));
    }
    state.counters["blocks"] = static_cast<double>(2 * kTilesPerBand);
}
BENCHMARK(BM_ValidateWideBands_65536_blocks)->Unit(benchmark::kMillisecond);

// A whole 256 MiB dense object from a file in the page cache into one array, decoded on 1 or 2 threads.
constexpr std::uint32_t kDenseFileRows = 8192;
constexpr std::uint32_t kDenseFileCols = 4096;

void BM_ReadDenseFile_256MiB(benchmark::State& state) {
    const auto threads = static_cast<unsigned>(state.range(0));
    const fs::path path = bench_dir() / "dbdf-bench-256mib.dbdf";
    {
        const auto values = random_doubles(std::size_t{kDenseFileRows} * kDenseFileCols);
        Writer writer(make_file_sink(path));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kDenseFileRows, kDenseFileCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
        writer.finish();
    }
    std::vector<double> out(std::size_t{kDenseFileRows} * kDenseFileCols);
    for (auto _ : state) {
        Reader reader = Reader::open_file(path);
        reader.set_decode_threads(threads);
        reader.read_dense_window(ValueType::F64, Window{0, 0, kDenseFileRows, kDenseFileCols}, out.data(), out.size(),
                                 0);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size() * sizeof(double)));
    fs::remove(path);
}
BENCHMARK(BM_ReadDenseFile_256MiB)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same 256 MiB written with automatic encoding into a file in the page cache, on 1 or 2 threads (with two, the
// values of the tiles ahead are analysed on a helper thread). Small integers keep the narrowing analysis busy over
// every value; random doubles end it at once.
void BM_WriteDenseFile_256MiB(benchmark::State& state) {
    const auto threads = static_cast<unsigned>(state.range(0));
    const bool small_integers = state.range(1) != 0;
    const std::size_t cells = std::size_t{kDenseFileRows} * kDenseFileCols;
    std::vector<double> values = random_doubles(cells);
    if (small_integers) {
        for (std::size_t i = 0; i < cells; ++i) values[i] = static_cast<double>(i % 1000);
    }
    const fs::path path = bench_dir() / "dbdf-bench-write-256mib.dbdf";
    for (auto _ : state) {
        Writer writer(make_file_sink(path));
        writer.set_encode_threads(threads);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kDenseFileRows, kDenseFileCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
        writer.finish();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * cells * sizeof(double)));
    fs::remove(path);
}
BENCHMARK(BM_WriteDenseFile_256MiB)
    ->ArgNames({"threads", "small_integers"})
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A file of 4 x 4 doubles written (to a temporary file, then renamed over the target) into a directory that holds
// `entries` other files. Before its temporary file is made, the writer lists the directory for temporary files a
// killed writer left for the same target: the only part of a write that grows with the directory, which must stay
// a read of its entries and no more. The directory is made once in the benchmark folder and reused by later runs.
void BM_ReplaceFileInCrowdedDirectory(benchmark::State& state) {
    const auto entries = static_cast<std::size_t>(state.range(0));
    const fs::path directory = bench_dir() / ("dbdf-bench-directory-of-" + std::to_string(entries));
    fs::create_directories(directory);
    for (std::size_t i = 0; i < entries; ++i) {
        const fs::path entry = directory / ("entry-" + std::to_string(i));
        if (!fs::exists(entry)) ::close(::open(entry.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
    }
    const std::vector<double> values(16, 1.5);
    const fs::path target = directory / "small.dbdf";
    for (auto _ : state) {
        Writer writer(make_file_sink(target));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 4, 4);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
        writer.finish();
    }
    fs::remove(target);
}
BENCHMARK(BM_ReplaceFileInCrowdedDirectory)
    ->ArgName("entries")
    ->Arg(0)
    ->Arg(100000)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// A frame of 1M rows and 8 columns of four types, written as one block per column per row range; each column is
// assembled into its own array in its own type, on 1 or 2 threads.
void BM_FrameColumnAssembly(benchmark::State& state) {
    constexpr std::uint64_t rows = 1 << 20;
    const std::vector<ValueType> types{ValueType::F64, ValueType::I64, ValueType::F32, ValueType::I32,
                                       ValueType::F64, ValueType::I64, ValueType::F32, ValueType::I32};
    std::vector<std::string> labels;
    for (std::size_t c = 0; c < types.size(); ++c) labels.push_back("column_" + std::to_string(c));
    auto sink = std::make_unique<MemorySink>();
    MemorySink* memory = sink.get();
    Writer writer(std::move(sink));
    writer.begin_frame(rows, types, labels);
    const auto doubles = random_doubles(rows);
    const auto floats = sparse_values<float>(rows, 1.0);
    const auto int64s = sparse_values<std::int64_t>(rows, 1.0);
    const auto int32s = sparse_values<std::int32_t>(rows, 1.0);
    for (std::uint64_t c = 0; c < types.size(); ++c) {
        const void* values = types[c] == ValueType::F64   ? static_cast<const void*>(doubles.data())
                             : types[c] == ValueType::I64 ? static_cast<const void*>(int64s.data())
                             : types[c] == ValueType::F32 ? static_cast<const void*>(floats.data())
                                                          : static_cast<const void*>(int32s.data());
        writer.write_column(c, types[c], values, rows, WriteOptions{});
    }
    writer.finish();
    const std::vector<std::byte>& file = memory->bytes();

    std::vector<std::vector<std::byte>> columns;
    std::uint64_t produced = 0;
    for (ValueType type : types) {
        columns.emplace_back(rows * value_size(type));
        produced += rows * value_size(type);
    }
    Reader reader = Reader::open_memory(file);
    reader.set_decode_threads(static_cast<unsigned>(state.range(0)));
    for (auto _ : state) {
        for (std::uint64_t c = 0; c < types.size(); ++c) {
            reader.read_dense_window(types[c], Window{0, c, rows, 1}, columns[c].data(), rows, 1);
        }
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * produced));
}
BENCHMARK(BM_FrameColumnAssembly)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace dbdf::bench

BENCHMARK_MAIN();
