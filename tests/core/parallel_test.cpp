// Whole-object reads decoded on several threads and write_dense with its analysis on helper threads give exactly
// what one thread gives: the same values, the same bytes, the same first error, and no thread left running.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

#include "dbdf/error.hpp"
#include "parallel_for.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using testing::bits_of;
using testing::write_to_memory;

constexpr std::uint64_t kRows = 1500;
constexpr std::uint64_t kCols = 700;

// Values whose tiles encode differently: empty tiles, sparse ones (CSR and COO), integral ones that narrow, and
// fractional dense ones.
std::vector<double> mixed_values() {
    std::vector<double> values(kRows * kCols, 0.0);
    for (std::uint64_t row = 0; row < kRows; ++row) {
        for (std::uint64_t col = 0; col < kCols; ++col) {
            const std::uint64_t tile = (row / 256) * 3 + col / 256;
            double& cell = values[row * kCols + col];
            switch (tile % 5) {
                case 0: break;                                                                     // empty
                case 1: cell = (row * 7 + col) % 97 == 0 ? static_cast<double>(row) : 0.0; break;  // sparse
                case 2: cell = static_cast<double>((row + col) % 200); break;                      // narrows to u8
                case 3: cell = row == col ? -1.5 : 0.0; break;                                     // very sparse
                default: cell = static_cast<double>(row) * 0.25 + static_cast<double>(col); break;
            }
        }
    }
    return values;
}

std::vector<std::byte> mixed_matrix(const std::vector<double>& values, unsigned encode_threads) {
    return write_to_memory([&](Writer& writer) {
        writer.set_encode_threads(encode_threads);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 256, 256});
    });
}

template <class T>
std::vector<T> read_window(std::span<const std::byte> bytes, unsigned threads, const Window& window,
                           std::uint64_t stride) {
    Reader reader = Reader::open_memory(bytes);
    reader.set_decode_threads(threads);
    EXPECT_EQ(reader.decode_threads(), threads);
    std::vector<T> out(window.rows * stride, T{});
    reader.read_dense_window(value_type_v<T>, window, out.data(), out.size(), stride);
    return out;
}

TEST(Parallel, ThreadedDenseReadsMatchOneThread) {
    const std::vector<double> values = mixed_values();
    const std::vector<std::byte> bytes = mixed_matrix(values, 1);
    std::set<BlockType> block_types;
    for (const BlockView& block : testing::blocks_of(bytes)) block_types.insert(block.block_type);
    EXPECT_EQ(block_types.size(), 4u) << "the matrix should hold empty, dense, CSR and COO blocks";

    const Window whole{0, 0, kRows, kCols};
    const std::vector<double> single = read_window<double>(bytes, 1, whole, kCols);
    EXPECT_EQ(bits_of(single), bits_of(values));
    for (const unsigned threads : {2u, 3u, 8u, 0u}) {
        EXPECT_EQ(bits_of(read_window<double>(bytes, threads, whole, kCols)), bits_of(values)) << threads;
    }
    // A window cutting through blocks, into a buffer with a wider row stride and a different type.
    const Window part{100, 250, 1000, 400};
    const std::vector<float> expected = read_window<float>(bytes, 1, part, 450);
    EXPECT_EQ(expected[0], static_cast<float>(values[100 * kCols + 250]));
    EXPECT_EQ(bits_of(read_window<float>(bytes, 2, part, 450)), bits_of(expected));
    EXPECT_EQ(bits_of(read_window<float>(bytes, 5, part, 450)), bits_of(expected));
}

