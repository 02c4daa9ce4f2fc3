#include "mtx.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
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

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

struct Entry {
    std::uint64_t row;
    std::uint64_t col;
    double real;
    std::int64_t integer;
    bool is_integer;
};

// The entry's value in the source type (i64 for integer files, f64 otherwise), as bytes.
const void* entry_value(const Entry& entry) {
    return entry.is_integer ? static_cast<const void*>(&entry.integer) : static_cast<const void*>(&entry.real);
}

enum class Field { Real, Integer, Pattern };

template <class T>
bool parse_number(const std::string& text, T& out) {
    const char* first = text.data();
    const char* last = first + text.size();
    const auto result = std::from_chars(first, last, out);
    return result.ec == std::errc() && result.ptr == last;
}

}  // namespace

void mtx_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    std::ifstream in(input);
    if (!in) throw CliError(input + ": cannot open");
    std::string line;
    std::uint64_t line_number = 1;
    if (!std::getline(in, line)) invalid(input, 1, "empty file");
    std::istringstream banner(lower(line));
    std::string tag, object, format, field_name, symmetry;
    banner >> tag >> object >> format >> field_name >> symmetry;
    if (tag != "%%matrixmarket" || object != "matrix") invalid(input, 1, "not a Matrix Market matrix header");
    if (format != "coordinate" && format != "array") invalid(input, 1, "format must be coordinate or array");
    Field field;
    if (field_name == "real" || field_name == "double") field = Field::Real;
    else if (field_name == "integer") field = Field::Integer;
    else if (field_name == "pattern" && format == "coordinate") field = Field::Pattern;
    else invalid(input, 1, "field '" + field_name + "' is not supported (real, integer, pattern)");
    if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric") {
        invalid(input, 1, "symmetry '" + symmetry + "' is not supported (general, symmetric, skew-symmetric)");
    }
    if (format == "array" && symmetry != "general") invalid(input, 1, "array files must be general");
    const bool mirrored = symmetry != "general";
    const double mirror_sign = symmetry == "skew-symmetric" ? -1.0 : 1.0;

    // Size line after comments.
    std::vector<std::string> fields;
    auto split = [&](const std::string& text) {
        fields.clear();
        std::istringstream words(text);
        std::string word;
        while (words >> word) fields.push_back(word);
    };
    do {
        if (!std::getline(in, line)) invalid(input, line_number, "missing size line");
        ++line_number;
    } while (line.empty() || line[0] == '%');
    split(line);
    std::uint64_t rows = 0, cols = 0, declared_entries = 0;
    const std::size_t size_fields = format == "coordinate" ? 3 : 2;
    if (fields.size() != size_fields || !parse_number(fields[0], rows) || !parse_number(fields[1], cols) ||
        (size_fields == 3 && !parse_number(fields[2], declared_entries))) {
        invalid(input, line_number, "malformed size line '" + line + "'");
    }
    const dbdf_value_type_t source_type = field == Field::Integer ? DBDF_VALUE_I64 : DBDF_VALUE_F64;

    std::vector<Entry> entries;
    const std::uint64_t expected = format == "coordinate" ? declared_entries : rows * cols;
    if (format == "array" && cols != 0 && rows > (std::uint64_t{1} << 34) / cols) {
        invalid(input, line_number, "array too large to convert in memory");
    }
    std::uint64_t read = 0;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.empty() || line[0] == '%') continue;
        split(line);
        if (fields.empty()) continue;
        if (read == expected) invalid(input, line_number, fmt::format("more than the {} entries announced", expected));
        Entry entry{0, 0, 1.0, 1, field == Field::Integer};
        std::size_t value_field = 0;
        if (format == "coordinate") {
            const std::size_t needed = field == Field::Pattern ? 2 : 3;
            if (fields.size() != needed || !parse_number(fields[0], entry.row) || !parse_number(fields[1], entry.col) ||
                entry.row == 0 || entry.col == 0 || entry.row > rows || entry.col > cols) {
                invalid(input, line_number, "malformed or out-of-range entry '" + line + "'");
            }
            --entry.row;
            --entry.col;
            value_field = 2;
        } else {
            if (fields.size() != 1) invalid(input, line_number, "array lines hold one value: '" + line + "'");
            entry.row = read % rows;  // column-major
            entry.col = read / rows;
        }
        if (field == Field::Real && !parse_number(fields[value_field], entry.real)) {
            invalid(input, line_number, "'" + fields[value_field] + "' is not a real number");
        }
        if (field == Field::Integer && !parse_number(fields[value_field], entry.integer)) {
            invalid(input, line_number, "'" + fields[value_field] + "' is not a 64-bit integer");
        }
        entry.real = field == Field::Integer ? static_cast<double>(entry.integer) : entry.real;
        entries.push_back(entry);
        if (mirrored && entry.row != entry.col) {
            Entry other = entry;
            std::swap(other.row, other.col);
            other.real *= mirror_sign;
            other.integer = symmetry == "skew-symmetric" ? -other.integer : other.integer;
            entries.push_back(other);
        }
        ++read;
    }
    if (read != expected) invalid(input, line_number, fmt::format("{} entries announced, {} found", expected, read));
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    for (std::size_t k = 1; k < entries.size(); ++k) {
        if (entries[k].row == entries[k - 1].row && entries[k].col == entries[k - 1].col) {
            invalid(input, 0, fmt::format("entry ({}, {}) appears twice", entries[k].row + 1, entries[k].col + 1));
        }
    }

    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    const bool is_csr = format == "coordinate" && settings.data_type == 0;
    OutputSettings effective = settings;
    if (is_csr) effective.data_type = DBDF_DATA_CSR;
    begin_output(writer, output, effective, rows, cols, source_type);
    if (effective.data_type == DBDF_DATA_FRAME) {
        // Frame columns gather their cells from the sorted entries: find each tile row's entries by binary search.
        auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t height, std::uint64_t width,
                          TypedBuffer& out) {
            std::memset(out.data(), 0, out.size() * out.width());
            auto it = std::lower_bound(entries.begin(), entries.end(), row,
                                       [](const Entry& e, std::uint64_t r) { return e.row < r; });
            for (; it != entries.end() && it->row < row + height; ++it) {
                if (it->col < col || it->col >= col + width) continue;
                std::memcpy(out.at((it->row - row) * width + (it->col - col)), entry_value(*it), out.width());
            }
        };
        write_frame_columns(writer.get(), rows, std::vector<dbdf_value_type_t>(cols, source_type), effective, gather);
    } else {
        std::vector<SparseEntry> sparse(entries.size());
        for (std::size_t k = 0; k < entries.size(); ++k) {
            sparse[k].row = entries[k].row;
            sparse[k].col = entries[k].col;
            std::memcpy(sparse[k].value, entry_value(entries[k]), 8);
        }
        entries = {};
        write_sparse_tiles(writer.get(), rows, cols, source_type, effective, sparse);
    }
    check(dbdf_writer_finish(writer.get()), output);
}

