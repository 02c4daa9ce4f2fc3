#include "csv.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../input_excerpt.hpp"
#include "../number_text.hpp"
#include "../progress.hpp"
#include "../typed_values.hpp"
#include "csv_record.hpp"
#include "output_header.hpp"
#include "text_lines.hpp"
#include "row_major_windows.hpp"

namespace dbdf_cli {
namespace {

[[noreturn]] void invalid(const std::string& path, std::uint64_t line, const std::string& what) {
    throw CliError(fmt::format("{}:{}: {}", path, line, what), 1);
}

bool is_blank(const std::string& line) { return line.empty() || line == "\r"; }

// A label as a header field. Labels that read as numbers are quoted, so that a header of numbers is still told from
// a row of values when the file is read back; so is the empty label of a single column, which would be a blank line.
std::string label_field(const std::string& label, bool only_column) {
    const bool needs_quotes = label.find_first_of(",\"\r\n") != std::string::npos ||
                              classify_number(label).form != NumberForm::NotANumber || (only_column && label.empty());
    if (!needs_quotes) return label;
    std::string out = "\"";
    for (char c : label) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// What a value asks of a value type, as bits: a column's values are summed up in one byte, so that a row of a million
// fields costs a byte per column here. The values behind the bits are looked up again only for an error message.
enum NeedBits : std::uint8_t {
    kFloatOnly = 1,      // only a float holds it: a fraction, an exponent, nan, inf, -0, an integer beyond 64 bits
    kNegativeZero = 2,   // "-0": only a float keeps the sign (also kFloatOnly)
    kNegative = 4,       // a negative integer: not u64
    kAboveI64 = 8,       // an integer above 2^63 - 1: not i64
    kInexactInF64 = 16,  // an integer that f64 does not hold exactly
};

std::uint8_t needs_of(const NumberText& number) {
    if (number.form == NumberForm::Float) return kFloatOnly;
    std::uint8_t needs = 0;
    if (number.negative_zero()) needs |= kNegativeZero;
    if (number.negative_zero() || (!number.fits_i64 && !number.fits_u64)) needs |= kFloatOnly;
    if (number.fits_i64 && number.i64 < 0) needs |= kNegative;
    if (!number.fits_i64 && number.fits_u64) needs |= kAboveI64;
    // Every integer of magnitude up to 2^53 is an f64; only larger ones need the exact check.
    constexpr std::int64_t kExactInF64 = std::int64_t{1} << 53;
    const bool small = number.fits_i64 && number.i64 >= -kExactInF64 && number.i64 <= kExactInF64;
    if (!small && !number_fits(number, DBDF_VALUE_F64)) needs |= kInexactInF64;
    return needs;
}

bool integer_type_holds_all(std::uint8_t needs) {
    return (needs & kFloatOnly) == 0 && (needs & (kNegative | kAboveI64)) != (kNegative | kAboveI64);
}
bool some_type_holds_all(std::uint8_t needs) { return integer_type_holds_all(needs) || (needs & kInexactInF64) == 0; }

// The narrowest of i64, u64 and f64 that holds every value exactly, or NONE when none does. Every value type's values
// are among those of these three, so when none holds them all, no type does.
dbdf_value_type_t type_holding_all(std::uint8_t needs) {
    if (integer_type_holds_all(needs)) return (needs & kAboveI64) != 0 ? DBDF_VALUE_U64 : DBDF_VALUE_I64;
    if ((needs & kInexactInF64) == 0) return DBDF_VALUE_F64;
    return DBDF_VALUE_NONE;
}

// A value seen in the file, kept so that an error can name it (by an excerpt: a field may be megabytes long).
struct Witness {
    std::uint64_t line = 0;    // 0: none seen
    std::uint64_t column = 0;  // from 1
    std::string text;

    bool found() const { return line != 0; }
    bool same_cell(const Witness& other) const { return line == other.line && column == other.column; }
    std::string where() const { return fmt::format("line {}, column {}", line, column); }
    void note(std::uint64_t at_line, std::uint64_t at_column, std::string_view value) {
        if (found()) return;
        line = at_line;
        column = at_column;
        text = input_excerpt(value);
    }
};

// What the values of a column (or of a whole matrix) ask of a value type, with the first value behind each need.
struct ValueNeeds {
    std::uint8_t bits = 0;  // NeedBits of every value seen
    Witness float_only;
    Witness negative_zero;
    Witness negative;
    Witness above_i64;
    Witness inexact_in_f64;

    // `needs`: needs_of(number), which the caller may have needed as well.
    void see(const NumberText& number, std::uint8_t needs, std::uint64_t line, std::uint64_t column) {
        bits |= needs;
        if ((needs & kFloatOnly) != 0) float_only.note(line, column, number.text);
        if ((needs & kNegativeZero) != 0) negative_zero.note(line, column, number.text);
        if ((needs & kNegative) != 0) negative.note(line, column, number.text);
        if ((needs & kAboveI64) != 0) above_i64.note(line, column, number.text);
        if ((needs & kInexactInF64) != 0) inexact_in_f64.note(line, column, number.text);
    }
};

// The error for values no type holds all together: it names a value and what it conflicts with.
[[noreturn]] void refuse_values(const ValueNeeds& needs, const std::string& path, bool columns_alone_would_fit) {
    const Witness& value = needs.inexact_in_f64;
    std::string message = fmt::format("column {}: {} ", value.column, value.text);
    if (needs.float_only.found() && needs.float_only.same_cell(value)) {
        message += "fits no integer type and is not exactly representable in f64";
    } else if (needs.float_only.found()) {
        message += fmt::format("is not exactly representable in f64, which {} ({}) needs; no value type holds both",
                               needs.float_only.text, needs.float_only.where());
    } else {
        message += fmt::format(
            "is not exactly representable in f64, which {} ({}) and {} ({}) need together; no value "
            "type holds them all",
            needs.negative.text, needs.negative.where(), needs.above_i64.text, needs.above_i64.where());
    }
    if (columns_alone_would_fit) message += "; as a frame (--data-type frame) each column gets its own type";
    if (needs.negative_zero.found() && !needs.negative_zero.same_cell(value)) {
        message += fmt::format("; with --value-type i64 (--schema for a frame's columns) {} reads as 0",
                               needs.negative_zero.text);
    }
    invalid(path, value.line, message);
}

struct CsvLayout {
    bool has_header = false;
    std::vector<std::string> labels;
    std::vector<std::uint8_t> column_needs;  // per column (NeedBits), for frames
    ValueNeeds matrix_needs;                 // over every value, for matrices
    std::map<std::string, dbdf_value_type_t> schema_types;
    std::vector<bool> typed_by_schema;  // per column: --schema names its label
    std::uint64_t cols = 0;
    std::uint64_t rows = 0;
    std::uint64_t first_data_line = 1;
};

std::map<std::string, dbdf_value_type_t> parse_schema(const std::string& schema) {
    std::map<std::string, dbdf_value_type_t> types;
    for (std::size_t start = 0; !schema.empty() && start <= schema.size();) {
        const std::size_t end = std::min(schema.find(',', start), schema.size());
        const std::string item = schema.substr(start, end - start);
        const std::size_t colon = item.rfind(':');
        if (colon == std::string::npos) throw CliError("--schema: '" + item + "' is not name:type");
        const std::string name = item.substr(0, colon);
        if (!types.emplace(name, parse_value_type(item.substr(colon + 1))).second) {
            throw CliError("--schema: column '" + name + "' is given a type twice");
        }
        start = end + 1;
    }
    return types;
}

// The label of column c: the header's, or DAPHNE's default when the file has none.
std::string column_label_of(const CsvLayout& layout, std::uint64_t c) {
    return c < layout.labels.size() ? layout.labels[c] : "col_" + std::to_string(c);
}

// Which columns --schema types; a name that is no column's label is an error, since it is most likely misspelt.
void match_schema(CsvLayout& layout, const std::string& path) {
    layout.typed_by_schema.assign(layout.cols, false);
    std::map<std::string, bool> named;
    for (const auto& [name, type] : layout.schema_types) named[name] = false;
    for (std::uint64_t c = 0; c < layout.cols; ++c) {
        const auto found = named.find(column_label_of(layout, c));
        if (found == named.end()) continue;
        layout.typed_by_schema[c] = true;
        found->second = true;
    }
    for (const auto& [name, matched] : named) {
        if (matched) continue;
        // The labels come from the file: each is quoted as an excerpt, and a long list is cut after a few.
        constexpr std::uint64_t kLabelsShown = 10;
        std::string labels;
        for (std::uint64_t c = 0; c < std::min(layout.cols, kLabelsShown); ++c) {
            labels += (c ? ", " : "") + quoted_input(column_label_of(layout, c));
        }
        if (layout.cols > kLabelsShown) labels += fmt::format(", ... ({} columns)", layout.cols);
        throw CliError(fmt::format("{}: --schema names column '{}', which the file does not have ({})", path, name,
                                   labels.empty() ? "it has no columns" : "its columns: " + labels));
    }
}

// First pass: header, column count (ragged rows are errors), row count and what the values need of a type.
CsvLayout scan(const std::string& path, bool frame_wanted, const std::string& schema, CsvHeader header) {
    TextLines lines(path);
    CsvLayout layout;
    layout.schema_types = parse_schema(schema);
    const bool types_given = !layout.schema_types.empty();
    std::string line;
    CsvRecord record;
    bool first_row = true;
    while (lines.next(line)) {
        const std::uint64_t line_number = lines.line_number();
        if (is_blank(line)) continue;
        if (!record.split(line)) invalid(path, line_number, "unterminated quoted field");
        if (first_row) {
            first_row = false;
            layout.cols = record.size();
            layout.column_needs.assign(record.size(), 0);
            bool labels = header == CsvHeader::Yes;
            if (header == CsvHeader::Auto) {
                labels = frame_wanted || types_given;
                for (std::size_t c = 0; c < record.size() && !labels; ++c) {
                    labels = record.quoted(c) || classify_number(record.field(c)).form == NumberForm::NotANumber;
                }
            }
            if (labels) {
                layout.has_header = true;
                for (std::size_t c = 0; c < record.size(); ++c) layout.labels.emplace_back(record.field(c));
                layout.first_data_line = line_number + 1;
            } else {
                layout.first_data_line = line_number;
            }
            match_schema(layout, path);
            if (labels) continue;
        }
        if (record.size() != layout.cols) {
            invalid(path, line_number, fmt::format("{} fields where the first row has {}", record.size(), layout.cols));
        }
        for (std::size_t c = 0; c < record.size(); ++c) {
            // A column typed by --schema is read in its type in the second pass, which refuses what the type does
            // not read (so "1.0" is an i64 there); its values ask nothing of an inferred type.
            if (layout.typed_by_schema[c]) continue;
            const NumberText number = classify_number(record.field(c));
            if (number.form == NumberForm::NotANumber) {
                invalid(path, line_number,
                        fmt::format("column {}: {} is not a number", c + 1, quoted_input(record.field(c))));
            }
            const std::uint8_t needs = needs_of(number);
            layout.column_needs[c] |= needs;
            layout.matrix_needs.see(number, needs, line_number, c + 1);
        }
        ++layout.rows;
    }
    if (first_row) match_schema(layout, path);  // an empty file: every name of --schema is unknown
    return layout;
}

// The values of one column that no type holds all together, found again to name them: the first pass keeps only a
// byte per column.
[[noreturn]] void refuse_column(const CsvLayout& layout, const std::string& path, std::uint64_t column) {
    TextLines lines(path);
    std::string line;
    CsvRecord record;
    ValueNeeds needs;
    while (lines.next(line)) {
        if (lines.line_number() < layout.first_data_line || is_blank(line)) continue;
        if (!record.split(line) || record.size() != layout.cols) break;
        const NumberText number = classify_number(record.field(column));
        needs.see(number, needs_of(number), lines.line_number(), column + 1);
    }
    if (needs.inexact_in_f64.found()) refuse_values(needs, path, false);
    throw CliError(fmt::format("{}: column {}: no value type holds all its values; the file changed while it was "
                               "converted",
                               path, column + 1),
                   kExitInvalid);
}

}  // namespace

CsvHeader parse_csv_header(const std::string& text) {
    if (text == "auto") return CsvHeader::Auto;
    if (text == "yes") return CsvHeader::Yes;
    if (text == "no") return CsvHeader::No;
    throw CliError("--header must be yes, no or auto");
}

void csv_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings,
                 const std::string& schema, CsvHeader header) {
    const bool frame_wanted = settings.data_type == DBDF_DATA_FRAME;
    if (!schema.empty() && settings.data_type != 0 && !frame_wanted) {
        throw CliError("--schema gives the types of a frame's columns; it does not apply to --data-type " +
                       std::string(settings.data_type == DBDF_DATA_CSR ? "csr" : "dense"));
    }
    const CsvLayout layout = scan(input, frame_wanted, schema, header);
    const std::uint64_t cols = layout.cols;
    const bool frame = frame_wanted || (layout.has_header && settings.data_type == 0);
    OutputSettings effective = settings;
    if (frame) effective.data_type = DBDF_DATA_FRAME;
    effective = with_output_data_type(effective);

    // The type each column's text is read in: --value-type when given (so its errors name the line and column),
    // else the column's --schema type, else the type inferred from the values: per column for a frame, one for
    // the whole matrix.
    std::vector<dbdf_value_type_t> source_types(cols, settings.value_type);
    if (settings.value_type == DBDF_VALUE_NONE && frame) {
        for (std::uint64_t c = 0; c < cols; ++c) {
            source_types[c] = layout.typed_by_schema[c] ? layout.schema_types.at(column_label_of(layout, c))
                                                        : type_holding_all(layout.column_needs[c]);
            if (source_types[c] == DBDF_VALUE_NONE) refuse_column(layout, input, c);
        }
    } else if (settings.value_type == DBDF_VALUE_NONE) {
        const dbdf_value_type_t type = type_holding_all(layout.matrix_needs.bits);
        if (type == DBDF_VALUE_NONE) {
            const bool columns_alone_would_fit =
                std::all_of(layout.column_needs.begin(), layout.column_needs.end(),
                            [](std::uint8_t needs) { return some_type_holds_all(needs); });
            refuse_values(layout.matrix_needs, input, columns_alone_would_fit);
        }
        std::fill(source_types.begin(), source_types.end(), type);
    }
    const dbdf_value_type_t matrix_type = cols == 0 ? DBDF_VALUE_I64 : source_types[0];
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, effective, layout.rows, cols, matrix_type, DBDF_DATA_DENSE, layout.labels,
                 source_types);

