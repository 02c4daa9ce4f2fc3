// dbdf info: header, blocks and space use, as text or one JSON document. It reads the header and the block
// records alone, so it answers as fast for a terabyte as for a kilobyte; counting non-zeros (--non-zeros) reads
// every dense block's values.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../dialect_hint.hpp"
#include "../handles.hpp"
#include "../json_text.hpp"
#include "../terminal_text.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

struct Summary {
    dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
    bool labels_recoverable = true;
    dbdf_object_info_t info{};
    std::vector<std::string> column_types;
    std::vector<std::string> labels;
    std::vector<dbdf_block_info_t> blocks;
    bool non_zeros_counted = false;
    std::vector<std::uint64_t> non_zeros;  // per block, when counted: the entries it yields as CSR (rule 14)
    std::array<std::uint64_t, 4> bytes_by_block_type{};
    std::array<std::uint64_t, 4> blocks_by_block_type{};
    std::uint64_t stored_values = 0;
    std::uint64_t total_non_zeros = 0;
};

Summary summarize(const std::string& file, dbdf_dialect_t dialect, bool count_non_zeros) {
    Reader reader = open_reader(file, dialect);
    Summary summary;
    summary.dialect = dialect;
    summary.non_zeros_counted = count_non_zeros;
    int recoverable = 1;
    check(dbdf_reader_labels_recoverable(reader.get(), &recoverable), file);
    summary.labels_recoverable = recoverable != 0;
    summary.info = object_info(reader, file);
    for (std::uint64_t c = 0; c < summary.info.cols && summary.info.data_type == DBDF_DATA_FRAME; ++c) {
        summary.column_types.push_back(dbdf_value_type_name(column_type(reader, file, c)));
        summary.labels.push_back(column_label(reader, file, c));
    }
    dbdf_block_info_t block{};
    dbdf_status_t status;
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        // Only on request: a dense block's non-zeros are counted by scanning its values (sparse blocks state
        // theirs, as stored_values).
        if (count_non_zeros) {
            std::uint64_t non_zeros = 0;
            check(dbdf_reader_block_count_entries(reader.get(), &non_zeros), file);
            summary.non_zeros.push_back(non_zeros);
            summary.total_non_zeros += non_zeros;
        }
        summary.blocks.push_back(block);
        summary.bytes_by_block_type[block.block_type] += block.encoded_bytes;
        summary.blocks_by_block_type[block.block_type] += 1;
        summary.stored_values += block.stored_values;
    }
    check(status, file);
    return summary;
}

double fraction(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / whole;
}

const char* block_value_type(const dbdf_block_info_t& block) {
    return block.block_type == DBDF_BLOCK_EMPTY ? "-" : dbdf_value_type_name(block.value_type);
}

void print_text(const std::string& file, const Summary& s) {
    fmt::print("file:        {}\n", terminal_text(file));
    fmt::print("dialect:     {}\n", dbdf_dialect_name(s.dialect));
    fmt::print("data type:   {}\n", dbdf_data_type_name(s.info.data_type));
    fmt::print("shape:       {} x {}\n", s.info.rows, s.info.cols);
    if (s.info.data_type == DBDF_DATA_FRAME) {
        fmt::print("columns:\n");
        for (std::size_t c = 0; c < s.labels.size(); ++c) {
            fmt::print("  {:>4}  {:<4}  {}\n", c, s.column_types[c], terminal_text(s.labels[c]));
        }
        if (!s.labels_recoverable) {
            fmt::print(
                "labels:      not recoverable from the file (DAPHNE's runtime writes memory bytes instead of the "
                "text); shown as DAPHNE names them\n");
        }
    } else {
        fmt::print("value type:  {}\n", dbdf_value_type_name(s.info.value_type));
    }
    fmt::print("size:        {} bytes (header {})\n", s.info.total_bytes, s.info.header_bytes);
    fmt::print("blocks:      {}\n", s.blocks.size());
    if (!s.blocks.empty()) {
        // The non-zeros column only when they were counted.
        const std::string non_zeros_heading = s.non_zeros_counted ? fmt::format("  {:>12}", "non-zeros") : "";
        fmt::print("  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  {:<5}  {:<4}  {:>12}{}  {:>12}\n", "block", "row", "col",
                   "rows", "cols", "type", "vt", "stored", non_zeros_heading, "bytes");
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const auto& b = s.blocks[i];
            const std::string non_zeros = s.non_zeros_counted ? fmt::format("  {:>12}", s.non_zeros[i]) : "";
            fmt::print("  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  {:<5}  {:<4}  {:>12}{}  {:>12}\n", b.index, b.row,
                       b.col, b.rows, b.cols, dbdf_block_type_name(b.block_type), block_value_type(b), b.stored_values,
                       non_zeros, b.encoded_bytes);
        }
    }
    fmt::print("stored values: {}\n", s.stored_values);
    if (s.non_zeros_counted) {
        fmt::print("non-zeros:     {}\n", s.total_non_zeros);
    } else {
        fmt::print("non-zeros:     not counted (--non-zeros counts them, reading every dense block's values)\n");
    }
    const std::uint64_t body = s.info.total_bytes - s.info.header_bytes;
    for (int type = 0; type < 4; ++type) {
        if (s.blocks_by_block_type[type] == 0) continue;
        fmt::print("  {:<5} {:>8} blocks {:>14} bytes {:>6.1f}% of the body\n",
                   dbdf_block_type_name(static_cast<dbdf_block_type_t>(type)), s.blocks_by_block_type[type],
                   s.bytes_by_block_type[type], 100.0 * fraction(s.bytes_by_block_type[type], body));
    }
    // A table of many blocks is hard to read; their layout is easier to see.
    if (s.blocks.size() > 1) fmt::print("picture:     dbdf map {} OUT.svg draws the blocks\n", terminal_text(file));
}

