// Reading a whole 256 MiB dense object through a byte source whose read-at callback calls pread() (on the calling
// thread alone, or on the decode threads), against the file reader (positioned reads too) on the same file: the cost of the callback path (docs/byte-sources.md). Both
// go through the C ABI. The file is written once into the temporary directory (DBDF_BENCH_DIR overrides it) and
// reused by later runs; DBDF_BENCH_SOURCE_MIB makes it smaller (the smoke test).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dbdf.h"

namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kCols = 4096;
constexpr std::uint32_t kTileRows = 32;  // 1 MiB blocks of float64

void check(dbdf_status_t status, const char* what) {
    if (status != DBDF_OK) throw std::runtime_error(std::string(what) + ": " + dbdf_last_error_message());
}

std::uint32_t rows_of_file() {
    const char* chosen = std::getenv("DBDF_BENCH_SOURCE_MIB");
    const std::uint32_t mebibytes = chosen != nullptr ? static_cast<std::uint32_t>(std::atoi(chosen)) : 256;
    return std::max<std::uint32_t>(1, mebibytes) * kTileRows;  // each tile of 32 rows is 1 MiB
}

const fs::path& source_file() {
    static const fs::path path = [] {
        const char* dir = std::getenv("DBDF_BENCH_DIR");
        const std::uint32_t rows = rows_of_file();
        const fs::path target = (dir != nullptr ? fs::path(dir) : fs::temp_directory_path()) /
                                ("dbdf-bench-source-" + std::to_string(rows / kTileRows) + "mib.dbdf");
        std::error_code error;
        if (fs::exists(target, error)) return target;
        std::mt19937_64 generator(42);
        std::uniform_real_distribution<double> distribution(1.0, 2.0);  // no narrower type holds them
        std::vector<double> tile(std::size_t{kTileRows} * kCols);
        for (double& value : tile) value = distribution(generator);
        dbdf_writer_t* writer = nullptr;
        check(dbdf_writer_open_file(target.c_str(), &writer), "open writer");
        dbdf_write_options_t dense = DBDF_WRITE_OPTIONS_INIT;
        dense.encoding = DBDF_ENCODING_DENSE;
        check(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, rows, kCols), "begin");
        for (std::uint32_t row = 0; row < rows; row += kTileRows) {
            check(dbdf_writer_add_dense(writer, row, 0, kTileRows, kCols, DBDF_VALUE_F64, tile.data(), tile.size(), 0,
                                        &dense),
                  "add");
        }
        check(dbdf_writer_finish(writer), "finish");
        dbdf_writer_free(writer);
        return target;
    }();
    return path;
}

int64_t pread_at(void* context, uint64_t offset, void* destination, size_t length) {
    const int fd = *static_cast<const int*>(context);
    for (;;) {
        const ssize_t got = ::pread(fd, destination, length, static_cast<off_t>(offset));
        if (got >= 0) return got;
        if (errno != EINTR) {
            dbdf_set_callback_error(std::strerror(errno));
            return -1;
        }
    }
}

void read_whole(dbdf_reader_t* reader, std::vector<double>& cells, benchmark::State& state) {
    check(dbdf_reader_read_dense(reader, DBDF_VALUE_F64, cells.data(), cells.size(), 0), "read");
    benchmark::DoNotOptimize(cells.data());
    state.SetBytesProcessed(state.bytes_processed() + static_cast<std::int64_t>(cells.size() * sizeof(double)));
}

// The file reader; argument: decode threads (1, or 0 for automatic).
void BM_ReadDense_FileReader(benchmark::State& state) {
    const fs::path& path = source_file();
    std::vector<double> cells(std::size_t{rows_of_file()} * kCols);
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) {
        dbdf_reader_t* reader = nullptr;
        check(dbdf_reader_open_file_with_options(path.c_str(), &options, &reader), "open");
        read_whole(reader, cells, state);
        dbdf_reader_free(reader);
    }
}
BENCHMARK(BM_ReadDense_FileReader)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// A byte source whose callback calls pread() on the same file; argument: 0 for a source read on the calling thread
// alone, 1 for one that allows concurrent reads (pread() does), decoded on the automatic threads as a file is.
void BM_ReadDense_PreadSource(benchmark::State& state) {
    const fs::path& path = source_file();
    std::vector<double> cells(std::size_t{rows_of_file()} * kCols);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path.string());
    for (auto _ : state) {
        dbdf_source_t source = DBDF_SOURCE_INIT;
        source.read_at = pread_at;
        source.context = &fd;
        source.size = fs::file_size(path);
        source.flags = state.range(0) != 0 ? DBDF_SOURCE_CONCURRENT_READS : 0;
        dbdf_reader_t* reader = nullptr;
        check(dbdf_reader_open_source(&source, nullptr, &reader), "open source");
        read_whole(reader, cells, state);
        dbdf_reader_free(reader);
    }
    ::close(fd);
}
BENCHMARK(BM_ReadDense_PreadSource)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
