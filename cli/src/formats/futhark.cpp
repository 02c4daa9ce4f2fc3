#include "futhark.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../typed_values.hpp"
#include "futhark_values.hpp"
#include "output_header.hpp"
#include "row_major_windows.hpp"

namespace dbdf_cli {
namespace {

constexpr std::uint64_t kWindowBytes = std::uint64_t{4} << 20;

// Copies `count` elements of `value` from `cells` (the file's bytes) to `out`, in the dbdf type they are read into:
// f16 widened to f32, bool checked to be 0 or 1 (Futhark leaves other bytes undefined, so they are refused).
void copy_elements(const FutharkValue& value, const std::string& path, std::uint64_t first, const std::uint8_t* cells,
                   std::uint64_t count, std::uint8_t* out) {
    const FutharkElement& element = *value.element;
    if (element.is_f16) {
        for (std::uint64_t k = 0; k < count; ++k) {
            const float widened = f16_to_f32(static_cast<std::uint16_t>(cells[2 * k] | (cells[2 * k + 1] << 8)));
            std::memcpy(out + 4 * k, &widened, 4);
        }
        return;
    }
    if (element.is_bool) {
        for (std::uint64_t k = 0; k < count; ++k) {
            if (cells[k] > 1) {
                throw CliError(fmt::format("{}: byte {}: bool element {} is {}, not 0 or 1", path,
                                           value.data_offset + first + k, first + k, cells[k]),
                               kExitInvalid);
            }
        }
    }
    std::memcpy(out, cells, count * element.width);
}

// Reads `count` elements of `value` from element `first` on into `out`.
void read_elements(WindowedInput& file, const FutharkValue& value, std::uint64_t first, std::uint64_t count,
                   std::uint8_t* out) {
    const std::size_t width = value.element->width;
    const std::size_t out_width = dbdf_value_type_size(value.element->value_type);
    // In pieces no larger than the input's window.
    const std::uint64_t piece = std::max<std::uint64_t>(1, WindowedInput::kWindowBytes / width);
    for (std::uint64_t done = 0; done < count; done += piece) {
        const std::uint64_t n = std::min(piece, count - done);
        const std::uint8_t* cells = file.bytes(value.data_offset + (first + done) * width, n * width);
        copy_elements(value, file.path(), first + done, cells, n, out + done * out_width);
    }
}

}  // namespace

void futhark_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    WindowedInput file(input);
    const std::vector<FutharkValue> values = read_futhark_values(file);
    const bool columns = values.size() > 1;
    const std::uint64_t rows = values[0].rows;  // several values are columns of one length (read_futhark_values)
    const std::uint64_t cols = columns ? values.size() : values[0].cols;
    std::vector<dbdf_value_type_t> column_types;
    for (const FutharkValue& value : values) column_types.push_back(value.element->value_type);
    const bool one_type = std::all_of(column_types.begin(), column_types.end(),
                                      [&](dbdf_value_type_t type) { return type == column_types[0]; });
    // Several values make a frame unless --data-type asks for a matrix (of their one type, or --value-type).
    const OutputSettings effective =
        with_output_data_type(settings, columns ? DBDF_DATA_FRAME : static_cast<int>(DBDF_DATA_DENSE));
    const dbdf_value_type_t matrix_type = one_type ? column_types[0] : DBDF_VALUE_NONE;
    if (columns && !one_type && effective.data_type != DBDF_DATA_FRAME) {
        throw CliError(fmt::format("{}: its {} values differ in element type, so they make a frame, not a matrix "
                                   "(--data-type)",
                                   input, values.size()),
                       kExitInvalid);
    }
    auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t tile_rows, std::uint64_t tile_cols,
                      TypedBuffer& out) {
        if (columns) {
            if (tile_cols == 1) {  // a frame's column, or a one-column tile: contiguous in the file
                read_elements(file, values[col], row, tile_rows, out.at(0));
                return;
            }
            // A matrix made of several values (--data-type dense): each column's run is read whole, then spread.
            TypedBuffer column(out.type(), tile_rows);
            for (std::uint64_t c = 0; c < tile_cols; ++c) {
                read_elements(file, values[col + c], row, tile_rows, column.at(0));
                for (std::uint64_t r = 0; r < tile_rows; ++r) {
                    std::memcpy(out.at(r * tile_cols + c), column.at(r), out.width());
                }
            }
            return;
        }
        for (std::uint64_t r = 0; r < tile_rows; ++r) {
            read_elements(file, values[0], (row + r) * cols + col, tile_cols, out.at(r * tile_cols));
        }
    };
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, effective, rows, cols, matrix_type, columns ? DBDF_DATA_FRAME : DBDF_DATA_DENSE, {},
                 column_types);
    const OutputTarget target{writer.get(), output};
    if (effective.data_type == DBDF_DATA_FRAME) {
        write_frame_columns(target, rows, column_types, effective, gather);
    } else {
        write_matrix_tiles(target, rows, cols, matrix_type, effective, gather);
    }
    check(dbdf_writer_finish(writer.get()), output);
}

