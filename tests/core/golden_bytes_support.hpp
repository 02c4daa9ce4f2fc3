// Shared by the golden-bytes suites: the committed files of tests/vectors/ and what dbdf::Writer produces, both
// as plain bytes to compare with bytes written out by hand from the spec's layout tables.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "dbdf/writer.hpp"
#include "test_support.hpp"

namespace dbdf::golden {

using Octets = std::vector<std::uint8_t>;

inline Octets file_octets(const std::string& name) {
    std::ifstream file(std::string(DBDF_VECTORS_DIR) + "/" + name, std::ios::binary);
    return Octets(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

inline Octets written(const std::function<void(Writer&)>& build) {
    const auto bytes = testing::write_to_memory(build);
    Octets octets(bytes.size());
    if (!bytes.empty()) std::memcpy(octets.data(), bytes.data(), bytes.size());
    return octets;
}

// Blocks stored with the block type and value type they are given, as the golden files store them.
inline const WriteOptions kAsGiven{Encoding::AsGiven, 0, 0};

}  // namespace dbdf::golden