    // Second pass, band by band: the rows of one band of tiles are parsed into one buffer, column after column (each
    // column's cells together, in its own type), then written.
    TextLines lines(input);
    std::string line;
    CsvRecord record;
    std::uint64_t line_number = 0;
    auto next_record = [&]() {
        while (lines.next(line)) {
            line_number = lines.line_number();
            if (line_number < layout.first_data_line || is_blank(line)) continue;
            if (!record.split(line) || record.size() != cols) break;
            return;
        }
        invalid(input, line_number, "the file changed while it was converted");
    };
    // A matrix's columns share one type, so only a frame needs each column's start (in bytes per row of the band).
    std::vector<std::uint64_t> frame_column_starts;
    if (frame) {
        frame_column_starts.resize(cols);
        std::uint64_t start = 0;
        for (std::uint64_t c = 0; c < cols; ++c) {
            frame_column_starts[c] = start;
            start += dbdf_value_type_size(source_types[c]);
        }
    }
    const std::uint64_t matrix_width = cols == 0 ? 0 : dbdf_value_type_size(matrix_type);
    const std::uint64_t row_bytes =
        frame ? (cols == 0 ? 0 : frame_column_starts.back() + dbdf_value_type_size(source_types.back()))
              : cols * matrix_width;
    std::vector<std::uint8_t> band;
    std::uint64_t height = 0;
    auto cell = [&](std::uint64_t c, std::uint64_t r) {
        const std::uint64_t start = frame ? frame_column_starts[c] : c * matrix_width;
        return band.data() + height * start + r * dbdf_value_type_size(source_types[c]);
    };
    auto store = [&](std::uint64_t c, std::uint64_t r) {
        const std::string_view text = record.field(c);
        const NumberText number = classify_number(text);
        if (!store_number_in(number, source_types[c], cell(c, r))) {
            invalid(input, line_number, fmt::format("column {}: {}", c + 1, refusal(number, text, source_types[c])));
        }
    };
    std::uint64_t band_rows = 0;
    for (std::uint64_t c = 0; c < cols; ++c) {
        band_rows = std::max(band_rows, tile_shape(effective, layout.rows, frame ? 1 : cols, source_types[c]).rows);
        if (!frame) break;  // one type for every column of a matrix
    }
    Progress progress(layout.rows);
    for (std::uint64_t row = 0; row < layout.rows; row += band_rows) {
        height = std::min(band_rows, layout.rows - row);
        band.resize(height * row_bytes);
        for (std::uint64_t r = 0; r < height; ++r) {
            next_record();
            for (std::uint64_t c = 0; c < cols; ++c) store(c, r);
        }
        auto gather = [&](std::uint64_t tile_row, std::uint64_t col, std::uint64_t rows, std::uint64_t width,
                          TypedBuffer& out) {
            for (std::uint64_t r = 0; r < rows; ++r) {
                for (std::uint64_t c = 0; c < width; ++c) {
                    std::memcpy(out.at(r * width + c), cell(col + c, tile_row - row + r), out.width());
                }
            }
        };
        for (std::uint64_t c = 0; c < cols; ++c) {
            const std::uint64_t tile_cols = frame ? 1 : tile_shape(effective, layout.rows, cols, source_types[c]).cols;
            if (frame || c % tile_cols == 0) {
                const std::uint64_t width = frame ? 1 : std::min(tile_cols, cols - c);
                TypedBuffer values(source_types[c], height * width);
                gather(row, c, height, width, values);
                check(dbdf_writer_add_dense(writer.get(), row, c, static_cast<std::uint32_t>(height),
                                            static_cast<std::uint32_t>(width), source_types[c], values.data(),
                                            values.size(), 0, &effective.options),
                      fmt::format("{}: writing the block at ({}, {})", output, row, c));
            }
        }
        progress.update(row + height);
    }
    check(dbdf_writer_finish(writer.get()), output);
}

