// Futhark's binary data format, both ways. A value of rank 0, 1 or 2 is a 1 x 1, n x 1 or r x c matrix; the element
// types are dbdf's value types one to one, f16 read exactly into f32 and bool into u8; a file of several values is a
// frame of rank-1 columns of one length. cli/README.md gives the whole mapping.
#pragma once

#include <string>

#include "tiling.hpp"

namespace dbdf_cli {

// What a Futhark output is asked for beyond the output settings.
struct FutharkOutputOptions {
    bool densify = false;        // --densify: a CSR input is written as dense arrays (otherwise refused)
    bool bool_elements = false;  // --bool: u8 values (each 0 or 1) written as Futhark bool
};

void futhark_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings);
void dbdf_to_futhark(const std::string& input, const std::string& output, const OutputSettings& settings,
                     const FutharkOutputOptions& options);

}  // namespace dbdf_cli
