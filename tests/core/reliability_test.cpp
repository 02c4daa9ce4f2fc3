// Hostile conditions: readers on different handles in parallel threads, absurd size claims under a small
// address-space limit, and a writer killed in the middle of a write.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"
#include "dbdf/writer.hpp"
#include "test_support.hpp"
#include "sanitizer_detection.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;
using testing::Bytes;

TEST(Reliability, ReadersOnDifferentHandlesRunConcurrently) {
    std::vector<double> values(300 * 200);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = (i % 7 == 0) ? 0.0 : static_cast<double>(i) * 0.25;
    const auto bytes = testing::write_to_memory([&](Writer& writer) {
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 300, 200);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{Encoding::Auto, 64, 64});
    });
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int thread = 0; thread < 4; ++thread) {
        threads.emplace_back([&] {
            for (int round = 0; round < 5; ++round) {
                Reader reader = Reader::open_memory(bytes);  // one handle per thread, shared input bytes
                std::vector<double> out(values.size());
                reader.read_dense_window(ValueType::F64, Window{0, 0, 300, 200}, out.data(), out.size(), 0);
                if (out != values) ++mismatches;
                std::uint64_t blocks = 0;
                while (reader.next_block()) ++blocks;
                if (blocks != 20) ++mismatches;  // 5 x 4 tiles of 64 x 64 (ragged)
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(mismatches.load(), 0);
}

// Runs `body` in a child process limited to `address_space` bytes; returns the child's exit code.
int run_limited(std::uint64_t address_space, const std::function<int()>& body) {
    const pid_t child = ::fork();
    if (child == 0) {
        const rlimit limit{address_space, address_space};
        ::setrlimit(RLIMIT_AS, &limit);
        int status = 99;
        try {
            status = body();
        } catch (...) {
            status = 98;
        }
        ::_exit(status);
    }
    int status = -1;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Reliability, AbsurdSizeClaimsFailFastUnderASixtyFourMebibyteLimit) {
#ifdef DBDF_TEST_UNDER_SANITIZER
    GTEST_SKIP() << "sanitizer runtimes reserve more address space than the limit allows";
#endif
    const Bytes huge_rows = Bytes().matrix(1, std::uint64_t{1} << 63, 1, 10).block(0, 0, 1, 1, 0);
    const Bytes huge_csr = Bytes()
                               .matrix(2, ~0ull, ~0ull, 10)
                               .block(0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 2)
                               .u8(10)
                               .u64(~0ull);  // 2^64 - 1 non-zeros
    Bytes huge_frame = Bytes().u8(1).u8(3).u64(1).u64(std::uint64_t{1} << 63);
    while (huge_frame.size() < 40) huge_frame.u8(10);
    const int code = run_limited(std::uint64_t{64} << 20, [&] {
        int failures = 0;
        for (const Bytes* input : {&huge_rows, &huge_csr}) {
            try {
                Reader reader = Reader::open_memory(input->span());
                reader.validate({});
                reader.build_index();
            } catch (const Error& error) {
                failures += error.code() == ErrorCode::Format || error.code() == ErrorCode::Truncated ? 1 : 0;
            }
        }
        try {
            Reader::open_memory(huge_frame.span());
        } catch (const Error& error) {
            failures += error.code() == ErrorCode::Truncated ? 1 : 0;
        }
        return failures == 3 ? 0 : 1;
    });
    EXPECT_EQ(code, 0) << "98 means an allocation failed under the limit";
}

std::vector<char> contents(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(Reliability, WriterKilledMidWriteLeavesThePreviousFileIntact) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf_kill_test_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path target = directory / "data.dbdf";
    std::ofstream(target, std::ios::binary) << "the previous version";
    const auto before = contents(target);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Writes blocks forever; the parent kills it once the temporary file has grown.
        Writer writer(make_file_sink(target));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, std::uint64_t{1} << 40, 1024);
        std::vector<double> row(1024 * 64, 1.5);
        for (std::uint64_t r = 0;; r += 64) {
            writer.add_dense({r, 0, 64, 1024}, ValueType::F64, row.data(), row.size(), 0,
                             WriteOptions{Encoding::Dense});
        }
    }
    // The temporary file may have no name (O_TMPFILE): it is found among the child's open descriptors.
    const fs::path descriptors = fs::path("/proc") / std::to_string(child) / "fd";
    bool grew = false;
    for (int attempt = 0; attempt < 500 && !grew; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(descriptors, error)) {
            const std::string file = fs::read_symlink(entry.path(), error).string();
            if (error || file.rfind(directory.string() + "/", 0) != 0) continue;
            if (fs::file_size(entry.path(), error) > (std::uint64_t{8} << 20) && !error) grew = true;
        }
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(grew) << "the writer never got going";
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(contents(target), before);
    // The killed process could not clean up: an unnamed temporary file vanished with it; a named one is the only
    // other entry, recognisably named, and the next write to the target removes it (its process is gone).
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.path() != target) {
            EXPECT_EQ(entry.path().filename().string().rfind(".data.dbdf.dbdf-", 0), 0u) << entry.path();
        }
    }
    {
        Writer writer(make_file_sink(target));
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 0, 0);
        writer.finish();
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(directory), fs::directory_iterator()), 1);
    fs::remove_all(directory);
}

}  // namespace
}  // namespace dbdf
