// dbdf convert IN OUT: between .dbdf and .npy, .mtx, .csv, and .dbdf to .dbdf, streamed where the formats allow.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "../formats/csv.hpp"
#include "../formats/mtx.hpp"
#include "../formats/npy.hpp"
#include "../formats/reencode.hpp"
#include "../handles.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

std::string format_of(const std::string& explicit_format, const std::string& path) {
    std::string format = explicit_format;
    if (format.empty()) {
        const auto dot = path.rfind('.');
        if (dot != std::string::npos) format = path.substr(dot + 1);
    }
    if (format != "dbdf" && format != "npy" && format != "mtx" && format != "csv") {
        throw CliError(path + ": cannot tell the format (use .dbdf, .npy, .mtx, .csv or --from/--to)");
    }
    return format;
}

OutputSettings settings_of(const ConvertOptions& options) {
    OutputSettings settings;
    const std::string& encoding = options.encoding;
    if (encoding == "auto") settings.options.encoding = DBDF_ENCODING_AUTO;
    else if (encoding == "dense") settings.options.encoding = DBDF_ENCODING_DENSE;
    else if (encoding == "csr") settings.options.encoding = DBDF_ENCODING_CSR;
    else if (encoding == "coo") settings.options.encoding = DBDF_ENCODING_COO;
    else if (encoding == "as-is") settings.keep_blocks = true;
    else throw CliError("--encoding must be auto, dense, csr, coo or as-is");
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
    if (options.data_type == "dense") settings.data_type = DBDF_DATA_DENSE;
    else if (options.data_type == "csr") settings.data_type = DBDF_DATA_CSR;
    else if (options.data_type == "frame") settings.data_type = DBDF_DATA_FRAME;
    else if (!options.data_type.empty()) throw CliError("--data-type must be dense, csr or frame");
    if (!options.dialect.empty() && !options.dialect_in.empty()) throw CliError("give --dialect or --dialect-in, not both");
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

// Options that only one side's format can use are refused elsewhere rather than ignored, so that a conversion
// never silently does something other than what its command line says.
void refuse_options_that_do_not_apply(const ConvertOptions& options, const std::string& from, const std::string& to) {
    auto refuse_unless = [](bool applies, const char* option, const char* side, const std::string& path,
                            const std::string& format) {
        if (!applies) throw CliError(fmt::format("{} applies to {} only, not to {} ({})", option, side, path, format));
    };
    const std::string in = options.input;
    const std::string out = options.output;
    refuse_unless(options.dialect.empty() || from == "dbdf", "--dialect", ".dbdf inputs", in, from);
    refuse_unless(options.dialect_in.empty() || from == "dbdf", "--dialect-in", ".dbdf inputs", in, from);
    refuse_unless(options.schema.empty() || from == "csv", "--schema", ".csv inputs", in, from);
    refuse_unless(options.header.empty() || from == "csv", "--header", ".csv inputs", in, from);
    refuse_unless(options.dialect_out.empty() || to == "dbdf", "--dialect-out", ".dbdf outputs", out, to);
    refuse_unless(options.encoding == "auto" || to == "dbdf", "--encoding", ".dbdf outputs", out, to);
    refuse_unless(options.block.empty() || to == "dbdf", "--block", ".dbdf outputs", out, to);
    refuse_unless(options.data_type.empty() || to == "dbdf", "--data-type", ".dbdf outputs", out, to);
    if (options.no_meta && options.dialect_out != "daphne") {
        throw CliError("--no-meta applies to daphne outputs only (--dialect-out daphne)");
    }
}

}  // namespace

int run_convert(const ConvertOptions& options) {
    const std::string from = format_of(options.from, options.input);
    const std::string to = format_of(options.to, options.output);
    if (from != "dbdf" && to != "dbdf") {
        throw CliError(fmt::format("{} ({}) to {} ({}): one side of a conversion must be .dbdf", options.input, from,
                                   options.output, to));
    }
    refuse_options_that_do_not_apply(options, from, to);
    const OutputSettings settings = settings_of(options);
    if (settings.keep_blocks && (from != "dbdf" || to != "dbdf")) {
        throw CliError("--encoding as-is applies to .dbdf to .dbdf conversions");
    }
    const CsvHeader csv_header = options.header.empty() ? CsvHeader::Auto : parse_csv_header(options.header);
    if (from == "dbdf" && to == "dbdf") dbdf_to_dbdf(options.input, options.output, settings);
    else if (from == "npy") npy_to_dbdf(options.input, options.output, settings);
    else if (from == "mtx") mtx_to_dbdf(options.input, options.output, settings);
    else if (from == "csv") csv_to_dbdf(options.input, options.output, settings, options.schema, csv_header);
    else if (to == "npy") dbdf_to_npy(options.input, options.output, settings);
    else if (to == "mtx") dbdf_to_mtx(options.input, options.output, settings);
    else dbdf_to_csv(options.input, options.output, settings);
    // .csv and .dbdf outputs carry a frame's labels: made-up ones are pointed out.
    if (from == "dbdf" && to != "npy" && to != "mtx") {
        note_unrecoverable_labels(open_reader(options.input, settings.input_dialect), options.input);
    }
    return 0;
}

}  // namespace dbdf_cli
