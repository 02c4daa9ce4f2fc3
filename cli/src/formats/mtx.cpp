#include "mtx.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../progress.hpp"
#include "../typed_values.hpp"
#include "mtx_input.hpp"
#include "output_header.hpp"

namespace dbdf_cli {
namespace {

// The mirrored value of a skew-symmetric entry.
void negate(std::uint8_t (&value)[8], dbdf_value_type_t type, const MtxInput& file, std::uint64_t line) {
    if (type == DBDF_VALUE_I64) {
        std::int64_t integer = 0;
        std::memcpy(&integer, value, sizeof integer);
        if (integer == std::numeric_limits<std::int64_t>::min()) {
            file.invalid(line, fmt::format("{} has no negative for the mirrored entry", integer));
        }
        integer = -integer;
        std::memcpy(value, &integer, sizeof integer);
    } else {
        double real = 0;
        std::memcpy(&real, value, sizeof real);
        real = -real;
        std::memcpy(value, &real, sizeof real);
    }
}

// Entries are sorted before duplicates show, and keeping every entry's line would cost 8 bytes each; so the file is
// read again to find the two lines that give the same cell (in symmetric files, one of them may be a mirror).
[[noreturn]] void report_duplicate(const std::string& input, std::uint64_t row, std::uint64_t col) {
    MtxInput again(input);
    const bool mirrored = again.layout().symmetry != MtxSymmetry::General;
    std::uint64_t first_line = 0;
    again.read_entries([&](std::uint64_t line, std::uint64_t r, std::uint64_t c, const void*) {
        const bool gives_cell = (r == row && c == col) || (mirrored && r == col && c == row);
        if (!gives_cell) return;
        if (first_line != 0) {
            again.invalid(line,
                          fmt::format("entry ({}, {}) appears twice (also on line {})", row + 1, col + 1, first_line));
        }
        first_line = line;
    });
    throw CliError(fmt::format("{}: entry ({}, {}) appears twice", input, row + 1, col + 1), kExitInvalid);
}

// Coordinate entries come in any order while blocks are written in row-major tile order, so they are all held,
// sorted, then tiled: 24 bytes per entry (twice that for the off-diagonal entries of symmetric files). On a terminal
// a progress bar follows the reading by the file's bytes; it stays full while the entries are sorted.
std::vector<SparseEntry> read_sorted_entries(MtxInput& file, const std::string& input) {
    const MtxLayout& layout = file.layout();
    const bool mirrored = layout.symmetry != MtxSymmetry::General;
    // Skew-symmetric integer files hold only i64 values (MtxInput refuses the others), so the type is known here.
    const dbdf_value_type_t type = layout.value_type();
    std::vector<SparseEntry> entries;
    // Every entry line holds at least "1 1\n": the file's size bounds what an absurd announced count may reserve.
    const std::uint64_t file_bound = file.file_size() / 4;
    entries.reserve(std::min(layout.entries, file_bound) * (mirrored ? 2 : 1));
    Progress progress(file.file_size(), "reading");
    file.read_entries([&](std::uint64_t line, std::uint64_t row, std::uint64_t col, const void* value) {
        SparseEntry entry;
        entry.row = row;
        entry.col = col;
        std::memcpy(entry.value, value, sizeof entry.value);
        entries.push_back(entry);
        progress.update(file.bytes_read());
        if (!mirrored || row == col) return;
        std::swap(entry.row, entry.col);
        if (layout.symmetry == MtxSymmetry::SkewSymmetric) negate(entry.value, type, file, line);
        entries.push_back(entry);
    });
    progress.update(file.file_size());
    std::sort(entries.begin(), entries.end(), [](const SparseEntry& a, const SparseEntry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    const auto duplicate =
        std::adjacent_find(entries.begin(), entries.end(),
                           [](const SparseEntry& a, const SparseEntry& b) { return a.row == b.row && a.col == b.col; });
    if (duplicate != entries.end()) report_duplicate(input, duplicate->row, duplicate->col);
    return entries;
}

void coordinate_to_dbdf(const MtxLayout& layout, const std::vector<SparseEntry>& entries, const OutputTarget& output,
                        const OutputSettings& settings) {
    const dbdf_value_type_t type = layout.value_type();
    if (settings.data_type != DBDF_DATA_FRAME) {
        write_sparse_tiles(output, layout.rows, layout.cols, type, settings, entries);
        return;
    }
    // Frame columns gather their cells from the sorted entries: each tile's rows are found by binary search.
    auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t height, std::uint64_t width,
                      TypedBuffer& out) {
        std::memset(out.data(), 0, out.size() * out.width());
        auto it = std::lower_bound(entries.begin(), entries.end(), row,
                                   [](const SparseEntry& e, std::uint64_t r) { return e.row < r; });
        for (; it != entries.end() && it->row < row + height; ++it) {
            if (it->col < col || it->col >= col + width) continue;
            std::memcpy(out.at((it->row - row) * width + (it->col - col)), it->value, out.width());
        }
    };
    write_frame_columns(output, layout.rows, std::vector<dbdf_value_type_t>(layout.cols, type), settings, gather);
}

// Array files list every value column by column while blocks are written in row-major tiles, so the values are
// held: 8 bytes per cell, in the 8-byte layout MtxInput gives (the value type is known once all are read). They
// arrive in the order they are kept, so the buffer grows with what was read, never with what the size line claims.
std::vector<std::uint8_t> read_array(MtxInput& file) {
    const MtxLayout& layout = file.layout();
    std::vector<std::uint8_t> values;
    // Every value line holds at least "1\n"; the size of a pipe is not known, so nothing is reserved for one.
    values.reserve(std::min(layout.entries, file.file_size() / 2) * 8);
    Progress progress(file.file_size(), "reading");
    file.read_entries([&](std::uint64_t, std::uint64_t, std::uint64_t, const void* value) {
        const auto* bytes = static_cast<const std::uint8_t*>(value);
        values.insert(values.end(), bytes, bytes + 8);
        progress.update(file.bytes_read());
    });
    return values;
}

void array_to_dbdf(const MtxLayout& layout, const std::vector<std::uint8_t>& values, const OutputTarget& output,
                   const OutputSettings& settings) {
    const dbdf_value_type_t type = layout.value_type();
    auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t height, std::uint64_t width,
                      TypedBuffer& out) {
        for (std::uint64_t r = 0; r < height; ++r) {
            for (std::uint64_t c = 0; c < width; ++c) {
                std::memcpy(out.at(r * width + c), &values[((col + c) * layout.rows + row + r) * 8], out.width());
            }
        }
    };
    if (settings.data_type == DBDF_DATA_FRAME) {
        write_frame_columns(output, layout.rows, std::vector<dbdf_value_type_t>(layout.cols, type), settings, gather);
    } else {
        write_matrix_tiles(output, layout.rows, layout.cols, type, settings, gather);
    }
}

}  // namespace

void mtx_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    MtxInput file(input);
    const MtxLayout& layout = file.layout();
    // Coordinate files become CSR objects and array files dense ones, unless --data-type says otherwise.
    OutputSettings effective = settings;
    if (effective.data_type == 0) effective.data_type = layout.coordinate ? DBDF_DATA_CSR : DBDF_DATA_DENSE;
    // Both layouts hold every entry before writing anyway; reading them first also settles an integer file's value
    // type (i64, or u64 when a value needs it), which the output's header states.
    std::vector<SparseEntry> entries;
    std::vector<std::uint8_t> array_values;
    if (layout.coordinate) {
        entries = read_sorted_entries(file, input);
    } else {
        array_values = read_array(file);
    }
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, effective, layout.rows, layout.cols, layout.value_type());
    const OutputTarget target{writer.get(), output};
    if (layout.coordinate) {
        coordinate_to_dbdf(layout, entries, target, effective);
    } else {
        array_to_dbdf(layout, array_values, target, effective);
    }
    check(dbdf_writer_finish(writer.get()), output);
}

