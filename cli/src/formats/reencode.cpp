#include "reencode.hpp"

#include <algorithm>
#include <vector>

#include "../progress.hpp"
#include "../typed_values.hpp"
#include "output_header.hpp"

namespace dbdf_cli {
namespace {

// --encoding as-is: every block keeps its position, shape, block type and value type.
void copy_blocks(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output) {
    dbdf_block_info_t block{};
    dbdf_status_t status;
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        const std::string where = output + ": block " + std::to_string(block.index);
        if (block.block_type == DBDF_BLOCK_EMPTY) {
            check(dbdf_writer_add_empty(writer.get(), block.row, block.col, block.rows, block.cols), where);
            continue;
        }
        std::uint64_t entries = 0;
        check(dbdf_reader_block_count_entries(reader.get(), &entries), input);
        if (block.block_type == DBDF_BLOCK_DENSE) {
            TypedBuffer values(block.value_type, std::uint64_t{block.rows} * block.cols);
            check(dbdf_reader_block_decode_dense(reader.get(), block.value_type, values.data(), values.size(), 0), input);
            check(dbdf_writer_add_dense(writer.get(), block.row, block.col, block.rows, block.cols, block.value_type,
                                        values.data(), values.size(), 0, &as_given),
                  where);
        } else if (block.block_type == DBDF_BLOCK_CSR) {
            std::vector<std::uint64_t> row_offsets(std::uint64_t{block.rows} + 1);
            std::vector<std::uint32_t> cols(entries);
            TypedBuffer values(block.value_type, entries);
            check(dbdf_reader_block_decode_csr(reader.get(), block.value_type, row_offsets.data(), row_offsets.size(),
                                               cols.data(), values.data(), entries, &entries),
                  input);
            check(dbdf_writer_add_csr(writer.get(), block.row, block.col, block.rows, block.cols, block.value_type,
                                      row_offsets.data(), cols.data(), values.data(), entries, &as_given),
                  where);
        } else {
            std::vector<std::uint32_t> rows(entries), cols(entries);
            TypedBuffer values(block.value_type, entries);
            check(dbdf_reader_block_decode_coo(reader.get(), block.value_type, rows.data(), cols.data(), values.data(),
                                               entries, &entries),
                  input);
            check(dbdf_writer_add_coo(writer.get(), block.row, block.col, block.rows, block.cols, block.value_type,
                                      rows.data(), cols.data(), values.data(), entries, &as_given),
                  where);
        }
    }
    check(status, input);
}

// Re-encoding a matrix without a new block shape: every input block is re-encoded where it stands, so time and
// memory follow the stored data, never the object's area. Empty blocks stay empty; dense blocks go to the writer in
// tiles of about 4 MiB read through the index; sparse blocks are decoded as COO triplets in the output's value type
// and handed to the writer, whose encoding option then decides how each is stored.
void reencode_in_place(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output,
                       const OutputSettings& settings, dbdf_value_type_t type) {
    dbdf_block_info_t block{};
    dbdf_status_t status;
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        const std::string where = output + ": block at (" + std::to_string(block.row) + ", " + std::to_string(block.col) + ")";
        if (block.block_type == DBDF_BLOCK_EMPTY) {
            check(dbdf_writer_add_empty(writer.get(), block.row, block.col, block.rows, block.cols), where);
        } else if (block.block_type == DBDF_BLOCK_DENSE) {
            const TileShape tile = tile_shape(settings, block.rows, block.cols, type);
            for (std::uint64_t row = 0; row < block.rows; row += tile.rows) {
                const std::uint64_t height = std::min<std::uint64_t>(tile.rows, block.rows - row);
                for (std::uint64_t col = 0; col < block.cols; col += tile.cols) {
                    const std::uint64_t width = std::min<std::uint64_t>(tile.cols, block.cols - col);
                    TypedBuffer values(type, height * width);
                    check(dbdf_reader_read_dense_window(reader.get(), type, block.row + row, block.col + col, height,
                                                        width, values.data(), values.size(), 0),
                          input);
                    check(dbdf_writer_add_dense(writer.get(), block.row + row, block.col + col,
                                                static_cast<std::uint32_t>(height), static_cast<std::uint32_t>(width),
                                                type, values.data(), values.size(), 0, &settings.options),
                          where);
                }
            }
        } else {
            std::uint64_t entries = 0;
            check(dbdf_reader_block_count_entries(reader.get(), &entries), input);
            std::vector<std::uint32_t> rows(entries), cols(entries);
            TypedBuffer values(type, entries);
            check(dbdf_reader_block_decode_coo(reader.get(), type, rows.data(), cols.data(), values.data(), entries,
                                               &entries),
                  input);
            check(dbdf_writer_add_coo(writer.get(), block.row, block.col, block.rows, block.cols, type, rows.data(),
                                      cols.data(), values.data(), entries, &settings.options),
                  where);
        }
    }
    check(status, input);
}