// Values that do not fit the requested type sit in two late blocks: whichever thread fails first, the error is the
// one a single thread reports (the earlier block's), and nothing is left running.
TEST(Parallel, ThreadedReadReportsTheFirstFailure) {
    std::vector<std::int64_t> values(kRows * kCols, 1);
    values[(kRows - 1) * kCols + kCols - 1] = std::numeric_limits<std::int64_t>::max();
    values[1400 * kCols + 10] = std::numeric_limits<std::int64_t>::min();  // an earlier block
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::I64, kRows, kCols);
        writer.write_dense(ValueType::I64, values.data(), values.size(), 0, WriteOptions{Encoding::Dense, 128, 128});
    });
    auto message_with = [&](unsigned threads) {
        try {
            read_window<std::int32_t>(bytes, threads, Window{0, 0, kRows, kCols}, kCols);
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::Range);
            return std::string(error.what());
        }
        ADD_FAILURE() << "no range error with " << threads << " threads";
        return std::string();
    };
    const std::string single = message_with(1);
    EXPECT_NE(single.find("-9223372036854775808"), std::string::npos) << single;
    for (const unsigned threads : {2u, 4u, 16u}) EXPECT_EQ(message_with(threads), single);
}

TEST(Parallel, ThreadedFrameColumnsMatchOneThread) {
    constexpr std::uint64_t kFrameRows = 300000;
    std::vector<std::int16_t> small(kFrameRows);
    std::vector<double> large(kFrameRows);
    for (std::uint64_t row = 0; row < kFrameRows; ++row) {
        small[row] = static_cast<std::int16_t>(row % 30000 - 15000);
        large[row] = static_cast<double>(row) / 3.0;
    }
    const auto bytes = write_to_memory([&](Writer& writer) {
        writer.begin_frame(kFrameRows, {ValueType::I16, ValueType::F64}, {"small", "large"});
        writer.write_column(0, ValueType::I16, small.data(), small.size(), WriteOptions{Encoding::Auto, 20000, 0});
        writer.write_column(1, ValueType::F64, large.data(), large.size(), WriteOptions{Encoding::Auto, 20000, 0});
    });
    EXPECT_GT(testing::blocks_of(bytes).size(), 20u);
    for (const unsigned threads : {1u, 2u, 7u}) {
        EXPECT_EQ(read_window<std::int16_t>(bytes, threads, Window{0, 0, kFrameRows, 1}, 1), small) << threads;
        EXPECT_EQ(bits_of(read_window<double>(bytes, threads, Window{0, 1, kFrameRows, 1}, 1)), bits_of(large))
            << threads;
    }
}

TEST(Parallel, SeveralWindowsReadAsOneMatchTheirReadsOneByOne) {
    const std::vector<double> values = mixed_values();
    const auto bytes = mixed_matrix(values, 1);
    const std::vector<Window> windows{{0, 0, kRows, 1}, {10, 300, 700, 3}, {256, 0, 512, kCols}, {1499, 699, 1, 1}};
    std::vector<std::vector<double>> alone;
    for (const Window& window : windows) alone.push_back(read_window<double>(bytes, 1, window, window.cols));
    for (const unsigned threads : {1u, 2u, 5u}) {
        Reader reader = Reader::open_memory(bytes);
        reader.set_decode_threads(threads);
        std::vector<std::vector<double>> together;
        std::vector<DenseWindowRead> reads;
        for (const Window& window : windows) together.emplace_back(window.rows * window.cols, -7.0);
        for (std::size_t i = 0; i < windows.size(); ++i) {
            reads.push_back(DenseWindowRead{ValueType::F64, windows[i], together[i].data(), together[i].size(), 0});
        }
        reader.read_dense_windows(reads);
        for (std::size_t i = 0; i < windows.size(); ++i) EXPECT_EQ(bits_of(together[i]), bits_of(alone[i])) << i;
        // One read outside the object: refused before any value of the others is written.
        for (std::vector<double>& out : together) std::fill(out.begin(), out.end(), -7.0);
        reads.back().window = Window{kRows, 0, 1, 1};
        EXPECT_THROW(reader.read_dense_windows(reads), Error);
        EXPECT_EQ(together.front(), std::vector<double>(together.front().size(), -7.0)) << threads;
    }
}

