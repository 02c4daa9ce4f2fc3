// The formats `dbdf convert` reads and writes, one row each: its name, the extensions that name it, its converters
// and the options that apply when it is the input or the output. A new format is one file of converters and one row
// in format_table.cpp; the convert command, its --help and the fuzz targets take the formats from here.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "tiling.hpp"

namespace dbdf_cli {

// One conversion as the command line asks for it: the files, the output settings and the options only some
// formats read.
struct Conversion {
    std::string input;
    std::string output;
    OutputSettings settings;
    std::string schema;          // --schema (.csv input)
    std::string header;          // --header (.csv input): yes, no or auto; empty: auto
    bool densify = false;        // --densify (Futhark output): a CSR input written as dense arrays
    bool bool_elements = false;  // --bool (Futhark output): u8 values written as bool
};

// Reads conversion.input and writes conversion.output; throws CliError.
using Converter = void (*)(const Conversion& conversion);

struct ConversionFormat {
    std::string_view name;                             // as --from and --to take it
    std::span<const std::string_view> extensions;      // with the dot, lower case; the first is the usual one; none
                                                       // for a format without a standard one (--from/--to name it)
    std::string_view description;                      // one line for --help
    Converter to_dbdf;                                 // this format to .dbdf (for .dbdf itself: re-encoding)
    Converter from_dbdf;                               // .dbdf to this format
    std::span<const std::string_view> input_options;   // options that apply when the input is of this format
    std::span<const std::string_view> output_options;  // options that apply when the output is of this format
    bool keeps_labels;  // whether its files hold a frame's labels (the tool notes made-up ones it writes there)
};

// Every format, .dbdf first.
std::span<const ConversionFormat> conversion_formats();

// The format called `name`, or nullptr.
const ConversionFormat* format_named(std::string_view name);

// The format whose extension ends `path` (compared without regard to case), or nullptr.
const ConversionFormat* format_of_path(std::string_view path);

// The .dbdf row.
const ConversionFormat& dbdf_format();

// "dbdf, npy, mtx, csv": the names, for messages and help.
std::string format_names();

// ".dbdf, .npy, .mtx, .csv": every format's usual extension (formats without one are left out).
std::string usual_extensions();

// ".npy, .mtx, .csv": the usual extensions of the formats other than .dbdf.
std::string other_formats_extensions();

// The usual extension of `format`, or for a format without one "--from/--to NAME": for messages.
std::string usual_name(const ConversionFormat& format);

// The formats as `dbdf convert --help` lists them: per row its name, extensions, what it is and its options.
std::string formats_help();

// Throws CliError unless `from` or `to` is .dbdf: every conversion goes to or from it.
void require_dbdf_side(const ConversionFormat& from, const ConversionFormat& to, const std::string& input,
                       const std::string& output);

// Runs the conversion between `from` and `to`, one of which is .dbdf: the input's to_dbdf, or for a .dbdf input
// the output's from_dbdf.
void run_conversion(const ConversionFormat& from, const ConversionFormat& to, const Conversion& conversion);

}  // namespace dbdf_cli
