// CSV: matrices as rows of numbers; frames with a header row of labels and per-column types, inferred (i64 when
// every value of the column is an integer, else f64) or given with --schema name:type,...
#pragma once

#include <string>

#include "tiling.hpp"

namespace dbdf_cli {

void csv_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings,
                 const std::string& schema);
void dbdf_to_csv(const std::string& input, const std::string& output, const OutputSettings& settings);

}  // namespace dbdf_cli
