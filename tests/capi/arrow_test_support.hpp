// What the Arrow suites share: the golden vectors' bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

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

}  // namespace dbdf_test
