// NumPy .npy files (format versions 1.0, 2.0, 3.0): 1-D and 2-D arrays of the ten numeric types.
#pragma once

#include <cstdint>
#include <string>

#include "../handles.hpp"
#include "npy_header.hpp"
#include "tiling.hpp"

namespace dbdf_cli {

// The header bytes (magic, version, length, dict, padding) for a C-order little-endian 2-D array.
std::string npy_header_bytes(dbdf_value_type_t type, std::uint64_t rows, std::uint64_t cols);

void npy_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings);
void dbdf_to_npy(const std::string& input, const std::string& output, const OutputSettings& settings);

}  // namespace dbdf_cli
