#include "output_header.hpp"

namespace dbdf_cli {

int output_data_type(const OutputSettings& settings, int input_data_type) {
    const int data_type = settings.data_type != 0 ? settings.data_type : input_data_type;
    // A daphne scalar stays one in a daphne output, so the runtime's bytes come back unchanged; the spec has no
    // scalar, so there it becomes a 1 x 1 dense matrix.
    if (data_type == DBDF_DATA_SCALAR && settings.output_dialect != DBDF_DIALECT_DAPHNE) return DBDF_DATA_DENSE;
    return data_type;
}

OutputSettings with_output_data_type(const OutputSettings& settings, int input_data_type) {
    OutputSettings resolved = settings;
    resolved.data_type = output_data_type(settings, input_data_type);
    return resolved;
}

void begin_output(const Writer& writer, const std::string& output, const OutputSettings& settings, std::uint64_t rows,
                  std::uint64_t cols, dbdf_value_type_t input_type, int input_data_type,
                  const std::vector<std::string>& labels, const std::vector<dbdf_value_type_t>& column_types) {
    const int data_type = output_data_type(settings, input_data_type);
    if (data_type != DBDF_DATA_FRAME) {
        dbdf_value_type_t type = settings.value_type != DBDF_VALUE_NONE ? settings.value_type : input_type;
        if (type == DBDF_VALUE_NONE) {
            throw CliError(output + ": the input's columns differ in type; choose the matrix's with --value-type");
        }
        check(dbdf_writer_begin_matrix(writer.get(), static_cast<dbdf_data_type_t>(data_type), type, rows, cols),
              output);
        return;
    }
    std::vector<dbdf_value_type_t> types(cols);
    std::vector<std::string> names(cols);
    std::vector<const char*> name_pointers(cols);
    std::vector<size_t> name_lengths(cols);
    for (std::uint64_t c = 0; c < cols; ++c) {
        types[c] = settings.value_type != DBDF_VALUE_NONE ? settings.value_type
                   : c < column_types.size()              ? column_types[c]
                                                          : input_type;
        names[c] = c < labels.size() ? labels[c] : "col_" + std::to_string(c);
        name_pointers[c] = names[c].data();
        name_lengths[c] = names[c].size();
    }
    check(dbdf_writer_begin_frame(writer.get(), rows, cols, types.data(), name_pointers.data(), name_lengths.data()),
          output);
}

}  // namespace dbdf_cli
