// Beginning the output object of a conversion: data type and value type from the settings or the input.
#pragma once

#include <string>
#include <vector>

#include "../handles.hpp"
#include "tiling.hpp"

namespace dbdf_cli {

// The output's data type: --data-type, else the input's; a daphne scalar stays a scalar in a daphne output and
// becomes a 1 x 1 dense matrix in a spec one.
int output_data_type(const OutputSettings& settings, int input_data_type = DBDF_DATA_DENSE);

// `settings` with the output's data type filled in, which tile_shape needs to band a daphne dense matrix.
OutputSettings with_output_data_type(const OutputSettings& settings, int input_data_type = DBDF_DATA_DENSE);

// Begins a matrix (dense unless --data-type says csr; a daphne scalar input stays a scalar in a daphne output and
// becomes a 1 x 1 dense matrix in a spec one) or, with --data-type frame, a frame whose columns are
// labelled col_0, col_1, ... (or `labels`) and typed `value_type` (or `column_types`).
void begin_output(const Writer& writer, const std::string& output, const OutputSettings& settings, std::uint64_t rows,
                  std::uint64_t cols, dbdf_value_type_t input_type, int input_data_type = DBDF_DATA_DENSE,
                  const std::vector<std::string>& labels = {}, const std::vector<dbdf_value_type_t>& column_types = {});

}  // namespace dbdf_cli