void dbdf_to_mtx(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_checked_input(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    if (info.data_type == DBDF_DATA_FRAME) throw CliError(input + ": frames convert to .csv, not .mtx");
    const dbdf_value_type_t stored = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : info.value_type;
    const bool integer = !is_float_type(stored);
    const dbdf_value_type_t type = stored;  // read in the value type itself, printed exactly
    const bool coordinate = info.data_type == DBDF_DATA_CSR;
    std::uint64_t cells = 0;
    if (!coordinate && __builtin_mul_overflow(info.rows, info.cols, &cells)) {
        // An array file lists every cell on a line of its own; no reader can count 2^64 lines or more.
        throw CliError(fmt::format("{}: a {} x {} matrix cannot be a Matrix Market array file: it would list 2^64 "
                                   "values or more",
                                   output, info.rows, info.cols),
                       kExitInvalid);
    }
    AtomicOutput out(output);
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
            check(dbdf_reader_block_decode_coo(reader.get(), type, rows.data(), cols.data(), values.data(), count,
                                               &count),
                  input);
            std::string text;
            for (std::uint64_t k = 0; k < count; ++k) {
                fmt::format_to(std::back_inserter(text), "{} {} ", block.row + rows[k] + 1, block.col + cols[k] + 1);
                values.append_file_text(k, text);
                text += '\n';
            }
            out.write(text);
            written += count;
            progress.update(written);
        }
        check(status, input);
    } else {
        out.write(fmt::format("{} {}\n", info.rows, info.cols));
        // Column by column, as the array format is column-major, each column in pieces of about 2^20 values. An
        // object without cells has no columns to step through, however many it claims.
        constexpr std::uint64_t kPieceRows = std::uint64_t{1} << 20;
        Progress progress(info.cols);
        std::string text;
        for (std::uint64_t c = 0; c < info.cols && info.rows > 0; ++c) {
            for (std::uint64_t row = 0; row < info.rows; row += std::min(kPieceRows, info.rows - row)) {
                const std::uint64_t rows = std::min(kPieceRows, info.rows - row);
                TypedBuffer piece(type, rows);
                check(dbdf_reader_read_dense_window(reader.get(), type, row, c, rows, 1, piece.data(), rows, 1), input);
                text.clear();
                for (std::uint64_t r = 0; r < rows; ++r) {
                    piece.append_file_text(r, text);
                    text += '\n';
                }
                out.write(text);
            }
            progress.update(c + 1);
        }
    }
    out.commit();
}

}  // namespace dbdf_cli
