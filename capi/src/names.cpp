// Version and the name helpers of dbdf.h.
#include <string>

#include "call_guard.hpp"
#include "conversions.hpp"
#include "dbdf.h"
#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

using dbdf::capi::guarded;

extern "C" {

unsigned dbdf_version(void) { return DBDF_VERSION_NUMBER; }

#define DBDF_STRINGIFY_(x) #x
#define DBDF_STRINGIFY(x) DBDF_STRINGIFY_(x)

const char* dbdf_version_string(void) {
    return DBDF_STRINGIFY(DBDF_VERSION_MAJOR) "." DBDF_STRINGIFY(DBDF_VERSION_MINOR) "." DBDF_STRINGIFY(
        DBDF_VERSION_PATCH);
}

const char* dbdf_status_name(dbdf_status_t status) {
    switch (status) {
        case DBDF_OK: return "ok";
        case DBDF_END_OF_BLOCKS: return "end_of_blocks";
        case DBDF_ERR_INVALID_ARGUMENT: return "invalid_argument";
        case DBDF_ERR_CALL_ORDER: return "call_order";
        case DBDF_ERR_BUFFER_TOO_SMALL: return "buffer_too_small";
        case DBDF_ERR_IO: return "io";
        case DBDF_ERR_TRUNCATED: return "truncated";
        case DBDF_ERR_FORMAT: return "format";
        case DBDF_ERR_RANGE: return "range";
        case DBDF_ERR_NOMEM: return "nomem";
        case DBDF_ERR_UNSUPPORTED: return "unsupported";
        case DBDF_ERR_INTERNAL: return "internal";
        case DBDF_ERR_SINK: return "sink";
    }
    return "unknown";
}

// The core's names are string_views onto string literals, so .data() is NUL-terminated static storage.
const char* dbdf_value_type_name(dbdf_value_type_t value_type) {
    if (value_type == DBDF_VALUE_NONE) return dbdf::name(dbdf::ValueType::None).data();
    const dbdf::ValueTypeInfo* info = dbdf::capi::find_value_type_info(value_type);
    return info != nullptr ? info->name.data() : "unknown";
}

const char* dbdf_data_type_name(dbdf_data_type_t data_type) {
    const int code = static_cast<int>(data_type);
    if (code < 1 || code > 4) return "unknown";
    return dbdf::name(static_cast<dbdf::DataType>(code)).data();
}

const char* dbdf_block_type_name(dbdf_block_type_t block_type) {
    const int code = static_cast<int>(block_type);
    if (code < 0 || code > 3) return "unknown";
    return dbdf::name(static_cast<dbdf::BlockType>(code)).data();
}

const char* dbdf_encoding_name(dbdf_encoding_t encoding) {
    const int code = static_cast<int>(encoding);
    if (code < 0 || code > 4) return "unknown";
    return dbdf::name(static_cast<dbdf::Encoding>(code)).data();
}

size_t dbdf_value_type_size(dbdf_value_type_t value_type) {
    const dbdf::ValueTypeInfo* info = dbdf::capi::find_value_type_info(value_type);
    return info != nullptr ? info->size : 0;
}

dbdf_status_t dbdf_value_type_from_name(const char* name, dbdf_value_type_t* out) {
    return guarded([&] {
        dbdf::capi::require_pointer(name, "name");
        dbdf::capi::require_pointer(out, "out");
        const auto type = dbdf::parse_value_type(name);
        if (!type) throw dbdf::capi::invalid_argument(std::string("unknown value type name '") + name + "'");
        *out = static_cast<dbdf_value_type_t>(*type);
        return DBDF_OK;
    });
}

void dbdf_write_options_init(dbdf_write_options_t* options) {
    if (options == nullptr) return;
    *options = dbdf_write_options_t DBDF_WRITE_OPTIONS_INIT;
}

}  // extern "C"
