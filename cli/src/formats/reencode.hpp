// .dbdf to .dbdf: re-tiling, re-encoding, changing the value type (exactly) or the data type.
#pragma once

#include <string>

#include "tiling.hpp"

namespace dbdf_cli {

void dbdf_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings);

}  // namespace dbdf_cli
