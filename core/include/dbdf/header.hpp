// The object header: data type, shape, value type (matrices) or per-column value types and labels (frames).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dbdf/types.hpp"

namespace dbdf {

struct ObjectHeader {
    DataType data_type = DataType::DenseMatrix;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    ValueType value_type = ValueType::None;  // matrices; None for frames
    std::vector<ValueType> column_types;     // frames: one per column
    std::vector<std::string> labels;         // frames: one per column, bytes as stored
    // False when the file's labels cannot be recovered (daphne dialect frames store memory bytes instead of
    // the text); `labels` then holds the runtime's defaults col_0, col_1, ...
    bool labels_recoverable = true;

    // The declared type of the cells of column `column`: the column's type for frames, the value type else.
    ValueType type_of_column(std::uint64_t column) const {
        return data_type == DataType::Frame ? column_types[column] : value_type;
    }
};

// Parses the header at the start of `input` strictly (rules 6, 7, 16 and the spec's layout).
// Sets `header_bytes` to the header's size. Throws Error (Truncated, Format) naming field and offset.
// Never allocates more than the input can hold: per-column arrays are sized only after checking that the
// input has at least one byte per declared column.
ObjectHeader parse_header(std::span<const std::byte> input, std::size_t& header_bytes);

// Checks a header for writing (valid codes, frame columns and labels: length <= 65535, unique: rule 16).
// Throws Error(InvalidArgument).
void check_header_for_writing(const ObjectHeader& header);

// The encoded header.
std::vector<std::byte> encode_header(const ObjectHeader& header);

}  // namespace dbdf
