#include "npy.hpp"

#include <algorithm>
#include <cstring>
#include <regex>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../progress.hpp"
#include "../typed_values.hpp"
#include "output_header.hpp"
#include "row_major_windows.hpp"
#include "windowed_input.hpp"

namespace dbdf_cli {
namespace {

struct DtypeName {
    const char* code;  // without the byte-order character
    dbdf_value_type_t type;
};

constexpr DtypeName kDtypes[] = {
    {"u1", DBDF_VALUE_U8},  {"u2", DBDF_VALUE_U16}, {"u4", DBDF_VALUE_U32}, {"u8", DBDF_VALUE_U64},
    {"i1", DBDF_VALUE_I8},  {"i2", DBDF_VALUE_I16}, {"i4", DBDF_VALUE_I32}, {"i8", DBDF_VALUE_I64},
    {"f4", DBDF_VALUE_F32}, {"f8", DBDF_VALUE_F64},
};

[[noreturn]] void invalid(const std::string& path, const std::string& what) { throw CliError(path + ": " + what, 1); }

std::uint64_t parse_extent(const std::string& text, const std::string& path) {
    try {
        std::size_t used = 0;
        const unsigned long long value = std::stoull(text, &used);
        if (used == text.size()) return value;
    } catch (const std::exception&) {
    }
    invalid(path, "bad shape entry '" + text + "'");
}

void swap_bytes(std::uint8_t* value, std::size_t width) { std::reverse(value, value + width); }

// NumPy counts an array's dimensions and its bytes in a signed 64-bit integer (npy_intp), so an array with a
// dimension of 2^63 or more, or whose data would take 2^63 bytes or more, cannot exist; it is refused before anything
// is written, rather than written for days and then unreadable.
void refuse_impossible_npy(const std::string& output, dbdf_value_type_t type, std::uint64_t rows, std::uint64_t cols) {
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
    std::uint64_t cells = 0;
    std::uint64_t bytes = 0;
    const bool overflows = __builtin_mul_overflow(rows, cols, &cells) ||
                           __builtin_mul_overflow(cells, dbdf_value_type_size(type), &bytes);
    const std::string what = fmt::format("{}: a {} x {} array of {} cannot be an .npy file", output, rows, cols,
                                         dbdf_value_type_name(type));
    if (rows >= kLimit || cols >= kLimit) throw CliError(what + ": NumPy's dimensions stop at 2^63 - 1", kExitInvalid);
    if (overflows || bytes >= kLimit) {
        throw CliError(what + ": its data would take 2^63 bytes or more, beyond what NumPy can address", kExitInvalid);
    }
}

}  // namespace

NpyHeader parse_npy_header(WindowedInput& file) {
    const std::string& path = file.path();
    const std::uint64_t size = file.size();
    static const std::uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size < 10) invalid(path, "not an .npy file (bad magic)");
    const std::uint8_t* data = file.bytes(0, static_cast<std::size_t>(std::min<std::uint64_t>(size, 12)));
    if (std::memcmp(data, kMagic, sizeof kMagic) != 0) invalid(path, "not an .npy file (bad magic)");
    const unsigned major = data[6];
    std::size_t header_length = 0;
    std::size_t prefix = 0;
    if (major == 1) {
        header_length = data[8] | (std::size_t{data[9]} << 8);
        prefix = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) invalid(path, "truncated .npy header");
        header_length = data[8] | (std::size_t{data[9]} << 8) | (std::size_t{data[10]} << 16) |
                        (std::size_t{data[11]} << 24);
        prefix = 12;
    } else {
        invalid(path, fmt::format("unsupported .npy format version {}.{}", major, data[7]));
    }
    if (header_length > size - prefix) invalid(path, "truncated .npy header");
    const std::string dict(reinterpret_cast<const char*>(file.bytes(prefix, header_length)), header_length);
    NpyHeader header;
    header.data_offset = prefix + header_length;

    std::smatch match;
    if (!std::regex_search(dict, match, std::regex(R"('descr'\s*:\s*'([<>|=])([a-z]\d+)')"))) {
        invalid(path, "the .npy header has no usable 'descr'");
    }
    const std::string order = match[1];
    const std::string code = match[2];
    for (const auto& dtype : kDtypes) {
        if (code == dtype.code) header.value_type = dtype.type;
    }
    if (header.value_type == DBDF_VALUE_NONE) invalid(path, "dtype '" + code + "' is not one of the ten numeric types");
    header.big_endian = order == ">" && dbdf_value_type_size(header.value_type) > 1;
    if (!std::regex_search(dict, match, std::regex(R"('fortran_order'\s*:\s*(True|False))"))) {
        invalid(path, "the .npy header has no 'fortran_order'");
    }
    header.fortran_order = match[1] == "True";
    if (!std::regex_search(dict, match, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) {
        invalid(path, "the .npy header has no 'shape'");
    }
    std::vector<std::uint64_t> shape;
    const std::string dims = match[1];
    const std::regex number(R"(\d+)");
    for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator(); ++it) {
        shape.push_back(parse_extent(it->str(), path));
    }
    if (shape.size() > 2) invalid(path, fmt::format("{}-dimensional arrays cannot be stored; only 1-D and 2-D", shape.size()));
    header.rows = shape.empty() ? 1 : shape[0];
    header.cols = shape.size() == 2 ? shape[1] : 1;
    std::uint64_t cells = 0;
    std::uint64_t data_bytes = 0;
    if (__builtin_mul_overflow(header.rows, header.cols, &cells) ||
        __builtin_mul_overflow(cells, dbdf_value_type_size(header.value_type), &data_bytes)) {
        invalid(path, "the array's shape is too large");
    }
    if (data_bytes != size - header.data_offset) {
        invalid(path, fmt::format("the array needs {} data bytes but the file holds {}", data_bytes,
                                  size - header.data_offset));
    }
    return header;
}

std::string npy_header_bytes(dbdf_value_type_t type, std::uint64_t rows, std::uint64_t cols) {
    const char* code = "f8";
    for (const auto& dtype : kDtypes) {
        if (dtype.type == type) code = dtype.code;
    }
    const char order = dbdf_value_type_size(type) == 1 ? '|' : '<';
    std::string dict = fmt::format("{{'descr': '{}{}', 'fortran_order': False, 'shape': ({}, {}), }}", order, code, rows, cols);
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

// The input is read through a window rather than mapped, so that converting it takes memory (and address space)
// for one tile and one window, whatever the file's size.
void npy_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    WindowedInput file(input);
    const NpyHeader header = parse_npy_header(file);
    const std::size_t width = dbdf_value_type_size(header.value_type);
    // A tile's cells lie in runs that are contiguous in the file: its rows in C order, its columns in Fortran order.
    auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols, TypedBuffer& out) {
        const bool fortran = header.fortran_order;
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
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, effective, header.rows, header.cols, header.value_type);
    const OutputTarget target{writer.get(), output};
    if (effective.data_type == DBDF_DATA_FRAME) {
        const std::vector<dbdf_value_type_t> column_types(header.cols, header.value_type);
        write_frame_columns(target, header.rows, column_types, effective, gather);
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
                throw CliError(input + ": the frame's columns differ in type; pick one with --value-type or convert to .csv");
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
