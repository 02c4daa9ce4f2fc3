// dbdf convert IN OUT: between .dbdf and the other formats of the format table, and .dbdf to .dbdf, streamed where
// the formats allow.
#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "../formats/format_table.hpp"
#include "../handles.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

const ConversionFormat& format_of(const std::string& explicit_format, const char* option, const std::string& path) {
    if (!explicit_format.empty()) {
        if (const ConversionFormat* format = format_named(explicit_format)) return *format;
        throw CliError(fmt::format("{} {}: unknown format (one of {})", option, explicit_format, format_names()));
    }
    // "-" has no extension to tell the format by, and the tool does not guess it from the bytes.
    if (is_standard_stream(path)) {
        throw CliError(fmt::format("-: {} has no name to tell its format by: give {} FORMAT (one of {})",
                                   option == std::string_view("--from") ? "standard input" : "standard output", option,
                                   format_names()));
    }
    if (const ConversionFormat* format = format_of_path(path)) return *format;
    throw CliError(fmt::format("{}: cannot tell the format (use {} or --from/--to)", path, usual_extensions()));
}

OutputSettings settings_of(const ConvertOptions& options) {
    OutputSettings settings;
    const std::string& encoding = options.encoding;
    if (encoding == "auto")
        settings.options.encoding = DBDF_ENCODING_AUTO;
    else if (encoding == "dense")
        settings.options.encoding = DBDF_ENCODING_DENSE;
    else if (encoding == "csr")
        settings.options.encoding = DBDF_ENCODING_CSR;
    else if (encoding == "coo")
        settings.options.encoding = DBDF_ENCODING_COO;
    else if (encoding == "as-is")
        settings.keep_blocks = true;
    else
        throw CliError("--encoding must be auto, dense, csr, coo or as-is");
    if (!options.block.empty()) {
        unsigned long long rows = 0, cols = 0;
        char separator = 0;
        if (std::sscanf(options.block.c_str(), "%llu%c%llu", &rows, &separator, &cols) != 3 || separator != 'x' ||
            rows == 0 || cols == 0 || rows > 0xFFFFFFFFull || cols > 0xFFFFFFFFull) {
            throw CliError("--block must be ROWSxCOLS with both between 1 and 4294967295");
        }
        settings.options.block_rows = static_cast<std::uint32_t>(rows);
        settings.options.block_cols = static_cast<std::uint32_t>(cols);
    }
    if (!options.value_type.empty()) settings.value_type = parse_value_type(options.value_type);
    if (options.data_type == "dense")
        settings.data_type = DBDF_DATA_DENSE;
    else if (options.data_type == "csr")
        settings.data_type = DBDF_DATA_CSR;
    else if (options.data_type == "frame")
        settings.data_type = DBDF_DATA_FRAME;
    else if (!options.data_type.empty())
        throw CliError("--data-type must be dense, csr or frame");
    if (!options.dialect.empty() && !options.dialect_in.empty())
        throw CliError("give --dialect or --dialect-in, not both");
    const std::string input_dialect = !options.dialect_in.empty() ? options.dialect_in : options.dialect;
    const std::string& output_dialect = options.dialect_out;
    if (!input_dialect.empty()) settings.input_dialect = parse_dialect(input_dialect);
    if (!output_dialect.empty()) settings.output_dialect = parse_dialect(output_dialect);
    settings.write_meta = !options.no_meta;
    if (settings.output_dialect == DBDF_DIALECT_DAPHNE && !options.block.empty()) {
        throw CliError("--block does not apply to daphne output: the daphne dialect stores one block per object");
    }
    if (settings.keep_blocks && (!options.block.empty() || settings.data_type == DBDF_DATA_FRAME)) {
        throw CliError("--encoding as-is keeps the blocks: it cannot be combined with --block or a change to a frame");
    }
    return settings;
}

// The formats' options given on the command line (options every format takes, such as --value-type, are not here).
std::vector<std::pair<std::string_view, bool>> format_options_given(const ConvertOptions& options) {
    return {{"--dialect", !options.dialect.empty()},
            {"--dialect-in", !options.dialect_in.empty()},
            {"--schema", !options.schema.empty()},
            {"--header", !options.header.empty()},
            {"--dialect-out", !options.dialect_out.empty()},
            {"--encoding", options.encoding != "auto"},
            {"--block", !options.block.empty()},
            {"--data-type", !options.data_type.empty()},
            {"--no-meta", options.no_meta},
            {"--densify", options.densify},
            {"--bool", options.bool_elements}};
}

bool lists(std::span<const std::string_view> options, std::string_view option) {
    return std::find(options.begin(), options.end(), option) != options.end();
}

// "the .dbdf inputs" for an option of the input side: the usual extensions of the formats that take it there.
std::string formats_taking(std::string_view option, bool input_side) {
    std::string text;
    for (const ConversionFormat& format : conversion_formats()) {
        if (lists(input_side ? format.input_options : format.output_options, option)) {
            text += (text.empty() ? "" : " or ") + usual_name(format);
        }
    }
    return text + (input_side ? " inputs" : " outputs");
}

// An option that only some formats take is refused where neither side's format takes it rather than ignored, so
// that a conversion never silently does something other than what its command line says.
void refuse_options_that_do_not_apply(const ConvertOptions& options, const ConversionFormat& from,
                                      const ConversionFormat& to) {
    for (const auto& [option, given] : format_options_given(options)) {
        if (!given || lists(from.input_options, option) || lists(to.output_options, option)) continue;
        const bool input_side =
            std::any_of(conversion_formats().begin(), conversion_formats().end(),
                        [&option = option](const ConversionFormat& f) { return lists(f.input_options, option); });
        throw CliError(fmt::format("{} applies to {} only, not to {} ({})", option, formats_taking(option, input_side),
                                   input_side ? options.input : options.output, input_side ? from.name : to.name));
    }
    if (options.no_meta && options.dialect_out != "daphne") {
        throw CliError("--no-meta applies to daphne outputs only (--dialect-out daphne)");
    }
}

}  // namespace

int run_convert(const ConvertOptions& options) {
    const ConversionFormat& from = format_of(options.from, "--from", options.input);
    const ConversionFormat& to = format_of(options.to, "--to", options.output);
    const ConversionFormat& dbdf = dbdf_format();
    require_dbdf_side(from, to, options.input, options.output);
    refuse_options_that_do_not_apply(options, from, to);
    Conversion conversion{options.input,  options.output,  settings_of(options), options.schema,
                          options.header, options.densify, options.bool_elements};
    if (conversion.settings.keep_blocks && (&from != &dbdf || &to != &dbdf)) {
        throw CliError("--encoding as-is applies to .dbdf to .dbdf conversions");
    }
    run_conversion(from, to, conversion);
    // .csv and .dbdf outputs carry a frame's labels: made-up ones are pointed out.
    if (&from == &dbdf && to.keeps_labels) {
        note_unrecoverable_labels(open_reader(options.input, conversion.settings.input_dialect), options.input);
    }
    return 0;
}

}  // namespace dbdf_cli
