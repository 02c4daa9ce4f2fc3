#include "format_table.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "../handles.hpp"
#include "csv.hpp"
#include "futhark.hpp"
#include "mtx.hpp"
#include "npy.hpp"
#include "reencode.hpp"

namespace dbdf_cli {
namespace {

void dbdf_reencode(const Conversion& c) { dbdf_to_dbdf(c.input, c.output, c.settings); }
void npy_in(const Conversion& c) { npy_to_dbdf(c.input, c.output, c.settings); }
void npy_out(const Conversion& c) { dbdf_to_npy(c.input, c.output, c.settings); }
void mtx_in(const Conversion& c) { mtx_to_dbdf(c.input, c.output, c.settings); }
void mtx_out(const Conversion& c) { dbdf_to_mtx(c.input, c.output, c.settings); }
void csv_in(const Conversion& c) {
    csv_to_dbdf(c.input, c.output, c.settings, c.schema,
                c.header.empty() ? CsvHeader::Auto : parse_csv_header(c.header));
}
void csv_out(const Conversion& c) { dbdf_to_csv(c.input, c.output, c.settings); }
void futhark_in(const Conversion& c) { futhark_to_dbdf(c.input, c.output, c.settings); }
void futhark_out(const Conversion& c) {
    dbdf_to_futhark(c.input, c.output, c.settings, FutharkOutputOptions{c.densify, c.bool_elements});
}

constexpr std::array<std::string_view, 1> kDbdfExtensions{".dbdf"};
constexpr std::array<std::string_view, 2> kDbdfInputOptions{"--dialect", "--dialect-in"};
constexpr std::array<std::string_view, 5> kDbdfOutputOptions{"--dialect-out", "--encoding", "--block", "--data-type",
                                                             "--no-meta"};
constexpr std::array<std::string_view, 1> kNpyExtensions{".npy"};
constexpr std::array<std::string_view, 1> kMtxExtensions{".mtx"};
constexpr std::array<std::string_view, 1> kCsvExtensions{".csv"};
constexpr std::array<std::string_view, 2> kCsvInputOptions{"--schema", "--header"};
constexpr std::array<std::string_view, 2> kFutharkOutputOptions{"--densify", "--bool"};

const std::array<ConversionFormat, 5> kFormats{{
    {"dbdf", kDbdfExtensions, "the DAPHNE binary data format, either dialect", dbdf_reencode, dbdf_reencode,
     kDbdfInputOptions, kDbdfOutputOptions, true},
    {"npy", kNpyExtensions, "NumPy arrays (1-D and 2-D, versions 1.0 to 3.0)", npy_in, npy_out, {}, {}, false},
    {"mtx", kMtxExtensions, "Matrix Market (coordinate and array)", mtx_in, mtx_out, {}, {}, false},
    {"csv",
     kCsvExtensions,
     "comma-separated values (a header row of labels makes a frame)",
     csv_in,
     csv_out,
     kCsvInputOptions,
     {},
     true},
    {"futhark",
     {},
     "Futhark binary data (ranks 0 to 2; several values: a frame)",
     futhark_in,
     futhark_out,
     {},
     kFutharkOutputOptions,
     false},
}};

std::string lower_case(std::string_view text) {
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lowered;
}

std::string joined(std::span<const std::string_view> words, std::string_view separator) {
    std::string text;
    for (std::string_view word : words) {
        if (!text.empty()) text += separator;
        text += word;
    }
    return text;
}

}  // namespace

std::span<const ConversionFormat> conversion_formats() { return kFormats; }

const ConversionFormat* format_named(std::string_view name) {
    for (const ConversionFormat& format : kFormats) {
        if (format.name == name) return &format;
    }
    return nullptr;
}

const ConversionFormat* format_of_path(std::string_view path) {
    const std::string lowered = lower_case(path);
    for (const ConversionFormat& format : kFormats) {
        for (std::string_view extension : format.extensions) {
            if (lowered.ends_with(extension)) return &format;
        }
    }
    return nullptr;
}

const ConversionFormat& dbdf_format() { return kFormats[0]; }

std::string format_names() {
    std::string text;
    for (const ConversionFormat& format : kFormats) text += (text.empty() ? "" : ", ") + std::string(format.name);
    return text;
}

std::string usual_extensions() {
    std::string text;
    for (const ConversionFormat& format : kFormats) {
        if (!format.extensions.empty()) text += (text.empty() ? "" : ", ") + std::string(format.extensions[0]);
    }
    return text;
}

std::string other_formats_extensions() {
    std::string text;
    for (const ConversionFormat& format : kFormats) {
        if (&format != &dbdf_format()) text += (text.empty() ? "" : ", ") + usual_name(format);
    }
    return text;
}

std::string usual_name(const ConversionFormat& format) {
    return format.extensions.empty() ? "--from/--to " + std::string(format.name) : std::string(format.extensions[0]);
}

std::string formats_help() {
    std::string text = "Formats (by extension, or --from/--to; one side must be dbdf):\n";
    for (const ConversionFormat& format : kFormats) {
        text += fmt::format("  {:<7} {:<7} {}\n", format.name, joined(format.extensions, " "), format.description);
        if (!format.input_options.empty()) {
            text += fmt::format("{:18}input options: {}\n", "", joined(format.input_options, " "));
        }
        if (!format.output_options.empty()) {
            text += fmt::format("{:18}output options: {}\n", "", joined(format.output_options, " "));
        }
    }
    return text;
}

void require_dbdf_side(const ConversionFormat& from, const ConversionFormat& to, const std::string& input,
                       const std::string& output) {
    if (&from != &dbdf_format() && &to != &dbdf_format()) {
        throw CliError(fmt::format("{} ({}) to {} ({}): one side of a conversion must be .dbdf", input, from.name,
                                   output, to.name));
    }
}

void run_conversion(const ConversionFormat& from, const ConversionFormat& to, const Conversion& conversion) {
    require_dbdf_side(from, to, conversion.input, conversion.output);
    if (&from == &dbdf_format())
        to.from_dbdf(conversion);
    else
        from.to_dbdf(conversion);
}

}  // namespace dbdf_cli
