// Matrix Market (.mtx): coordinate and array formats; real, integer and pattern fields; general, symmetric and
// skew-symmetric matrices on input. Coordinate entries may come in any order, so they are sorted in memory.
#pragma once

#include <string>

#include "tiling.hpp"

namespace dbdf_cli {

void mtx_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings);
// CSR matrices become coordinate files, dense matrices array files (column-major, as the format requires).
void dbdf_to_mtx(const std::string& input, const std::string& output, const OutputSettings& settings);

}  // namespace dbdf_cli
