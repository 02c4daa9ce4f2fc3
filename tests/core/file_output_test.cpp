// FileOutput: a record header and its payload appended by one writev() leave their bytes in the file, whatever the
// payload's distance to its file offset and its size.
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

TEST(FileOutput, PayloadsLeaveTheirBytesAtEveryDistance) {
    const fs::path path = fs::temp_directory_path() / ("dbdf-file-output-" + std::to_string(::getpid()));
    // A payload of several pages and a bit.
    const std::size_t payload_bytes = std::size_t{512} << 10 | 4109;
    std::vector<std::byte> memory(payload_bytes + 2 * 4096);
    for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<std::byte>(i * 131 + i / 4096);
    const auto page_start = [&] {
        const auto address = reinterpret_cast<std::uintptr_t>(memory.data());
        return memory.data() + (4096 - address % 4096) % 4096;
    }();
    const std::string file_header(19, 'h');
    const std::string record_header(26, 'r');
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
            output.append(std::as_bytes(std::span(record_header.data(), record_header.size())),
                          std::span(payload, payload_bytes));
            output.append({}, std::span(payload, 100));
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
    fs::remove(path);
}

}  // namespace
}  // namespace dbdf::detail
