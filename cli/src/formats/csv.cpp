#include "csv.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../progress.hpp"
#include "../typed_values.hpp"
#include "output_header.hpp"

namespace dbdf_cli {
namespace {

[[noreturn]] void invalid(const std::string& path, std::uint64_t line, const std::string& what) {
    throw CliError(fmt::format("{}:{}: {}", path, line, what), 1);
}

// Splits one CSV record (RFC 4180 quoting within a line). Returns false on an unterminated quote.
bool split_record(const std::string& line, std::vector<std::string>& fields) {
    fields.clear();
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(field);
            field.clear();
        } else if (c != '\r') {
            field += c;
        }
    }
    fields.push_back(field);
    return !quoted;
}

template <class T>
bool parse_number(const std::string& text, T& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    while (first < last && *first == ' ') ++first;
    while (last > first && last[-1] == ' ') --last;
    if (first < last && *first == '+') ++first;
    const auto result = std::from_chars(first, last, out);
    return first < last && result.ec == std::errc() && result.ptr == last;
}

bool is_number(const std::string& text) {
    double value;
    return parse_number(text, value);
}

std::string quote(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Stores the text of a field in a typed cell, exactly or with a clear error.
void store(const std::string& text, dbdf_value_type_t type, std::uint8_t* cell, const std::string& path,
           std::uint64_t line) {
    bool ok = false;
    auto put = [&](auto value) {
        ok = parse_number(text, value);
        std::memcpy(cell, &value, sizeof value);
    };
    switch (type) {
        case DBDF_VALUE_U8: put(std::uint8_t{}); break;
        case DBDF_VALUE_U16: put(std::uint16_t{}); break;
        case DBDF_VALUE_U32: put(std::uint32_t{}); break;
        case DBDF_VALUE_U64: put(std::uint64_t{}); break;
        case DBDF_VALUE_I8: put(std::int8_t{}); break;
        case DBDF_VALUE_I16: put(std::int16_t{}); break;
        case DBDF_VALUE_I32: put(std::int32_t{}); break;
        case DBDF_VALUE_I64: put(std::int64_t{}); break;
        case DBDF_VALUE_F32: put(float{}); break;
        default: put(double{}); break;
    }
    if (!ok) invalid(path, line, fmt::format("'{}' is not a value of type {}", text, dbdf_value_type_name(type)));
}

struct CsvLayout {
    bool has_header = false;
    std::vector<std::string> labels;
    std::vector<dbdf_value_type_t> types;
    std::uint64_t rows = 0;
    std::uint64_t first_data_line = 1;
};

// First pass: header, column count (ragged rows are errors), row count and inferred column types.
CsvLayout scan(const std::string& path, bool frame_wanted, const std::string& schema) {
    std::ifstream in(path);
    if (!in) throw CliError(path + ": cannot open");
    CsvLayout layout;
    std::map<std::string, dbdf_value_type_t> schema_types;
    for (std::size_t start = 0; !schema.empty() && start <= schema.size();) {
        const std::size_t end = std::min(schema.find(',', start), schema.size());
        const std::string item = schema.substr(start, end - start);
        const std::size_t colon = item.rfind(':');
        if (colon == std::string::npos) throw CliError("--schema: '" + item + "' is not name:type");
        schema_types[item.substr(0, colon)] = parse_value_type(item.substr(colon + 1));
        start = end + 1;
    }
    std::string line;
    std::vector<std::string> fields;
    std::uint64_t line_number = 0;
    std::vector<bool> all_integers;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.empty() || line == "\r") continue;
        if (!split_record(line, fields)) invalid(path, line_number, "unterminated quoted field");
        if (layout.types.empty() && !layout.has_header && layout.rows == 0) {
            const bool numeric = std::all_of(fields.begin(), fields.end(), is_number);
            if (!numeric || frame_wanted || !schema.empty()) {
                layout.has_header = true;
                layout.labels = fields;
                layout.first_data_line = line_number + 1;
                all_integers.assign(fields.size(), true);
                layout.types.assign(fields.size(), DBDF_VALUE_NONE);
                continue;
            }
            all_integers.assign(fields.size(), true);
            layout.types.assign(fields.size(), DBDF_VALUE_NONE);
            layout.first_data_line = line_number;
        }
        if (fields.size() != layout.types.size()) {
            invalid(path, line_number, fmt::format("{} fields where the first row has {}", fields.size(), layout.types.size()));
        }
        for (std::size_t c = 0; c < fields.size(); ++c) {
            std::int64_t integer;
            if (!parse_number(fields[c], integer)) {
                if (!is_number(fields[c]) && schema_types.empty()) {
                    invalid(path, line_number, fmt::format("field {} '{}' is not a number", c + 1, fields[c]));
                }
                all_integers[c] = false;
            }
        }
        ++layout.rows;
    }
    for (std::size_t c = 0; c < layout.types.size(); ++c) {
        layout.types[c] = all_integers[c] ? DBDF_VALUE_I64 : DBDF_VALUE_F64;
        if (!schema_types.empty()) {
            const auto found = schema_types.find(layout.labels[c]);
            if (found == schema_types.end()) throw CliError("--schema does not name column '" + layout.labels[c] + "'");
            layout.types[c] = found->second;
        }
    }
    return layout;
}

}  // namespace

