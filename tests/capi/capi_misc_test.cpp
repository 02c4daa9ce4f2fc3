// Version, names, and the per-thread last error message.
#include <string>
#include <thread>
#include <utility>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

TEST(CapiMisc, VersionMatchesTheHeader) {
    EXPECT_EQ(dbdf_version(), static_cast<unsigned>(DBDF_VERSION_NUMBER));
    EXPECT_EQ(std::string(dbdf_version_string()), std::to_string(DBDF_VERSION_MAJOR) + "." +
                                                      std::to_string(DBDF_VERSION_MINOR) + "." +
                                                      std::to_string(DBDF_VERSION_PATCH));
}

TEST(CapiMisc, NamesOfEveryEnumValue) {
    // Every status dbdf.h declares, with its exact name.
    const std::pair<dbdf_status_t, const char*> statuses[] = {
        {DBDF_OK, "ok"},
        {DBDF_END_OF_BLOCKS, "end_of_blocks"},
        {DBDF_ERR_INVALID_ARGUMENT, "invalid_argument"},
        {DBDF_ERR_CALL_ORDER, "call_order"},
        {DBDF_ERR_BUFFER_TOO_SMALL, "buffer_too_small"},
        {DBDF_ERR_IO, "io"},
        {DBDF_ERR_TRUNCATED, "truncated"},
        {DBDF_ERR_FORMAT, "format"},
        {DBDF_ERR_RANGE, "range"},
        {DBDF_ERR_NOMEM, "nomem"},
        {DBDF_ERR_UNSUPPORTED, "unsupported"},
        {DBDF_ERR_INTERNAL, "internal"},
        {DBDF_ERR_SINK, "sink"},
    };
    for (const auto& [status, name] : statuses) EXPECT_STREQ(dbdf_status_name(status), name) << status;
    // Just past each end of the range, and far outside it.
    for (const int unknown : {2, -12, -99, 1000}) {
        EXPECT_STREQ(dbdf_status_name(static_cast<dbdf_status_t>(unknown)), "unknown") << unknown;
    }

    const char* value_names[] = {"none", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
    const size_t sizes[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
    for (int code = 0; code <= 10; ++code) {
        const auto type = static_cast<dbdf_value_type_t>(code);
        EXPECT_STREQ(dbdf_value_type_name(type), value_names[code]);
        EXPECT_EQ(dbdf_value_type_size(type), sizes[code]);
        if (code > 0) {
            dbdf_value_type_t parsed = DBDF_VALUE_NONE;
            ASSERT_OK(dbdf_value_type_from_name(value_names[code], &parsed));
            EXPECT_EQ(parsed, type);
        }
    }
    EXPECT_STREQ(dbdf_value_type_name(static_cast<dbdf_value_type_t>(11)), "unknown");
    EXPECT_STREQ(dbdf_value_type_name(static_cast<dbdf_value_type_t>(-1)), "unknown");
    EXPECT_EQ(dbdf_value_type_size(static_cast<dbdf_value_type_t>(11)), 0u);
    // The long spellings the parser also accepts.
    const std::pair<const char*, dbdf_value_type_t> aliases[] = {
        {"uint8", DBDF_VALUE_U8},    {"uint16", DBDF_VALUE_U16}, {"uint32", DBDF_VALUE_U32},
        {"uint64", DBDF_VALUE_U64},  {"int8", DBDF_VALUE_I8},    {"int16", DBDF_VALUE_I16},
        {"int32", DBDF_VALUE_I32},   {"int64", DBDF_VALUE_I64},  {"float32", DBDF_VALUE_F32},
        {"float64", DBDF_VALUE_F64}, {"float", DBDF_VALUE_F32},  {"double", DBDF_VALUE_F64},
    };
    for (const auto& [alias, type] : aliases) {
        dbdf_value_type_t parsed = DBDF_VALUE_NONE;
        ASSERT_OK(dbdf_value_type_from_name(alias, &parsed));
        EXPECT_EQ(parsed, type) << alias;
    }
    dbdf_value_type_t parsed = DBDF_VALUE_U8;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_value_type_from_name("complex", &parsed));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_value_type_from_name("none", &parsed));  // not a value type
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_value_type_from_name(nullptr, &parsed));
    EXPECT_EQ(parsed, DBDF_VALUE_U8);  // untouched by the failures

    EXPECT_STREQ(dbdf_data_type_name(DBDF_DATA_DENSE), "dense");
    EXPECT_STREQ(dbdf_data_type_name(DBDF_DATA_CSR), "csr");
    EXPECT_STREQ(dbdf_data_type_name(DBDF_DATA_FRAME), "frame");
    EXPECT_STREQ(dbdf_data_type_name(DBDF_DATA_SCALAR), "scalar");
    EXPECT_STREQ(dbdf_data_type_name(static_cast<dbdf_data_type_t>(0)), "unknown");
    EXPECT_STREQ(dbdf_data_type_name(static_cast<dbdf_data_type_t>(5)), "unknown");

    EXPECT_STREQ(dbdf_block_type_name(DBDF_BLOCK_EMPTY), "empty");
    EXPECT_STREQ(dbdf_block_type_name(DBDF_BLOCK_DENSE), "dense");
    EXPECT_STREQ(dbdf_block_type_name(DBDF_BLOCK_CSR), "csr");
    EXPECT_STREQ(dbdf_block_type_name(DBDF_BLOCK_COO), "coo");
    EXPECT_STREQ(dbdf_block_type_name(static_cast<dbdf_block_type_t>(4)), "unknown");
    EXPECT_STREQ(dbdf_block_type_name(static_cast<dbdf_block_type_t>(-1)), "unknown");

    EXPECT_STREQ(dbdf_encoding_name(DBDF_ENCODING_AUTO), "auto");
    EXPECT_STREQ(dbdf_encoding_name(DBDF_ENCODING_AS_GIVEN), "as-given");
    EXPECT_STREQ(dbdf_encoding_name(DBDF_ENCODING_DENSE), "dense");
    EXPECT_STREQ(dbdf_encoding_name(DBDF_ENCODING_CSR), "csr");
    EXPECT_STREQ(dbdf_encoding_name(DBDF_ENCODING_COO), "coo");
    EXPECT_STREQ(dbdf_encoding_name(static_cast<dbdf_encoding_t>(5)), "unknown");
    EXPECT_STREQ(dbdf_encoding_name(static_cast<dbdf_encoding_t>(-1)), "unknown");

    dbdf_write_options_t options;
    dbdf_write_options_init(&options);
    EXPECT_EQ(options.struct_size, sizeof(dbdf_write_options_t));
    EXPECT_EQ(options.encoding, DBDF_ENCODING_AUTO);
    EXPECT_EQ(options.block_rows, 0u);
    EXPECT_EQ(options.block_cols, 0u);
    dbdf_write_options_init(nullptr);
}

TEST(CapiMisc, LastErrorIsPerThreadAndClearedBySuccess) {
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_file("/nonexistent/file.dbdf", &reader), DBDF_ERR_IO);
    const std::string main_message = dbdf_last_error_message();
    EXPECT_NE(main_message.find("/nonexistent/file.dbdf"), std::string::npos);
    std::string other_before;
    std::string other_after;
    std::thread other([&] {
        other_before = dbdf_last_error_message();
        dbdf_value_type_t type;
        dbdf_value_type_from_name("bogus", &type);
        other_after = dbdf_last_error_message();
    });
    other.join();
    EXPECT_EQ(other_before, "");
    EXPECT_NE(other_after.find("bogus"), std::string::npos);
    EXPECT_EQ(std::string(dbdf_last_error_message()), main_message);
    dbdf_value_type_t type;
    ASSERT_OK(dbdf_value_type_from_name("u8", &type));
    EXPECT_STREQ(dbdf_last_error_message(), "");
}

}  // namespace
}  // namespace dbdf_test