void print_json(const std::string& file, const Summary& s) {
    std::string out = "{";
    out += fmt::format(
        "\"file\":{},\"dialect\":\"{}\",\"data_type\":\"{}\",\"rows\":{},\"cols\":{},"
        "\"labels_recoverable\":{},",
        json_string(file), dbdf_dialect_name(s.dialect), dbdf_data_type_name(s.info.data_type), s.info.rows,
        s.info.cols, s.labels_recoverable ? "true" : "false");
    if (s.info.data_type == DBDF_DATA_FRAME) {
        out += "\"value_type\":null,\"columns\":[";
        for (std::size_t c = 0; c < s.labels.size(); ++c) {
            // label_hex: the label's bytes when they are not UTF-8 (the label then shows U+FFFD for each bad byte).
            const std::string hex = is_utf8(s.labels[c]) ? std::string("null") : "\"" + hex_bytes(s.labels[c]) + "\"";
            out += fmt::format("{}{{\"label\":{},\"value_type\":\"{}\",\"label_hex\":{}}}", c ? "," : "",
                               json_string(s.labels[c]), s.column_types[c], hex);
        }
        out += "],";
    } else {
        out += fmt::format("\"value_type\":\"{}\",\"columns\":null,", dbdf_value_type_name(s.info.value_type));
    }
    out += fmt::format(
        "\"total_bytes\":{},\"header_bytes\":{},\"block_count\":{},\"stored_values\":{},"
        "\"non_zeros\":{},\"blocks\":[",
        s.info.total_bytes, s.info.header_bytes, s.blocks.size(), s.stored_values,
        s.non_zeros_counted ? std::to_string(s.total_non_zeros) : std::string("null"));
    for (std::size_t i = 0; i < s.blocks.size(); ++i) {
        const auto& b = s.blocks[i];
        out += fmt::format(
            "{}{{\"index\":{},\"row\":{},\"col\":{},\"rows\":{},\"cols\":{},\"block_type\":\"{}\",\"value_type\":{},"
            "\"stored_values\":{},\"non_zeros\":{},\"offset\":{},\"encoded_bytes\":{}}}",
            i ? "," : "", b.index, b.row, b.col, b.rows, b.cols, dbdf_block_type_name(b.block_type),
            b.block_type == DBDF_BLOCK_EMPTY ? std::string("null") : fmt::format("\"{}\"", block_value_type(b)),
            b.stored_values, s.non_zeros_counted ? std::to_string(s.non_zeros[i]) : std::string("null"), b.offset,
            b.encoded_bytes);
    }
    out += "],\"space_by_block_type\":{";
    const std::uint64_t body = s.info.total_bytes - s.info.header_bytes;
    for (int type = 0; type < 4; ++type) {
        out += fmt::format("{}\"{}\":{{\"blocks\":{},\"bytes\":{},\"fraction\":{}}}", type ? "," : "",
                           dbdf_block_type_name(static_cast<dbdf_block_type_t>(type)), s.blocks_by_block_type[type],
                           s.bytes_by_block_type[type], fraction(s.bytes_by_block_type[type], body));
    }
    out += "}}\n";
    std::fputs(out.c_str(), stdout);
}

}  // namespace

int run_info(const InfoOptions& options) {
    const dbdf_dialect_t dialect = parse_dialect(options.dialect);
    Summary summary;
    try {
        summary = summarize(options.file, dialect, options.non_zeros);
    } catch (const CliError& error) {
        // Never a silent guess: the file is still refused, with a hint when the daphne dialect reads it.
        if (dialect != DBDF_DIALECT_SPEC || error.exit_code() != 1 || !reads_as_daphne(options.file)) throw;
        throw CliError(error.what(), 1, kDaphneDialectHint);
    }
    if (options.json) {
        print_json(options.file, summary);
    } else {
        print_text(options.file, summary);
    }
    return 0;
}

}  // namespace dbdf_cli