TEST(Parallel, AnalysisOnSeveralThreadsWritesTheSameBytes) {
    const std::vector<double> values = mixed_values();
    const std::vector<std::byte> single = mixed_matrix(values, 1);
    EXPECT_EQ(mixed_matrix(values, 2), single);
    EXPECT_EQ(mixed_matrix(values, 3), single);
    EXPECT_EQ(mixed_matrix(values, 8), single);
    for (const Encoding encoding : {Encoding::Dense, Encoding::Csr, Encoding::Coo, Encoding::AsGiven}) {
        auto written = [&](unsigned threads) {
            return write_to_memory([&](Writer& writer) {
                writer.set_encode_threads(threads);
                writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
                writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{encoding, 300, 200});
            });
        };
        EXPECT_EQ(written(2), written(1)) << static_cast<int>(encoding);
        EXPECT_EQ(written(4), written(1)) << static_cast<int>(encoding);
    }
}

// A value the object's type cannot hold (rule 8) in a later tile: with the analysis on several threads the writer
// fails with the same error, having written the same tiles before it, and can be destroyed at once.
TEST(Parallel, ThreadedAnalysisFailureMatchesOneThread) {
    std::vector<std::int64_t> values(kRows * kCols, 7);
    values[1200 * kCols + 600] = std::int64_t{1} << 40;
    auto outcome = [&](unsigned threads) {
        Writer writer(std::make_unique<MemorySink>());
        writer.set_encode_threads(threads);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::I32, kRows, kCols);
        std::string message;
        try {
            writer.write_dense(ValueType::I64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 256, 256});
        } catch (const Error& error) {
            EXPECT_EQ(error.code(), ErrorCode::Range);
            message = error.what();
        }
        return std::make_pair(message, writer.bytes_written());
    };
    const auto single = outcome(1);
    EXPECT_NE(single.first.find("1099511627776"), std::string::npos) << single.first;
    EXPECT_NE(single.first.find("rule 8"), std::string::npos) << single.first;
    EXPECT_EQ(outcome(2), single);
    EXPECT_EQ(outcome(4), single);
}

// The sink refuses bytes while helper threads are analysing tiles ahead: the write fails with the sink's error
// and the helpers are stopped and joined.
TEST(Parallel, SinkFailureStopsTheHelperThreads) {
    const std::vector<double> values = mixed_values();
    std::size_t accepted = 0;
    Writer writer(std::make_unique<CallbackSink>([&](std::span<const std::byte> bytes) {
        accepted += bytes.size();
        return accepted < (std::size_t{1} << 20);
    }));
    writer.set_encode_threads(3);
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kRows, kCols);
    try {
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 64, 700});
        ADD_FAILURE() << "the sink's refusal was not reported";
    } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::Sink);
    }
    EXPECT_TRUE(writer.failed());
}

// An explicit thread count is a request, not an order: above detail::most_threads() (max(64, the processor count))
// no more threads start, however many pieces the work has, since each holds buffers in memory.
TEST(Parallel, ExplicitThreadCountsStopAtTheMostThreads) {
    const unsigned most = detail::most_threads();
    EXPECT_GE(most, detail::kMostThreadsAtLeast);
    EXPECT_GE(most, detail::usable_processors());
    constexpr std::uint64_t kLargeWork = std::uint64_t{1} << 40;
    const unsigned all = std::numeric_limits<unsigned>::max();
    EXPECT_EQ(detail::decode_threads(all, 1'000'000, kLargeWork), most);
    EXPECT_EQ(detail::encode_threads(all, 1'000'000, kLargeWork), most);
    EXPECT_EQ(detail::decode_threads(most + 1, 1'000'000, kLargeWork), most);
    EXPECT_EQ(detail::encode_threads(most + 1, 1'000'000, kLargeWork), most);
    // Below the cap, as asked, and never more than one per piece.
    EXPECT_EQ(detail::decode_threads(3, 1'000'000, kLargeWork), 3u);
    EXPECT_EQ(detail::encode_threads(3, 1'000'000, kLargeWork), 3u);
    EXPECT_EQ(detail::decode_threads(all, 5, kLargeWork), 5u);
    EXPECT_EQ(detail::encode_threads(all, 5, kLargeWork), 5u);
}

