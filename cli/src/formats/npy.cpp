#include "npy.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../progress.hpp"
#include "../typed_values.hpp"
#include "output_header.hpp"
#include "row_major_windows.hpp"
#include "guarded_mapping.hpp"
#include "mapped_matrix.hpp"
#include "windowed_input.hpp"

namespace dbdf_cli {
namespace {

void swap_bytes(std::uint8_t* value, std::size_t width) { std::reverse(value, value + width); }

// NumPy counts an array's dimensions and its bytes in a signed 64-bit integer (npy_intp), so an array with a
// dimension of 2^63 or more, or whose data would take 2^63 bytes or more, cannot exist; it is refused before anything
// is written, rather than written for days and then unreadable.
void refuse_impossible_npy(const std::string& output, dbdf_value_type_t type, std::uint64_t rows, std::uint64_t cols) {
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
    std::uint64_t cells = 0;
    std::uint64_t bytes = 0;
    const bool overflows =
        __builtin_mul_overflow(rows, cols, &cells) || __builtin_mul_overflow(cells, dbdf_value_type_size(type), &bytes);
    const std::string what =
        fmt::format("{}: a {} x {} array of {} cannot be an .npy file", output, rows, cols, dbdf_value_type_name(type));
    if (rows >= kLimit || cols >= kLimit) throw CliError(what + ": NumPy's dimensions stop at 2^63 - 1", kExitInvalid);
    if (overflows || bytes >= kLimit) {
        throw CliError(what + ": its data would take 2^63 bytes or more, beyond what NumPy can address", kExitInvalid);
    }
}

}  // namespace

std::string npy_header_bytes(dbdf_value_type_t type, std::uint64_t rows, std::uint64_t cols) {
    const std::string code = npy_dtype_code(type);
    const char order = dbdf_value_type_size(type) == 1 ? '|' : '<';
    std::string dict =
        fmt::format("{{'descr': '{}{}', 'fortran_order': False, 'shape': ({}, {}), }}", order, code, rows, cols);
    // Version 1.0 when the length fits 16 bits; the whole header is padded to a multiple of 64 bytes.
    const bool version_one = dict.size() + 1 + 10 <= 65535;
    const std::size_t prefix = version_one ? 10 : 12;
    const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict.push_back('\n');
    std::string out("\x93NUMPY", 6);
    out.push_back(static_cast<char>(version_one ? 1 : 2));
    out.push_back('\0');
    const std::size_t length = dict.size();
    out.push_back(static_cast<char>(length & 0xFF));
    out.push_back(static_cast<char>((length >> 8) & 0xFF));
    if (!version_one) {
        out.push_back(static_cast<char>((length >> 16) & 0xFF));
        out.push_back(static_cast<char>((length >> 24) & 0xFF));
    }
    return out + dict;
}

// The input is read through a window, or for tiles of whole rows mapped a window at a time (GuardedMapping), so that
// converting it takes memory (and address space) for one tile and one window, whatever the file's size.
void npy_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    WindowedInput file(input);
    const NpyHeader header = parse_npy_header(file);
    const std::size_t width = dbdf_value_type_size(header.value_type);
    // A tile's cells lie in runs that are contiguous in the file: its rows in C order, its columns in Fortran order.
    auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols, TypedBuffer& out) {
        const bool fortran = header.fortran_order;
        // A tile of whole rows (the automatic tiles of a C-order array are: full-width bands, or pieces of one row)
        // lies in the file as it lies in memory: it is read into the tile buffer at once, not through the window.
        const bool contiguous = !fortran && (cols == header.cols || rows == 1);
        if (contiguous && !header.big_endian) {
            file.read_into(header.data_offset + (row * header.cols + col) * width, rows * cols * width, out.at(0));
            return;
        }
        const std::uint64_t runs = fortran ? cols : rows;
        const std::uint64_t run_cells = fortran ? rows : cols;
        for (std::uint64_t run = 0; run < runs; ++run) {
            const std::uint64_t first = fortran ? (col + run) * header.rows + row : (row + run) * header.cols + col;
            const std::uint8_t* cells = file.bytes(header.data_offset + first * width, run_cells * width);
            if (!fortran && !header.big_endian) {
                std::memcpy(out.at(run * cols), cells, run_cells * width);
                continue;
            }
            for (std::uint64_t k = 0; k < run_cells; ++k) {
                std::uint8_t* cell = out.at(fortran ? k * cols + run : run * cols + k);
                std::memcpy(cell, cells + k * width, width);
                if (header.big_endian) swap_bytes(cell, width);
            }
        }
    };
    const OutputSettings effective = with_output_data_type(settings);
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta, kMappedMatrixEncodeThreads);
    begin_output(writer, output, effective, header.rows, header.cols, header.value_type);
    const OutputTarget target{writer.get(), output};
    if (effective.data_type == DBDF_DATA_FRAME) {
        const std::vector<dbdf_value_type_t> column_types(header.cols, header.value_type);
        write_frame_columns(target, header.rows, column_types, effective, gather);
    } else if (!header.fortran_order && !header.big_endian) {
        // The values are written from a read-only mapping of the input, without a copy (guarded_mapping.hpp says what
        // happens when the file shrinks meanwhile): the whole matrix by one write_dense call (mapped_matrix.hpp) in
        // the spec dialect, whose blocks are the tiles below; otherwise tiles of whole rows from
        // mapping windows, and other tiles, or all of them when nothing can be mapped, gathered from the window.
        GuardedMapping mapped(input);
        const bool whole = effective.output_dialect == DBDF_DIALECT_SPEC &&
                           write_mapped_matrix(target, mapped, header.data_offset, header.rows, header.cols,
                                               header.value_type, effective);
        auto borrow = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols) {
            const bool contiguous = cols == header.cols || rows == 1;
            return contiguous ? static_cast<const void*>(mapped.bytes(
                                    header.data_offset + (row * header.cols + col) * width, rows * cols * width))
                              : nullptr;
        };
        if (!whole) {
            reporting_shrink(mapped, [&] {
                write_matrix_tiles(target, header.rows, header.cols, header.value_type, effective, gather, nullptr,
                                   borrow);
            });
        }
    } else {
        write_matrix_tiles(target, header.rows, header.cols, header.value_type, effective, gather);
    }
    check(dbdf_writer_finish(writer.get()), output);
}

