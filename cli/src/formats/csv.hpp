// CSV: matrices as rows of numbers; frames with a header row of labels and per-column types, inferred or given
// with --schema name:type,... Inference is exact (number_text.hpp): a column is i64 when every value is an integer
// that fits it, u64 when they all fit that instead, f64 when they need a float and f64 holds each exactly; values
// no type holds all together are an error naming the line, column and value.
#pragma once

#include <string>

#include "tiling.hpp"

namespace dbdf_cli {

// --header: whether the first row holds labels. Auto: it does when --data-type frame or --schema is given, or
// when one of its fields is quoted or is not a number (dbdf quotes labels that read as numbers when it writes).
enum class CsvHeader { Auto, Yes, No };

CsvHeader parse_csv_header(const std::string& text);

void csv_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings,
                 const std::string& schema, CsvHeader header = CsvHeader::Auto);
void dbdf_to_csv(const std::string& input, const std::string& output, const OutputSettings& settings);

}  // namespace dbdf_cli