#if defined(__linux__)
// Automatic settings follow the processors the process may run on, not those online: pinned to one (taskset, a
// container's cpuset), a large read or write_dense uses the calling thread alone.
TEST(Parallel, AutomaticThreadCountsFollowTheAffinityMask) {
    cpu_set_t before;
    ASSERT_EQ(::sched_getaffinity(0, sizeof before, &before), 0);
    constexpr std::uint64_t kLargeWork = std::uint64_t{1} << 30;
    const unsigned allowed_before = static_cast<unsigned>(CPU_COUNT(&before));
    EXPECT_EQ(detail::usable_processors(), allowed_before);
    EXPECT_EQ(detail::decode_threads(0, 1000, kLargeWork), std::min(allowed_before, 8u));
    int first = 0;
    while (!CPU_ISSET(first, &before)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);  // this thread only; restored below
    const unsigned usable = detail::usable_processors();
    const unsigned decode = detail::decode_threads(0, 1000, kLargeWork);
    const unsigned encode = detail::encode_threads(0, 1000, kLargeWork);
    const unsigned explicit_setting = detail::encode_threads(3, 1000, kLargeWork);
    ASSERT_EQ(::sched_setaffinity(0, sizeof before, &before), 0);
    EXPECT_EQ(usable, 1u);
    EXPECT_EQ(decode, 1u);
    EXPECT_EQ(encode, 1u);
    EXPECT_EQ(explicit_setting, 3u);  // an explicit count is taken as asked, up to the cap
}
#endif

// The same through a whole-object read: a source that allows concurrent reads and takes a while per read sees no
// more distinct threads than the cap, where one thread per piece (hundreds here) would otherwise have started.
TEST(Parallel, AReadAskingForEveryThreadUsesAtMostTheCap) {
    constexpr std::uint64_t kTallRows = 4096;
    constexpr std::uint64_t kNarrowCols = 64;
    std::vector<double> values(kTallRows * kNarrowCols);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.5;
    // One block per 8 rows: 512 blocks, 512 pieces of decoding.
    const std::vector<std::byte> bytes = write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, kTallRows, kNarrowCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0,
                           WriteOptions{Encoding::Dense, 8, static_cast<std::uint32_t>(kNarrowCols)});
    });
    std::mutex seen_mutex;
    std::set<std::thread::id> seen;
    ReadAtSource source;
    source.size = bytes.size();
    source.concurrent_reads = true;
    source.read_at = [&](std::uint64_t offset, std::span<std::byte> destination) -> std::size_t {
        {
            const std::lock_guard lock(seen_mutex);
            seen.insert(std::this_thread::get_id());
        }
        // Long enough that every started thread gets pieces of its own before the others are done.
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        if (offset >= bytes.size()) return 0;
        const std::size_t count = std::min<std::size_t>(destination.size(), bytes.size() - offset);
        std::memcpy(destination.data(), bytes.data() + offset, count);
        return count;
    };
    Reader reader = Reader::open_source(std::move(source));
    reader.set_decode_threads(std::numeric_limits<unsigned>::max());
    std::vector<double> out(values.size());
    reader.read_dense_window(ValueType::F64, Window{0, 0, kTallRows, kNarrowCols}, out.data(), out.size(), kNarrowCols);
    EXPECT_EQ(bits_of(out), bits_of(values));
    EXPECT_LE(seen.size(), detail::most_threads());
    EXPECT_GE(seen.size(), 2u) << "the read should have run on several threads";
}

}  // namespace
}  // namespace dbdf
