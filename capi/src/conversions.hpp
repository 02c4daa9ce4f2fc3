// Conversions between the C enums/structs of dbdf.h and the core's types, with validation of caller values.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string>

#include "call_guard.hpp"
#include "dbdf.h"
#include "dbdf/block.hpp"
#include "dbdf/dialect.hpp"
#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"

namespace dbdf::capi {

// dbdf.h spells the value types out by hand (a frozen C enum); DBDF_VALUE_TYPES in types.hpp is the list. The
// build fails when the two differ. Each row's enumerator exists in dbdf.h with the row's code:
#define DBDF_CAPI_CHECK_ENUMERATOR(enumerator, code, ...) \
    static_assert(DBDF_VALUE_##enumerator == (code), "dbdf.h: DBDF_VALUE_" #enumerator " is not the list's code");
DBDF_VALUE_TYPES(DBDF_CAPI_CHECK_ENUMERATOR)
#undef DBDF_CAPI_CHECK_ENUMERATOR
// ... and dbdf.h has no enumerator that the list lacks: to_value_type's switch names DBDF_VALUE_NONE and the
// list's rows only, and -Wswitch-enum (an error in the checked builds) reports any enumerator it does not name.

// dbdf.h's name of each row's enumerator, for messages.
inline constexpr std::array kValueTypeEnumeratorNames{
#define DBDF_CAPI_ENUMERATOR_NAME(enumerator, ...) "DBDF_VALUE_" #enumerator,
    DBDF_VALUE_TYPES(DBDF_CAPI_ENUMERATOR_NAME)
#undef DBDF_CAPI_ENUMERATOR_NAME
};
static_assert(kValueTypeEnumeratorNames.size() == kValueTypeCount);

// The row of `type`; nullptr for DBDF_VALUE_NONE and values outside the list (any int a caller passed).
inline const ValueTypeInfo* find_value_type_info(dbdf_value_type_t type) {
    const int code = static_cast<int>(type);
    if (code < 1 || code > static_cast<int>(kValueTypeCount)) return nullptr;
    return dbdf::find_value_type_info(static_cast<ValueType>(code));
}

// The value type a caller asked for; InvalidArgument for DBDF_VALUE_NONE and values outside the list.
inline ValueType to_value_type(dbdf_value_type_t type) {
    switch (type) {
#define DBDF_CAPI_VALUE_TYPE_CASE(enumerator, ...) \
    case DBDF_VALUE_##enumerator: return ValueType::enumerator;
        DBDF_VALUE_TYPES(DBDF_CAPI_VALUE_TYPE_CASE)
#undef DBDF_CAPI_VALUE_TYPE_CASE
        case DBDF_VALUE_NONE: break;
    }
    throw invalid_argument("value type " + std::to_string(static_cast<int>(type)) + " is not one of " +
                           kValueTypeEnumeratorNames.front() + ".." + kValueTypeEnumeratorNames.back());
}

// An enum argument as the int C stored, read through its address: a value outside the enum must be reported, and
// loading it as the enum would already be undefined (UBSan's enum check stops there).
template <class CEnum>
int stored_code(const CEnum& value) {
    int code = 0;
    static_assert(sizeof code == sizeof value);
    std::memcpy(&code, &value, sizeof code);
    return code;
}

inline Dialect to_dialect(const dbdf_dialect_t& dialect) {
    const int code = stored_code(dialect);
    if (code != DBDF_DIALECT_SPEC && code != DBDF_DIALECT_DAPHNE) {
        throw invalid_argument("dialect " + std::to_string(code) +
                               " is unknown (DBDF_DIALECT_SPEC or DBDF_DIALECT_DAPHNE)");
    }
    return static_cast<Dialect>(code);
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
        if (encoding < 0 || encoding > 4)
            throw invalid_argument("encoding " + std::to_string(encoding) + " is unknown");
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