void dbdf_to_npy(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_checked_input(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    dbdf_value_type_t type = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : info.value_type;
    if (type == DBDF_VALUE_NONE) {  // a frame: one dtype is needed for the whole array
        for (std::uint64_t c = 0; c < info.cols; ++c) {
            const dbdf_value_type_t column = column_type(reader, input, c);
            if (c > 0 && column != type) {
                throw CliError(input +
                               ": the frame's columns differ in type; pick one with --value-type or convert to .csv");
            }
            type = column;
        }
        if (type == DBDF_VALUE_NONE) type = DBDF_VALUE_F64;
    }
    refuse_impossible_npy(output, type, info.rows, info.cols);
    AtomicOutput out(output);
    out.write(npy_header_bytes(type, info.rows, info.cols));
    // Rows in bands of about 4 MiB, or a row too long for that in pieces of 4 MiB.
    const std::uint64_t window_values = (std::uint64_t{4} << 20) / dbdf_value_type_size(type);
    Progress progress(info.rows);
    for_each_row_major_window(info.rows, info.cols, window_values, [&](const RowMajorWindow& window) {
        TypedBuffer values(type, window.rows * window.cols);
        check(dbdf_reader_read_dense_window(reader.get(), type, window.row, window.col, window.rows, window.cols,
                                            values.data(), values.size(), 0),
              input);
        out.write(values.data(), values.size() * values.width());
        if (window.ends_rows) progress.update(window.row + window.rows);
    });
    out.commit();
}

}  // namespace dbdf_cli