void csv_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings,
                 const std::string& schema) {
    const bool frame_wanted = settings.data_type == DBDF_DATA_FRAME;
    const CsvLayout layout = scan(input, frame_wanted, schema);
    const std::uint64_t cols = layout.types.size();
    const bool frame = frame_wanted || (layout.has_header && settings.data_type == 0);
    OutputSettings effective = settings;
    if (frame) effective.data_type = DBDF_DATA_FRAME;
    // A matrix has one type: i64 when every column is integral, else f64.
    dbdf_value_type_t matrix_type = DBDF_VALUE_I64;
    for (auto type : layout.types) {
        if (type != DBDF_VALUE_I64) matrix_type = DBDF_VALUE_F64;
    }
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, effective, layout.rows, cols, matrix_type, DBDF_DATA_DENSE, layout.labels,
                 layout.types);

    // Second pass, band by band: the rows of one band of tiles are parsed into memory, then written.
    std::ifstream in(input);
    std::string line;
    std::vector<std::string> fields;
    std::uint64_t line_number = 0;
    auto next_record = [&]() {
        while (std::getline(in, line)) {
            ++line_number;
            if (line_number < layout.first_data_line || line.empty() || line == "\r") continue;
            split_record(line, fields);
            return;
        }
        invalid(input, line_number, "the file changed while it was converted");
    };
    std::vector<dbdf_value_type_t> source_types = layout.types;
    if (!frame) std::fill(source_types.begin(), source_types.end(), matrix_type);
    std::uint64_t band_rows = 0;
    for (std::uint64_t c = 0; c < cols; ++c) {
        band_rows = std::max(band_rows, tile_shape(effective, layout.rows, frame ? 1 : cols, source_types[c]).rows);
    }
    Progress progress(layout.rows);
    for (std::uint64_t row = 0; row < layout.rows; row += band_rows) {
        const std::uint64_t height = std::min(band_rows, layout.rows - row);
        std::vector<TypedBuffer> columns;
        for (std::uint64_t c = 0; c < cols; ++c) columns.emplace_back(source_types[c], height);
        for (std::uint64_t r = 0; r < height; ++r) {
            next_record();
            for (std::uint64_t c = 0; c < cols; ++c) store(fields[c], source_types[c], columns[c].at(r), input, line_number);
        }
        auto gather = [&](std::uint64_t tile_row, std::uint64_t col, std::uint64_t rows, std::uint64_t width,
                          TypedBuffer& out) {
            for (std::uint64_t r = 0; r < rows; ++r) {
                for (std::uint64_t c = 0; c < width; ++c) {
                    std::memcpy(out.at(r * width + c), columns[col + c].at(tile_row - row + r), out.width());
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
    Reader reader = open_reader(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    std::vector<dbdf_value_type_t> types(info.cols);
    for (std::uint64_t c = 0; c < info.cols; ++c) {
        types[c] = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : column_type(reader, input, c);
    }
    AtomicOutput out(output);
    if (info.data_type == DBDF_DATA_FRAME) {
        std::string header;
        for (std::uint64_t c = 0; c < info.cols; ++c) header += (c ? "," : "") + quote(column_label(reader, input, c));
        out.write(header + "\n");
    }
    const std::uint64_t band = std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / std::max<std::uint64_t>(info.cols, 1));
    Progress progress(info.rows);
    for (std::uint64_t row = 0; row < info.rows && info.cols > 0; row += band) {
        const std::uint64_t rows = std::min(band, info.rows - row);
        std::vector<TypedBuffer> columns;
        for (std::uint64_t c = 0; c < info.cols; ++c) {
            columns.emplace_back(types[c], rows);
            check(dbdf_reader_read_dense_window(reader.get(), types[c], row, c, rows, 1, columns[c].data(), rows, 1),
                  input);
        }
        std::string text;
        for (std::uint64_t r = 0; r < rows; ++r) {
            for (std::uint64_t c = 0; c < info.cols; ++c) {
                if (c) text += ',';
                text += columns[c].text(r);
            }
            text += '\n';
        }
        out.write(text);
        progress.update(row + rows);
    }
    out.commit();
}

}  // namespace dbdf_cli
