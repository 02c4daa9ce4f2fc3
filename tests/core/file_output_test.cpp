// FileOutput: payloads whose copy into the page cache would alias go through a staging buffer (file_output.cpp);
// the bytes in the file are the same whichever way a payload went, at every distance and for payloads that end
// inside a staging piece.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "file_output.hpp"

namespace dbdf::detail {
namespace {

namespace fs = std::filesystem;

TEST(FileOutput, StagesExactlyTheDistancesAtWhichTheKernelsCopyAliases) {
    alignas(4096) static std::byte page[2 * 4096];
    for (std::uint64_t distance = 0; distance < 4096; ++distance) {
        const bool expected = distance >= 1 && distance <= 31;
        // The distance is the file offset minus the source's address, modulo 4096.
        EXPECT_EQ(FileOutput::staged(distance, page), expected) << distance;
        EXPECT_EQ(FileOutput::staged(5 * 4096 + 100, page + (100 - distance + 4096) % 4096), expected) << distance;
    }
}

TEST(FileOutput, StagedPiecesLieWhereBothCopiesRunFast) {
    alignas(4096) static std::byte buffer[2 * 4096];
    for (const std::uint64_t file_offset :
         {std::uint64_t{45}, std::uint64_t{4096}, std::uint64_t{19 + 26 + 4095}, (std::uint64_t{1} << 32) + 77}) {
        for (const std::size_t misalignment : {std::size_t{0}, std::size_t{16}, std::size_t{4095}}) {
            const std::byte* const base = buffer + misalignment;
            const std::size_t shift = FileOutput::staging_shift(file_offset, base);
            EXPECT_LT(shift, 4096u);
            // The kernel's copy out of the buffer runs at a distance that is a multiple of 32 (2048).
            const std::uintptr_t kernel_distance =
                (static_cast<std::uintptr_t>(file_offset) - reinterpret_cast<std::uintptr_t>(base + shift)) % 4096;
            EXPECT_EQ(kernel_distance, FileOutput::kStagingDistance) << file_offset << " " << misalignment;
            // A staged payload lies 1 to 31 bytes before its file offset: our copy into the buffer then runs
            // 2049 to 2079 bytes ahead, far from aliasing.
            for (const std::uintptr_t payload_distance : {std::uintptr_t{1}, std::uintptr_t{29}, std::uintptr_t{31}}) {
                const std::uintptr_t source = static_cast<std::uintptr_t>(file_offset) - payload_distance;
                const std::uintptr_t copy_distance = (reinterpret_cast<std::uintptr_t>(base + shift) - source) % 4096;
                EXPECT_EQ(copy_distance, 4096 - FileOutput::kStagingDistance + payload_distance);
            }
        }
    }
}

TEST(FileOutput, StagedAndDirectPayloadsLeaveTheSameBytes) {
    const fs::path path = fs::temp_directory_path() / ("dbdf-file-output-" + std::to_string(::getpid()));
    // Payloads of a staging piece and a bit, and of several pieces: the last piece is shorter than the others.
    const std::size_t payload_bytes = 2 * FileOutput::kStagingBytes + 4096 + 13;
    std::vector<std::byte> memory(payload_bytes + 2 * 4096);
    for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<std::byte>(i * 131 + i / 4096);
    const auto page_start = [&] {
        const auto address = reinterpret_cast<std::uintptr_t>(memory.data());
        return memory.data() + (4096 - address % 4096) % 4096;
    }();
    const std::string file_header(19, 'h');
    const std::string record_header(26, 'r');
    int staged_cases = 0;
    // Source offsets that put the payload (at file offset 45) at distances 45, 29 (a NumPy array's first block),
    // 1, 31, 32 and 0.
    for (const std::size_t source_offset : {0u, 16u, 44u, 14u, 13u, 45u}) {
        SCOPED_TRACE(source_offset);
        const std::byte* payload = page_start + source_offset;
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        ASSERT_GE(fd, 0);
        {
            FileOutput output(fd, path);
            output.append({}, std::as_bytes(std::span(file_header.data(), file_header.size())));
            staged_cases += FileOutput::staged(file_header.size() + record_header.size(), payload) ? 1 : 0;
            output.append(std::as_bytes(std::span(record_header.data(), record_header.size())),
                          std::span(payload, payload_bytes));
            output.append({}, std::span(payload, 100));  // small: always direct
        }
        ASSERT_EQ(::close(fd), 0);
        std::ifstream in(path, std::ios::binary);
        const std::string written{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        std::string expected = file_header + record_header;
        expected.append(reinterpret_cast<const char*>(payload), payload_bytes);
        expected.append(reinterpret_cast<const char*>(payload), 100);
        ASSERT_EQ(written.size(), expected.size());
        EXPECT_TRUE(written == expected);
    }
    EXPECT_EQ(staged_cases, 3);  // distances 29, 1 and 31
    fs::remove(path);
}

}  // namespace
}  // namespace dbdf::detail
