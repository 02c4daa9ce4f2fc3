// Conversions between the C enums/structs of dbdf.h and the core's types, with validation of caller values.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "call_guard.hpp"
#include "dbdf.h"
#include "dbdf/block.hpp"
#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::capi {

inline ValueType to_value_type(dbdf_value_type_t type) {
    const auto code = static_cast<int>(type);
    if (code < 1 || code > 10) {
        throw invalid_argument("value type " + std::to_string(code) + " is not one of DBDF_VALUE_U8..DBDF_VALUE_F64");
    }
    return static_cast<ValueType>(code);
}

inline WriteOptions to_write_options(const dbdf_write_options_t* options) {
    WriteOptions result;
    if (options == nullptr) return result;
    if (options->struct_size < sizeof(size_t)) {
        throw invalid_argument("write options: struct_size is not set; initialise with DBDF_WRITE_OPTIONS_INIT");
    }
    // Fields are read only when the caller's struct is large enough to contain them (older callers).
    auto has = [&](std::size_t field_end) { return options->struct_size >= field_end; };
    if (has(offsetof(dbdf_write_options_t, encoding) + sizeof(options->encoding))) {
        // Read as the int C stored: a value outside the enum's range must be reported, not loaded as the enum.
        int encoding = 0;
        static_assert(sizeof encoding == sizeof options->encoding);
        std::memcpy(&encoding, &options->encoding, sizeof encoding);
        if (encoding < 0 || encoding > 4) throw invalid_argument("encoding " + std::to_string(encoding) + " is unknown");
        result.encoding = static_cast<Encoding>(encoding);
    }
    if (has(offsetof(dbdf_write_options_t, block_rows) + sizeof(options->block_rows))) {
        result.block_rows = options->block_rows;
    }
    if (has(offsetof(dbdf_write_options_t, block_cols) + sizeof(options->block_cols))) {
        result.block_cols = options->block_cols;
    }
    return result;
}

inline dbdf_block_info_t to_block_info(const BlockView& block) {
    dbdf_block_info_t info{};
    info.index = block.index;
    info.row = block.row;
    info.col = block.col;
    info.rows = block.rows;
    info.cols = block.cols;
    info.block_type = static_cast<dbdf_block_type_t>(block.block_type);
    info.value_type = static_cast<dbdf_value_type_t>(block.value_type);
    info.stored_values = block.stored_values;
    info.offset = block.offset;
    info.encoded_bytes = block.encoded_bytes;
    return info;
}

}  // namespace dbdf::capi
