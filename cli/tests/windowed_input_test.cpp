// The read window of converted inputs (cli/src/formats/windowed_input.*): bytes come back as the file holds them
// wherever they are asked for, a first small read (a .npy header) reads a few KiB and not a whole window, and
// reads that walk through the file take one system call per window as the window grows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/windowed_input.hpp"
#include "handles.hpp"

namespace {

using namespace dbdf_cli;
namespace fs = std::filesystem;

// This process's read counters from /proc/self/io: bytes read and read calls made, whatever the file.
struct ReadCounters {
    std::uint64_t bytes = 0;
    std::uint64_t calls = 0;
};

ReadCounters read_counters() {
    std::ifstream io("/proc/self/io");
    ReadCounters counters;
    std::string key;
    std::uint64_t value = 0;
    while (io >> key >> value) {
        if (key == "rchar:") counters.bytes = value;
        if (key == "syscr:") counters.calls = value;
    }
    return counters;
}

// A file of `size` bytes, byte i holding (i * 7 + i / 251) mod 256: no two windows alike.
fs::path patterned_file(const std::string& name, std::size_t size) {
    const fs::path path = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::vector<char> bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 7 + i / 251) & 0xFF);
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

// What `work` reads, apart from what reading the counters themselves reads (measured by reading them twice).
template <class Work>
ReadCounters reads_during(Work&& work) {
    const ReadCounters first = read_counters();
    const ReadCounters second = read_counters();
    work();
    const ReadCounters third = read_counters();
    const ReadCounters own{second.bytes - first.bytes, second.calls - first.calls};
    return ReadCounters{third.bytes - second.bytes - own.bytes, third.calls - second.calls - own.calls};
}

std::uint8_t expected_byte(std::uint64_t offset) {
    return static_cast<std::uint8_t>((offset * 7 + offset / 251) & 0xFF);
}

}  // namespace

TEST(WindowedInput, AHeaderReadReadsAFirstWindowOfAFewKiB) {
    const fs::path path = patterned_file("windowed-header", std::size_t{12} << 20);
    WindowedInput input(path.string());
    const std::uint8_t* header = nullptr;
    const ReadCounters read = reads_during([&] { header = input.bytes(0, 12); });
    for (std::uint64_t i = 0; i < 12; ++i) EXPECT_EQ(header[i], expected_byte(i)) << i;
    EXPECT_EQ(read.bytes, WindowedInput::kFirstWindowBytes);
    EXPECT_EQ(read.calls, 1u);
    fs::remove(path);
}

TEST(WindowedInput, AWalkThroughTheFileReadsWindowsThatGrowToTheirLargest) {
    constexpr std::size_t kFileBytes = std::size_t{12} << 20;
    const fs::path path = patterned_file("windowed-walk", kFileBytes);
    WindowedInput input(path.string());
    constexpr std::size_t kStep = 4093;  // odd, so reads straddle the windows' ends
    constexpr std::size_t kCount = 100;
    const ReadCounters read = reads_during([&] {
        for (std::uint64_t offset = 0; offset + kCount <= kFileBytes; offset += kStep) {
            const std::uint8_t* bytes = input.bytes(offset, kCount);
            ASSERT_EQ(bytes[0], expected_byte(offset)) << offset;
            ASSERT_EQ(bytes[kCount - 1], expected_byte(offset + kCount - 1)) << offset;
        }
    });
    // 64 KiB, 128 KiB, ... 2 MiB (6 windows, about 4 MiB), then windows of 4 MiB for the rest: 9 calls, each
    // window starting where a read crossed the end of the one before.
    EXPECT_EQ(read.calls, 9u);
    EXPECT_LT(read.bytes, kFileBytes + kFileBytes / 8);
    EXPECT_GE(read.bytes, kFileBytes - 9 * kStep);  // a window starts at the read that left the one before
    fs::remove(path);
}

TEST(WindowedInput, ReadsPastTheEndAreRefusedWithTheFileNamed) {
    const fs::path path = patterned_file("windowed-end", 1000);
    WindowedInput input(path.string());
    EXPECT_EQ(input.bytes(990, 10)[9], expected_byte(999));
    try {
        input.bytes(995, 10);
        ADD_FAILURE() << "a read past the end was not refused";
    } catch (const CliError& error) {
        EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
    }
    fs::remove(path);
}