void dbdf_to_csv(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_checked_input(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    const bool frame = info.data_type == DBDF_DATA_FRAME;
    // A frame's columns each have a type, which its header lists (so their number is bounded by the file's size); a
    // matrix's values all have one, however many columns it has.
    std::vector<dbdf_value_type_t> frame_types;
    for (std::uint64_t c = 0; c < info.cols && frame; ++c) {
        const bool given = settings.value_type != DBDF_VALUE_NONE;
        frame_types.push_back(given ? settings.value_type : column_type(reader, input, c));
    }
    const dbdf_value_type_t matrix_type =
        settings.value_type != DBDF_VALUE_NONE ? settings.value_type : info.value_type;
    AtomicOutput out(output);
    if (frame) {
        std::string header;
        for (std::uint64_t c = 0; c < info.cols; ++c) {
            header += (c ? "," : "") + label_field(column_label(reader, input, c), info.cols == 1);
        }
        out.write(header + "\n");
    }
    // About 2^20 values at a time: bands of rows, or pieces of a row too long for that. A matrix's window is read in
    // one call; a frame's column by column, each in its own type.
    Progress progress(info.rows);
    std::vector<TypedBuffer> columns;
    std::string text;
    for_each_row_major_window(info.rows, info.cols, std::uint64_t{1} << 20, [&](const RowMajorWindow& window) {
        columns.clear();
        if (frame) {
            for (std::uint64_t c = 0; c < window.cols; ++c) {
                const dbdf_value_type_t type = frame_types[window.col + c];
                columns.emplace_back(type, window.rows);
                check(dbdf_reader_read_dense_window(reader.get(), type, window.row, window.col + c, window.rows, 1,
                                                    columns.back().data(), window.rows, 1),
                      input);
            }
        } else {
            columns.emplace_back(matrix_type, window.rows * window.cols);
            check(dbdf_reader_read_dense_window(reader.get(), matrix_type, window.row, window.col, window.rows,
                                                window.cols, columns.back().data(), columns.back().size(), 0),
                  input);
        }
        text.clear();
        for (std::uint64_t r = 0; r < window.rows; ++r) {
            for (std::uint64_t c = 0; c < window.cols; ++c) {
                if (window.col + c != 0) text += ',';
                if (frame) {
                    columns[c].append_file_text(r, text);
                } else {
                    columns[0].append_file_text(r * window.cols + c, text);
                }
            }
            if (window.ends_rows) text += '\n';
        }
        out.write(text);
        if (window.ends_rows) progress.update(window.row + window.rows);
    });
    out.commit();
}

}  // namespace dbdf_cli
