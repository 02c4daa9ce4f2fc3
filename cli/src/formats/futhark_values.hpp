// The values of a Futhark binary data file (../../docs and the Futhark documentation's "Binary Data Format"): each is
// 'b', version 2, a rank byte, a four-character type ("  i8" ... " f64", " f16", "bool"), one unsigned 64-bit
// little-endian length per dimension, then the elements row-major, little-endian. A file may hold several values,
// with whitespace before each.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../handles.hpp"
#include "windowed_input.hpp"

namespace dbdf_cli {

// A Futhark element type: its name in the file, its width, and the dbdf value type it is read into (f16 into f32,
// bool into u8).
struct FutharkElement {
    std::string_view name;  // the four bytes of the file, e.g. " f16"
    std::size_t width = 0;
    dbdf_value_type_t value_type = DBDF_VALUE_NONE;
    bool is_f16 = false;
    bool is_bool = false;
};

// The element a dbdf value type is written as (bool: u8 values written as Futhark bool).
const FutharkElement& futhark_element_of(dbdf_value_type_t type, bool as_bool = false);

struct FutharkValue {
    std::uint64_t offset = 0;  // of its 'b'
    unsigned rank = 0;         // 0, 1 or 2: others are refused while reading
    const FutharkElement* element = nullptr;
    std::uint64_t rows = 1;  // rank 0: 1 x 1, rank 1: n x 1, rank 2: the two lengths
    std::uint64_t cols = 1;
    std::uint64_t data_offset = 0;  // of its first element
};

// Every value of the file, checked against the file's size before anything is read or allocated from a length
// (the values' data must all be there). Throws CliError (exit 1) naming the value, its byte offset and what is wrong:
// no 'b', a version other than 2, a rank above 2, an unknown type, a truncated shape or data, bytes after the last
// value that are not whitespace, a file without a value; and, in a file of several values (which become a frame's
// columns), the first value that is not of rank 1 or whose length differs from the first's.
std::vector<FutharkValue> read_futhark_values(WindowedInput& file);

// The f32 whose value is the IEEE binary16 `bits` (every f16 value is exactly an f32; NaN payloads are kept).
float f16_to_f32(std::uint16_t bits);

// The header of a value: 'b', 2, rank, type, lengths.
std::string futhark_value_header(const FutharkElement& element, unsigned rank, std::uint64_t rows, std::uint64_t cols);

}  // namespace dbdf_cli
