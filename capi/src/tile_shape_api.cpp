// dbdf_writer_tile_shape(): the writer's choice of block shape, asked without a writer.
#include <cstring>
#include <string>

#include "call_guard.hpp"
#include "conversions.hpp"
#include "dbdf.h"
#include "dbdf/tile_shape.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;
using dbdf::capi::to_value_type;
using dbdf::capi::to_write_options;

namespace {

dbdf::DataType to_data_type(const dbdf_data_type_t& data_type) {
    const int code = dbdf::capi::stored_code(data_type);
    if (code != DBDF_DATA_DENSE && code != DBDF_DATA_CSR && code != DBDF_DATA_FRAME && code != DBDF_DATA_SCALAR) {
        throw invalid_argument("data type " + std::to_string(code) +
                               " is unknown (DBDF_DATA_DENSE, DBDF_DATA_CSR, DBDF_DATA_FRAME or DBDF_DATA_SCALAR)");
    }
    return static_cast<dbdf::DataType>(code);
}

}  // namespace

extern "C" {

dbdf_status_t dbdf_writer_tile_shape(dbdf_dialect_t dialect, dbdf_data_type_t data_type, dbdf_value_type_t value_type,
                                     uint64_t rows, uint64_t cols, const dbdf_write_options_t* options,
                                     uint32_t* out_rows, uint32_t* out_cols) {
    return guarded([&] {
        require_pointer(out_rows, "out_rows");
        require_pointer(out_cols, "out_cols");
        const dbdf::BlockPlacement shape =
            dbdf::chosen_tile_shape(dbdf::capi::to_dialect(dialect), to_data_type(data_type), to_value_type(value_type),
                                    rows, cols, to_write_options(options));
        *out_rows = shape.rows;
        *out_cols = shape.cols;
        return DBDF_OK;
    });
}

}  // extern "C"
