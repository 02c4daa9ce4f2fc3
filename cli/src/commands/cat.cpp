// dbdf cat: the values of a window of the object as aligned text; only that window is decoded.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "../handles.hpp"
#include "../terminal_text.hpp"
#include "../typed_values.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

struct Range {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

std::uint64_t parse_index(const std::string& text, const std::string& what) {
    try {
        std::size_t used = 0;
        const unsigned long long value = std::stoull(text, &used);
        if (used == text.size()) return value;
    } catch (const std::exception&) {}
    throw CliError("--" + what + ": '" + text + "' is not a non-negative integer");
}

// "A:B", "A:", ":B" or "A" (one index); a missing bound is the object's edge.
Range parse_range(const std::string& text, std::uint64_t extent, const std::string& what, const std::string& file) {
    Range range{0, extent};
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        range.begin = parse_index(text, what);
        range.end = range.begin + 1;
    } else {
        if (colon > 0) range.begin = parse_index(text.substr(0, colon), what);
        if (colon + 1 < text.size()) range.end = parse_index(text.substr(colon + 1), what);
    }
    if (range.begin > range.end || range.end > extent) {
        throw CliError(fmt::format("{}: --{} {} is outside 0:{}", file, what, text, extent));
    }
    return range;
}

}  // namespace

int run_cat(const CatOptions& options) {
    Reader reader = open_reader(options.file, parse_dialect(options.dialect));
    const dbdf_object_info_t info = object_info(reader, options.file);
    Range rows{0, std::min(info.rows, options.limit_rows)};
    Range cols{0, std::min(info.cols, options.limit_cols)};
    if (!options.rows.empty()) rows = parse_range(options.rows, info.rows, "rows", options.file);
    if (!options.cols.empty()) cols = parse_range(options.cols, info.cols, "cols", options.file);
    const std::uint64_t shown_rows = rows.end - rows.begin;
    const std::uint64_t shown_cols = cols.end - cols.begin;

    // Text of every shown cell, column by column in each column's own type.
    std::vector<std::vector<std::string>> cells(shown_cols);
    std::vector<std::string> headers(shown_cols);
    for (std::uint64_t c = 0; c < shown_cols; ++c) {
        const std::uint64_t column = cols.begin + c;
        const dbdf_value_type_t type = column_type(reader, options.file, column);
        headers[c] = info.data_type == DBDF_DATA_FRAME ? terminal_text(column_label(reader, options.file, column)) : "";
        TypedBuffer values(type, shown_rows);
        check(dbdf_reader_read_dense_window(reader.get(), type, rows.begin, column, shown_rows, 1, values.data(),
                                            values.size(), 1),
              options.file);
        cells[c].reserve(shown_rows);
        for (std::uint64_t r = 0; r < shown_rows; ++r) cells[c].push_back(values.text(r));
    }
    std::vector<std::size_t> widths(shown_cols, 0);
    for (std::uint64_t c = 0; c < shown_cols; ++c) {
        widths[c] = headers[c].size();
        for (const auto& text : cells[c]) widths[c] = std::max(widths[c], text.size());
    }
    if (info.data_type == DBDF_DATA_FRAME && shown_cols > 0) {
        std::string line;
        for (std::uint64_t c = 0; c < shown_cols; ++c)
            line += fmt::format("{}{:>{}}", c ? "  " : "", headers[c], widths[c]);
        fmt::print("{}\n", line);
    }
    for (std::uint64_t r = 0; r < shown_rows; ++r) {
        std::string line;
        for (std::uint64_t c = 0; c < shown_cols; ++c)
            line += fmt::format("{}{:>{}}", c ? "  " : "", cells[c][r], widths[c]);
        fmt::print("{}\n", line);
    }
    // A dimension the user left to the default window is never cut silently, even when the other one was given.
    std::vector<std::string> cuts;
    if (options.rows.empty() && rows.end < info.rows) {
        cuts.push_back(fmt::format("rows {}:{} of {} (--rows A:B)", rows.begin, rows.end, info.rows));
    }
    if (options.cols.empty() && cols.end < info.cols) {
        cuts.push_back(fmt::format("columns {}:{} of {} (--cols A:B)", cols.begin, cols.end, info.cols));
    }
    if (!cuts.empty()) {
        std::fflush(stdout);  // the note comes after the values, also when both streams go to one place
        fmt::print(stderr, "... showing {}\n", fmt::join(cuts, " and "));
    }
    if (info.data_type == DBDF_DATA_FRAME && shown_cols > 0) note_unrecoverable_labels(reader, options.file);
    return 0;
}

}  // namespace dbdf_cli