namespace {

// Futhark leaves a bool byte other than 0 and 1 undefined, so with --bool every value of a window read at (row, col),
// window_cols wide, must be one of those.
void refuse_non_bool(const TypedBuffer& values, bool as_bool, const std::string& input, std::uint64_t row,
                     std::uint64_t col, std::uint64_t window_cols) {
    if (!as_bool) return;
    for (std::size_t k = 0; k < values.size(); ++k) {
        const std::uint8_t byte = *values.at(k);
        if (byte > 1) {
            throw CliError(fmt::format("{}: value {} at ({}, {}) cannot be a Futhark bool (--bool): only 0 and 1 can",
                                       input, byte, row + k / window_cols, col + k % window_cols),
                           kExitInvalid);
        }
    }
}

}  // namespace

void dbdf_to_futhark(const std::string& input, const std::string& output, const OutputSettings& settings,
                     const FutharkOutputOptions& options) {
    Reader reader = open_checked_input(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    if (info.data_type == DBDF_DATA_CSR && !options.densify) {
        throw CliError(fmt::format("{}: a sparse (CSR) {} x {} matrix: Futhark arrays are dense; give --densify to "
                                   "write all of its cells",
                                   input, info.rows, info.cols),
                       kExitInvalid);
    }
    const bool frame = info.data_type == DBDF_DATA_FRAME;
    auto output_type = [&](dbdf_value_type_t stored) {
        return settings.value_type != DBDF_VALUE_NONE ? settings.value_type : stored;
    };
    // --bool turns u8 values into bool: a matrix's, or a frame's u8 columns (its other columns stay as they are).
    // Asked for where there is nothing of u8, it is refused rather than ignored.
    if (options.bool_elements) {
        bool any_u8 = !frame && output_type(info.value_type) == DBDF_VALUE_U8;
        for (std::uint64_t c = 0; frame && c < info.cols; ++c) {
            any_u8 = any_u8 || output_type(column_type(reader, input, c)) == DBDF_VALUE_U8;
        }
        if (!any_u8) {
            throw CliError(
                fmt::format("{}: --bool writes u8 values as Futhark bool, and the {} holds none (convert "
                            "them with --value-type u8)",
                            input, frame ? "frame" : "matrix"));
        }
    }
    AtomicOutput out(output);
    if (frame) {  // one rank-1 array per column, each in its column's type
        for (std::uint64_t c = 0; c < info.cols; ++c) {
            const dbdf_value_type_t type = output_type(column_type(reader, input, c));
            const bool as_bool = options.bool_elements && type == DBDF_VALUE_U8;
            out.write(futhark_value_header(futhark_element_of(type, as_bool), 1, info.rows, 0));
            const std::uint64_t band = std::max<std::uint64_t>(1, kWindowBytes / dbdf_value_type_size(type));
            for (std::uint64_t row = 0; row < info.rows; row += band) {
                const std::uint64_t height = std::min(band, info.rows - row);
                TypedBuffer values(type, height);
                check(dbdf_reader_read_dense_window(reader.get(), type, row, c, height, 1, values.data(), values.size(),
                                                    0),
                      input);
                refuse_non_bool(values, as_bool, input, row, c, 1);
                out.write(values.data(), values.size() * values.width());
            }
        }
        out.commit();
        return;
    }
    // The smallest rank that holds the shape: 1 x 1 a scalar, n x 1 an array, anything else a rank-2 array.
    const unsigned rank = info.rows == 1 && info.cols == 1 ? 0 : info.cols == 1 ? 1 : 2;
    const dbdf_value_type_t type = output_type(info.value_type);
    out.write(futhark_value_header(futhark_element_of(type, options.bool_elements), rank, info.rows, info.cols));
    const std::uint64_t window_values = std::max<std::uint64_t>(1, kWindowBytes / dbdf_value_type_size(type));
    for_each_row_major_window(info.rows, info.cols, window_values, [&](const RowMajorWindow& window) {
        TypedBuffer values(type, window.rows * window.cols);
        check(dbdf_reader_read_dense_window(reader.get(), type, window.row, window.col, window.rows, window.cols,
                                            values.data(), values.size(), 0),
              input);
        refuse_non_bool(values, options.bool_elements, input, window.row, window.col, window.cols);
        out.write(values.data(), values.size() * values.width());
    });
    out.commit();
}

}  // namespace dbdf_cli
