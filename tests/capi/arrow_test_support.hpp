// What the Arrow suites share: the golden vectors' bytes, and a stream released when it goes out of scope.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "dbdf.h"

namespace dbdf_test {

inline std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every valid golden vector (the top level of tests/vectors/; the invalid ones live in a subdirectory), sorted.
inline std::vector<std::filesystem::path> golden_vectors() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(DBDF_VECTORS_DIR)) {
        if (entry.path().extension() == ".dbdf") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// An exported stream, released at the end of the scope unless the test released it.
struct Stream {
    ArrowArrayStream stream{};
    Stream() = default;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() {
        if (stream.release != nullptr) stream.release(&stream);
    }
};

}  // namespace dbdf_test