// A CSR matrix as one call (the daphne dialect stores one block): the whole object's entries, so memory follows
// what is stored, not the matrix's area.
void write_whole_csr(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output,
                     std::uint64_t rows, dbdf_value_type_t type) {
    std::uint64_t entries = 0;
    check(dbdf_reader_count_entries(reader.get(), &entries), input);
    std::vector<std::uint64_t> row_offsets(rows + 1), col_indices(entries);
    TypedBuffer values(type, entries);
    check(dbdf_reader_read_csr(reader.get(), type, row_offsets.data(), row_offsets.size(), col_indices.data(),
                               values.data(), entries, &entries),
          input);
    check(dbdf_writer_write_csr(writer.get(), type, row_offsets.data(), col_indices.data(), values.data(), entries,
                                nullptr),
          output);
}

}  // namespace

void dbdf_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_reader(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    std::vector<std::string> labels;
    std::vector<dbdf_value_type_t> types(info.cols);
    for (std::uint64_t c = 0; c < info.cols; ++c) {
        types[c] = column_type(reader, input, c);
        if (info.data_type == DBDF_DATA_FRAME) labels.push_back(column_label(reader, input, c));
    }
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, settings, info.rows, info.cols, info.value_type, info.data_type, labels, types);
    if (settings.keep_blocks) {
        copy_blocks(reader, writer, input, output);
    } else {
        // Values are read in the output's declared types, so a --value-type that does not fit fails (rule 8).
        const bool frame = (settings.data_type != 0 ? settings.data_type : info.data_type) == DBDF_DATA_FRAME;
        auto output_type = [&](std::uint64_t column) {
            return settings.value_type != DBDF_VALUE_NONE ? settings.value_type : types[column];
        };
        auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols, TypedBuffer& out) {
            check(dbdf_reader_read_dense_window(reader.get(), out.type(), row, col, rows, cols, out.data(), out.size(), 0),
                  input);
        };
        if (frame) {
            std::vector<dbdf_value_type_t> output_types(info.cols);
            for (std::uint64_t c = 0; c < info.cols; ++c) output_types[c] = output_type(c);
            write_frame_columns(OutputTarget{writer.get(), output}, info.rows, output_types, settings, gather);
        } else {
            dbdf_value_type_t type = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : info.value_type;
            if (type == DBDF_VALUE_NONE) type = types.empty() ? DBDF_VALUE_F64 : types[0];
            const bool new_block_shape = settings.options.block_rows != 0 || settings.options.block_cols != 0;
            const int output_data_type = settings.data_type != 0 ? settings.data_type : info.data_type;
            if (settings.output_dialect == DBDF_DIALECT_DAPHNE && output_data_type == DBDF_DATA_CSR) {
                write_whole_csr(reader, writer, input, output, info.rows, type);
            } else if (new_block_shape || settings.output_dialect == DBDF_DIALECT_DAPHNE) {
                write_matrix_tiles(OutputTarget{writer.get(), output}, info.rows, info.cols, type, settings, gather);
            } else {
                reencode_in_place(reader, writer, input, output, settings, type);
            }
        }
    }
    check(dbdf_writer_finish(writer.get()), output);
}

}  // namespace dbdf_cli
