#include "reencode.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "../progress.hpp"
#include "../typed_values.hpp"
#include "output_header.hpp"
#include "stored_regions.hpp"

namespace dbdf_cli {
namespace {

// The progress of a conversion that goes through the input's blocks in file order: the bytes of the blocks done.
class BlockProgress {
public:
    explicit BlockProgress(const dbdf_object_info_t& info)
        : header_bytes_(info.header_bytes), progress_(info.total_bytes - info.header_bytes) {}
    void block_done(const dbdf_block_info_t& block) {
        progress_.update(block.offset + block.encoded_bytes - header_bytes_);
    }
    // Part of a large block: `done` of its `total` rows.
    void rows_done(const dbdf_block_info_t& block, std::uint64_t done, std::uint64_t total) {
        const double share = static_cast<double>(done) / static_cast<double>(total);
        progress_.update(block.offset - header_bytes_ + static_cast<std::uint64_t>(share * block.encoded_bytes));
    }

private:
    std::uint64_t header_bytes_;
    Progress progress_;
};

// --encoding as-is: every block keeps its position, shape, block type and value type.
void copy_blocks(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output,
                 const dbdf_object_info_t& info) {
    dbdf_block_info_t block{};
    dbdf_status_t status;
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    BlockProgress progress(info);
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        const std::string where = output + ": block " + std::to_string(block.index);
        if (block.block_type == DBDF_BLOCK_EMPTY) {
            check(dbdf_writer_add_empty(writer.get(), block.row, block.col, block.rows, block.cols), where);
            progress.block_done(block);
            continue;
        }
        std::uint64_t entries = 0;
        check(dbdf_reader_block_count_entries(reader.get(), &entries), input);
        if (block.block_type == DBDF_BLOCK_DENSE) {
            TypedBuffer values(block.value_type, std::uint64_t{block.rows} * block.cols);
            check(dbdf_reader_block_decode_dense(reader.get(), block.value_type, values.data(), values.size(), 0),
                  input);
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
        progress.block_done(block);
    }
    check(status, input);
}

// Re-encoding a matrix without a new block shape: every input block is re-encoded where it stands, so time and
// memory follow the stored data, never the object's area. Empty blocks stay empty; dense blocks go to the writer in
// tiles of about 4 MiB read through the index; sparse blocks are decoded as COO triplets in the output's value type
// and handed to the writer, whose encoding option then decides how each is stored.
void reencode_in_place(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output,
                       const dbdf_object_info_t& info, const OutputSettings& settings, dbdf_value_type_t type) {
    dbdf_block_info_t block{};
    dbdf_status_t status;
    BlockProgress progress(info);
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        const std::string where =
            output + ": block at (" + std::to_string(block.row) + ", " + std::to_string(block.col) + ")";
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
                progress.rows_done(block, row + height, block.rows);
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
        progress.block_done(block);
    }
    check(status, input);
}

// The object's blocks as row bands: each band the blocks that share one row range, ordered by column and covering
// every column, the bands in row order. Empty when the blocks do not form such bands (blocks of different heights
// side by side, which the format allows).
std::optional<std::vector<std::vector<dbdf_block_info_t>>> row_bands(const Reader& reader, const std::string& input,
                                                                     const dbdf_object_info_t& info) {
    std::uint64_t count = 0;
    check(dbdf_reader_build_index(reader.get(), &count), input);
    std::vector<dbdf_block_info_t> blocks(count);
    for (std::uint64_t i = 0; i < count; ++i) check(dbdf_reader_index_entry(reader.get(), i, &blocks[i]), input);
    std::sort(blocks.begin(), blocks.end(), [](const dbdf_block_info_t& a, const dbdf_block_info_t& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    std::vector<std::vector<dbdf_block_info_t>> bands;
    std::uint64_t next_row = 0;
    for (const dbdf_block_info_t& block : blocks) {
        if (block.col == 0) {
            if (block.row != next_row) return std::nullopt;
            bands.emplace_back();
            next_row = block.row + block.rows;
        } else if (bands.empty()) {
            return std::nullopt;
        } else {
            const dbdf_block_info_t& left = bands.back().back();
            const bool beside = block.row == left.row && block.rows == left.rows && block.col == left.col + left.cols;
            if (!beside) return std::nullopt;
        }
        bands.back().push_back(block);
    }
    for (const auto& band : bands) {
        if (band.back().col + band.back().cols != info.cols) return std::nullopt;
    }
    if (next_row != info.rows) return std::nullopt;
    return bands;
}

// The object's entries as CSR with object-wide indices, gathered into the output arrays.
struct WholeCsr {
    std::vector<std::uint64_t> row_offsets;
    std::vector<std::uint64_t> col_indices;
    TypedBuffer values;
    std::uint64_t placed = 0;  // entries gathered so far
};

// Appends one band's rows to `csr`. A band of one block is decoded straight into place (its column indices through
// a 4-byte buffer); the blocks of a wider band are decoded one by one, then their rows interleaved.
void append_band(const Reader& reader, const std::string& input, const std::vector<dbdf_block_info_t>& band,
                 WholeCsr& csr) {
    const dbdf_value_type_t type = csr.values.type();
    const std::uint64_t band_row = band.front().row;
    const std::uint64_t band_rows = band.front().rows;
    auto entries_of = [&](const dbdf_block_info_t& block) {
        check(dbdf_reader_seek_block(reader.get(), block.index), input);
        std::uint64_t count = 0;
        check(dbdf_reader_block_count_entries(reader.get(), &count), input);
        return count;
    };
    if (band.size() == 1) {
        std::uint64_t count = entries_of(band.front());
        std::vector<std::uint32_t> cols(count);
        std::uint64_t* offsets = &csr.row_offsets[band_row];
        check(dbdf_reader_block_decode_csr(reader.get(), type, offsets, band_rows + 1, cols.data(),
                                           csr.values.at(csr.placed), count, &count),
              input);
        for (std::uint64_t r = 0; r <= band_rows; ++r) offsets[r] += csr.placed;
        std::copy(cols.begin(), cols.end(), csr.col_indices.begin() + static_cast<std::ptrdiff_t>(csr.placed));
        csr.placed += count;
        return;
    }
    struct Decoded {
        std::vector<std::uint64_t> row_offsets;
        std::vector<std::uint32_t> col_indices;
        TypedBuffer values;
    };
    std::vector<Decoded> decoded;
    for (const dbdf_block_info_t& block : band) {
        std::uint64_t count = entries_of(block);
        Decoded block_csr{std::vector<std::uint64_t>(band_rows + 1), std::vector<std::uint32_t>(count),
                          TypedBuffer(type, count)};
        check(dbdf_reader_block_decode_csr(reader.get(), type, block_csr.row_offsets.data(), band_rows + 1,
                                           block_csr.col_indices.data(), block_csr.values.data(), count, &count),
              input);
        decoded.push_back(std::move(block_csr));
    }
    for (std::uint64_t r = 0; r < band_rows; ++r) {
        for (std::size_t b = 0; b < band.size(); ++b) {
            const Decoded& block_csr = decoded[b];
            for (std::uint64_t k = block_csr.row_offsets[r]; k < block_csr.row_offsets[r + 1]; ++k) {
                csr.col_indices[csr.placed] = band[b].col + block_csr.col_indices[k];
                std::memcpy(csr.values.at(csr.placed), block_csr.values.at(k), csr.values.width());
                ++csr.placed;
            }
        }
        csr.row_offsets[band_row + r + 1] = csr.placed;
    }
}

// A CSR matrix as one call (the daphne dialect stores one block): the whole object's entries, so memory follows
// what is stored, not the matrix's area. The entries are gathered band by band, so that a progress bar can follow
// the input's blocks; besides the output they take one band's entries (one block's column indices when a band is
// one block). Blocks that do not form bands are read in one call, without progress.
void write_whole_csr(const Reader& reader, const Writer& writer, const std::string& input, const std::string& output,
                     const dbdf_object_info_t& info, dbdf_value_type_t type) {
    std::uint64_t entries = 0;
    check(dbdf_reader_count_entries(reader.get(), &entries), input);
    WholeCsr csr{std::vector<std::uint64_t>(info.rows + 1), std::vector<std::uint64_t>(entries),
                 TypedBuffer(type, entries)};
    const auto bands = row_bands(reader, input, info);
    if (bands) {
        Progress progress(info.total_bytes - info.header_bytes);
        std::uint64_t done = 0;
        for (const auto& band : *bands) {
            append_band(reader, input, band, csr);
            for (const dbdf_block_info_t& block : band) done += block.encoded_bytes;
            progress.update(done);
        }
    } else {
        check(dbdf_reader_read_csr(reader.get(), type, csr.row_offsets.data(), csr.row_offsets.size(),
                                   csr.col_indices.data(), csr.values.data(), entries, &entries),
              input);
    }
    check(dbdf_writer_write_csr(writer.get(), type, csr.row_offsets.data(), csr.col_indices.data(), csr.values.data(),
                                entries, nullptr),
          output);
}

}  // namespace

void dbdf_to_dbdf(const std::string& input, const std::string& output, const OutputSettings& settings) {
    Reader reader = open_checked_input(input, settings.input_dialect);
    const dbdf_object_info_t info = object_info(reader, input);
    // A frame's column types and labels, which its header holds one by one (so their number is bounded by the file's
    // size); a matrix has one value type, however many columns it has.
    std::vector<std::string> labels;
    std::vector<dbdf_value_type_t> types;
    for (std::uint64_t c = 0; c < info.cols && info.data_type == DBDF_DATA_FRAME; ++c) {
        types.push_back(column_type(reader, input, c));
        labels.push_back(column_label(reader, input, c));
    }
    Writer writer = open_writer(output, settings.output_dialect, settings.write_meta);
    begin_output(writer, output, settings, info.rows, info.cols, info.value_type, info.data_type, labels, types);
    if (settings.keep_blocks) {
        copy_blocks(reader, writer, input, output, info);
    } else {
        // Values are read in the output's declared types, so a --value-type that does not fit fails (rule 8).
        const bool frame = (settings.data_type != 0 ? settings.data_type : info.data_type) == DBDF_DATA_FRAME;
        auto output_type = [&](std::uint64_t column) {
            if (settings.value_type != DBDF_VALUE_NONE) return settings.value_type;
            return info.data_type == DBDF_DATA_FRAME ? types[column] : info.value_type;
        };
        auto gather = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows, std::uint64_t cols,
                          TypedBuffer& out) {
            check(dbdf_reader_read_dense_window(reader.get(), out.type(), row, col, rows, cols, out.data(), out.size(),
                                                0),
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
            const OutputSettings effective = with_output_data_type(settings, info.data_type);
            if (settings.output_dialect == DBDF_DIALECT_DAPHNE && effective.data_type == DBDF_DATA_CSR) {
                write_whole_csr(reader, writer, input, output, info, type);
            } else if (new_block_shape || settings.output_dialect == DBDF_DIALECT_DAPHNE) {
                // Daphne output: a dense matrix in full-width row bands, a scalar whole (tile_shape). Tiles that lie
                // in the input's empty blocks are not read (StoredRegions).
                StoredRegions stored(reader, input);
                auto may_hold_values = [&](std::uint64_t row, std::uint64_t col, std::uint64_t rows,
                                           std::uint64_t cols) { return stored.intersects(row, col, rows, cols); };
                write_matrix_tiles(OutputTarget{writer.get(), output}, info.rows, info.cols, type, effective, gather,
                                   may_hold_values);
            } else {
                reencode_in_place(reader, writer, input, output, info, settings, type);
            }
        }
    }
    check(dbdf_writer_finish(writer.get()), output);
}

}  // namespace dbdf_cli