void dbdf_to_mtx(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_reader(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader);
    if (info.data_type == DBDF_DATA_FRAME) throw CliError(input + ": frames convert to .csv, not .mtx");
    const dbdf_value_type_t stored = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : info.value_type;
    const bool integer = !is_float_type(stored);
    const dbdf_value_type_t type = stored;  // read in the value type itself, printed exactly
    AtomicOutput out(output);
    const bool coordinate = info.data_type == DBDF_DATA_CSR;
    out.write(fmt::format("%%MatrixMarket matrix {} {} general\n", coordinate ? "coordinate" : "array",
                          integer ? "integer" : "real"));
    out.write("% written by dbdf\n");
    if (coordinate) {
        std::uint64_t entries = 0;
        check(dbdf_reader_count_entries(reader.get(), &entries), input);
        out.write(fmt::format("{} {} {}\n", info.rows, info.cols, entries));
        dbdf_block_info_t block{};
        dbdf_status_t status;
        Progress progress(entries);
        std::uint64_t written = 0;
        while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
            std::uint64_t count = 0;
            check(dbdf_reader_block_count_entries(reader.get(), &count), input);
            std::vector<std::uint32_t> rows(count), cols(count);
            TypedBuffer values(type, count);
            check(dbdf_reader_block_decode_coo(reader.get(), type, rows.data(), cols.data(), values.data(), count, &count),
                  input);
            std::string text;
            for (std::uint64_t k = 0; k < count; ++k) {
                text += fmt::format("{} {} {}\n", block.row + rows[k] + 1, block.col + cols[k] + 1, values.text(k));
            }
            out.write(text);
            written += count;
            progress.update(written);
        }
        check(status, input);
    } else {
        out.write(fmt::format("{} {}\n", info.rows, info.cols));
        Progress progress(info.cols);
        for (std::uint64_t c = 0; c < info.cols; ++c) {
            TypedBuffer column(type, info.rows);
            check(dbdf_reader_read_column(reader.get(), c, type, column.data(), column.size()), input);
            std::string text;
            for (std::uint64_t r = 0; r < info.rows; ++r) text += column.text(r) + "\n";
            out.write(text);
            progress.update(c + 1);
        }
    }
    out.commit();
}

}  // namespace dbdf_cli
