// A writer fed from Arrow's C stream interface: the schema becomes the header, each batch the blocks of its rows.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "dbdf/arrow.hpp"
#include "dbdf/error.hpp"
#include "dbdf/tile_shape.hpp"

namespace dbdf {

namespace {

// Releases a stream, schema or array on every path out of the import.
template <class ArrowStruct>
struct Released {
    ArrowStruct* value;
    ~Released() {
        if (value->release != nullptr) value->release(value);
    }
};

// What an Arrow format names, for messages about formats dbdf has no value type for.
std::string describe_format(std::string_view format) {
    struct Known {
        std::string_view prefix, name;
    };
    static constexpr Known kKnown[] = {
        {"n", "null"},
        {"b", "boolean"},
        {"e", "float16"},
        {"u", "string"},
        {"U", "large string"},
        {"vu", "string view"},
        {"z", "binary"},
        {"Z", "large binary"},
        {"vz", "binary view"},
        {"w:", "fixed-size binary"},
        {"d:", "decimal"},
        {"t", "date or time"},
        {"+l", "list"},
        {"+L", "large list"},
        {"+w:", "fixed-size list"},
        {"+s", "struct"},
        {"+m", "map"},
        {"+u", "union"},
        {"+r", "run-end encoded"},
        {"+v", "list view"},
    };
    for (const Known& known : kKnown) {
        if (format.starts_with(known.prefix)) return std::string(known.name) + " ('" + std::string(format) + "')";
    }
    return "'" + std::string(format) + "'";
}

[[noreturn]] void throw_stream_error(ArrowArrayStream* stream, int code, const char* step) {
    const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
    throw Error(ErrorCode::Io, std::string("the Arrow stream failed to ") + step + " (error " + std::to_string(code) +
                                   "): " + (message != nullptr ? message : "no message"));
}

struct ImportColumn {
    std::string label;
    ValueType type = ValueType::None;
    bool boolean = false;  // Arrow booleans, stored as u8 0 / 1
};

std::vector<ImportColumn> import_columns(const ArrowSchema& schema, const ArrowImportOptions& options) {
    if (std::string_view(schema.format) != "+s") {
        throw Error(ErrorCode::Unsupported, "the Arrow stream's schema is " + describe_format(schema.format) +
                                                ", not a struct of columns ('+s')");
    }
    std::vector<ImportColumn> columns;
    for (std::int64_t i = 0; i < schema.n_children; ++i) {
        const ArrowSchema& field = *schema.children[i];
        ImportColumn column;
        column.label = field.name != nullptr ? field.name : "";
        const std::string where = "column " + std::to_string(i) + " ('" + column.label + "')";
        const std::string_view format = field.format;
        if (field.dictionary != nullptr) {
            throw Error(ErrorCode::Unsupported, where + " is dictionary-encoded, which dbdf cannot store");
        }
        if (format == "b" && options.booleans_as_u8) {
            column.type = ValueType::U8;
            column.boolean = true;
        } else if (const auto type = value_type_of_arrow_format(format)) {
            column.type = *type;
        } else {
            throw Error(ErrorCode::Unsupported,
                        where + " has the Arrow type " + describe_format(format) +
                            ", which has no dbdf value type (dbdf stores u8..u64, i8..i64, f32, f64" +
                            (format == "b" ? "; booleans become u8 only when asked" : "") + ")");
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

bool bit_set(const void* bitmap, std::int64_t index) {
    return (static_cast<const std::uint8_t*>(bitmap)[index / 8] >> (index % 8) & 1) != 0;
}

// Refuses an array that holds a null among `length` entries from `offset`.
void require_no_nulls(const ArrowArray& array, std::int64_t offset, std::int64_t length, const std::string& where) {
    if (array.null_count == 0 || array.n_buffers == 0 || array.buffers[0] == nullptr) return;
    for (std::int64_t i = 0; i < length; ++i) {
        if (!bit_set(array.buffers[0], offset + i)) {
            throw Error(ErrorCode::Format, where + " holds a null (row " + std::to_string(i) +
                                               " of its batch): the format has no missing values");
        }
    }
}

struct BatchImport {
    Writer& writer;
    const std::vector<ImportColumn>& columns;
    const ArrowImportOptions& options;
    std::uint64_t rows;              // announced
    std::uint64_t rows_done = 0;     // written so far
    std::vector<std::byte> scratch;  // booleans unpacked, a matrix's rows
};

// The values of column `index` of `batch`: a pointer to the first of batch.length values of the column's type.
const void* column_values(BatchImport& import, const ArrowArray& batch, std::size_t index,
                          std::vector<std::byte>& unpacked) {
    const ImportColumn& column = import.columns[index];
    const ArrowArray& array = *batch.children[index];
    const std::string where = "column " + std::to_string(index) + " ('" + column.label + "')";
    const std::int64_t offset = batch.offset + array.offset;
    if (array.length < batch.offset + batch.length || array.n_buffers != 2 || array.buffers[1] == nullptr) {
        throw Error(ErrorCode::Format,
                    where + ": the Arrow array does not hold the batch's " + std::to_string(batch.length) + " values");
    }
    require_no_nulls(array, offset, batch.length, where);
    if (!column.boolean) {
        return static_cast<const std::byte*>(array.buffers[1]) +
               offset * static_cast<std::int64_t>(value_size(column.type));
    }
    unpacked.resize(static_cast<std::size_t>(batch.length));
    for (std::int64_t i = 0; i < batch.length; ++i) {
        unpacked[i] = std::byte{static_cast<std::uint8_t>(bit_set(array.buffers[1], offset + i) ? 1 : 0)};
    }
    return unpacked.data();
}

void import_batch(BatchImport& import, const ArrowArray& batch) {
    if (batch.n_children != static_cast<std::int64_t>(import.columns.size())) {
        throw Error(ErrorCode::Format, "an Arrow batch has " + std::to_string(batch.n_children) +
                                           " columns; the schema has " + std::to_string(import.columns.size()));
    }
    require_no_nulls(batch, batch.offset, batch.length, "a batch (its struct)");
    const auto length = static_cast<std::uint64_t>(batch.length);
    if (length > import.rows - import.rows_done) {
        throw Error(ErrorCode::Format,
                    "the Arrow stream delivers more than the " + std::to_string(import.rows) + " rows announced");
    }
    if (length == 0 || import.columns.empty()) {
        import.rows_done += length;
        return;
    }
    const Writer& writer = import.writer;
    const ObjectHeader& header = writer.header();
    const WriteOptions automatic;
    std::vector<std::byte> unpacked;
    if (!import.options.as_matrix) {
        for (std::size_t index = 0; index < import.columns.size(); ++index) {
            const ValueType type = import.columns[index].type;
            const auto* values = static_cast<const std::byte*>(column_values(import, batch, index, unpacked));
            const std::uint64_t tile_rows =
                chosen_tile_shape(writer.dialect(), DataType::Frame, type, header.rows, 1, automatic).rows;
            for (std::uint64_t done = 0; done < length; done += tile_rows) {
                const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(tile_rows, length - done));
                import.writer.add_dense(BlockPlacement{import.rows_done + done, index, rows, 1}, type,
                                        values + done * value_size(type), rows, 1, automatic);
            }
        }
    } else {
        // The batch's rows, row-major, cut into full-width bands of about the writer's tile size.
        const ValueType type = header.value_type;
        const std::size_t size = value_size(type);
        const std::size_t cols = import.columns.size();
        import.scratch.resize(length * cols * size);
        for (std::size_t index = 0; index < cols; ++index) {
            const auto* values = static_cast<const std::byte*>(column_values(import, batch, index, unpacked));
            for (std::uint64_t row = 0; row < length; ++row) {
                std::memcpy(import.scratch.data() + (row * cols + index) * size, values + row * size, size);
            }
        }
        const std::uint64_t band_rows = std::max<std::uint64_t>(
            1, chosen_tile_shape(writer.dialect(), DataType::DenseMatrix, type, header.rows, cols, automatic).rows);
        for (std::uint64_t done = 0; done < length; done += band_rows) {
            const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(band_rows, length - done));
            import.writer.add_dense(BlockPlacement{import.rows_done + done, 0, rows, static_cast<std::uint32_t>(cols)},
                                    type, import.scratch.data() + done * cols * size, rows * cols, cols, automatic);
        }
    }
    import.rows_done += length;
}

}  // namespace

void import_arrow_stream(ArrowArrayStream* stream, Writer& writer, std::uint64_t rows,
                         const ArrowImportOptions& options) {
    Released<ArrowArrayStream> stream_guard{stream};
    ArrowSchema schema{};
    if (const int code = stream->get_schema(stream, &schema); code != 0)
        throw_stream_error(stream, code, "give its schema");
    Released<ArrowSchema> schema_guard{&schema};
    const std::vector<ImportColumn> columns = import_columns(schema, options);
    if (options.as_matrix) {
        for (const ImportColumn& column : columns) {
            if (column.type != columns.front().type) {
                throw Error(ErrorCode::Unsupported,
                            "column '" + column.label + "' is " + std::string(name(column.type)) + " but column '" +
                                columns.front().label + "' is " + std::string(name(columns.front().type)) +
                                ": a matrix has one value type");
            }
        }
        if (columns.empty()) throw Error(ErrorCode::Unsupported, "a matrix needs at least one column");
        writer.begin_matrix(DataType::DenseMatrix, columns.front().type, rows, columns.size());
    } else {
        std::vector<ValueType> types;
        std::vector<std::string> labels;
        for (const ImportColumn& column : columns) {
            types.push_back(column.type);
            labels.push_back(column.label);
        }
        writer.begin_frame(rows, std::move(types), std::move(labels));
    }
    BatchImport import{writer, columns, options, rows, 0, {}};
    for (;;) {
        ArrowArray batch{};
        if (const int code = stream->get_next(stream, &batch); code != 0)
            throw_stream_error(stream, code, "give a batch");
        if (batch.release == nullptr) break;
        Released<ArrowArray> batch_guard{&batch};
        import_batch(import, batch);
    }
    if (import.rows_done != rows) {
        throw Error(ErrorCode::Format, "the Arrow stream ended after " + std::to_string(import.rows_done) + " rows; " +
                                           std::to_string(rows) + " were announced");
    }
}

}  // namespace dbdf
