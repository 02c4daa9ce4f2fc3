// Arrow import (dbdf_writer_import_arrow): golden frames and dense matrices exported and imported back give the same
// values; Arrow types without a dbdf value type, nulls and wrong row counts are refused with the column named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "arrow_test_support.hpp"
#include "capi_test_support.hpp"
#include "dbdf.h"

namespace {

using dbdf_test::golden_vectors;
using dbdf_test::memory_reader;
using dbdf_test::memory_writer;
using dbdf_test::read_file;
using dbdf_test::ReaderHandle;
using dbdf_test::WriterHandle;

// Every cell of an object read densely (frames column by column, each in its own type), as bytes.
std::vector<std::uint8_t> all_values(dbdf_reader_t* reader) {
    dbdf_object_info_t info{};
    EXPECT_EQ(dbdf_reader_object_info(reader, &info), DBDF_OK);
    std::vector<std::uint8_t> bytes;
    for (std::uint64_t column = 0; column < info.cols; ++column) {
        dbdf_value_type_t type{};
        EXPECT_EQ(dbdf_reader_column_type(reader, column, &type), DBDF_OK);
        std::vector<std::uint8_t> values(info.rows * dbdf_value_type_size(type));
        EXPECT_EQ(dbdf_reader_read_column(reader, column, type, values.data(), info.rows), DBDF_OK)
            << dbdf_last_error_message();
        bytes.insert(bytes.end(), values.begin(), values.end());
    }
    return bytes;
}

TEST(ArrowImport, GoldenFramesAndDenseMatricesComeBackUnchanged) {
    int imported = 0;
    for (const auto& file : golden_vectors()) {
        SCOPED_TRACE(file.filename().string());
        const std::vector<std::uint8_t> bytes = read_file(file);
        ReaderHandle reader = memory_reader(bytes);
        dbdf_object_info_t info{};
        ASSERT_OK(dbdf_reader_object_info(reader.get(), &info));
        if (info.data_type == DBDF_DATA_CSR || info.cols == 0) continue;
        ArrowArrayStream stream{};
        ASSERT_OK(dbdf_reader_export_arrow(reader.get(), nullptr, &stream));
        WriterHandle writer = memory_writer();
        dbdf_arrow_import_options_t options = DBDF_ARROW_IMPORT_OPTIONS_INIT;
        options.as_matrix = info.data_type == DBDF_DATA_DENSE ? 1 : 0;
        ASSERT_OK(dbdf_writer_import_arrow(writer.get(), &stream, info.rows, &options));
        EXPECT_EQ(stream.release, nullptr);
        ASSERT_OK(dbdf_writer_finish(writer.get()));
        const std::vector<std::uint8_t> written = dbdf_test::finished_bytes(writer.get());
        ReaderHandle back = memory_reader(written);
        dbdf_object_info_t back_info{};
        ASSERT_OK(dbdf_reader_object_info(back.get(), &back_info));
        EXPECT_EQ(back_info.data_type, info.data_type);
        EXPECT_EQ(back_info.value_type, info.value_type);
        EXPECT_EQ(back_info.rows, info.rows);
        EXPECT_EQ(back_info.cols, info.cols);
        EXPECT_EQ(all_values(back.get()), all_values(reader.get()));
        if (info.data_type == DBDF_DATA_FRAME) {
            for (std::uint64_t column = 0; column < info.cols; ++column) {
                const char* label = nullptr;
                const char* back_label = nullptr;
                size_t length = 0;
                ASSERT_OK(dbdf_reader_column_label(reader.get(), column, &label, &length));
                ASSERT_OK(dbdf_reader_column_label(back.get(), column, &back_label, &length));
                EXPECT_STREQ(back_label, label);
            }
        }
        ++imported;
    }
    EXPECT_GE(imported, 10);
}

// A stream of one hand-made batch of one column: `format`, `length` values at `values`, a validity bitmap when
// `validity` is set. Its nodes live in the struct; their release callbacks only mark them released.
struct HandMadeStream {
    HandMadeStream() = default;
    HandMadeStream(const HandMadeStream&) = delete;
    HandMadeStream& operator=(const HandMadeStream&) = delete;

    std::string format;
    std::int64_t length = 0;
    const void* values = nullptr;
    const std::uint8_t* validity = nullptr;
    std::int64_t null_count = 0;
    bool batch_sent = false;

    ArrowSchema field{};
    ArrowSchema* fields[1] = {&field};
    const void* column_buffers[2] = {nullptr, nullptr};
    ArrowArray column{};
    ArrowArray* columns[1] = {&column};
    const void* batch_buffers[1] = {nullptr};
    int releases = 0;

    static HandMadeStream& of(ArrowArrayStream* stream) { return *static_cast<HandMadeStream*>(stream->private_data); }

    ArrowArrayStream stream() {
        ArrowArrayStream stream{};
        stream.private_data = this;
        stream.get_schema = [](ArrowArrayStream* self, ArrowSchema* out) {
            HandMadeStream& made = of(self);
            made.field = ArrowSchema{};
            made.field.format = made.format.c_str();
            made.field.name = "only";
            made.field.flags = ARROW_FLAG_NULLABLE;
            made.field.release = [](ArrowSchema* schema) { schema->release = nullptr; };
            *out = ArrowSchema{};
            out->format = "+s";
            out->name = "";
            out->n_children = 1;
            out->children = made.fields;
            out->release = [](ArrowSchema* schema) {
                schema->children[0]->release(schema->children[0]);
                schema->release = nullptr;
            };
            return 0;
        };
        stream.get_next = [](ArrowArrayStream* self, ArrowArray* out) {
            HandMadeStream& made = of(self);
            *out = ArrowArray{};
            if (made.batch_sent) return 0;
            made.batch_sent = true;
            made.column = ArrowArray{};
            made.column.length = made.length;
            made.column.null_count = made.null_count;
            made.column.n_buffers = 2;
            made.column_buffers[0] = made.validity;
            made.column_buffers[1] = made.values;
            made.column.buffers = made.column_buffers;
            made.column.release = [](ArrowArray* array) { array->release = nullptr; };
            out->length = made.length;
            out->n_buffers = 1;
            out->buffers = made.batch_buffers;
            out->n_children = 1;
            out->children = made.columns;
            out->release = [](ArrowArray* array) {
                array->children[0]->release(array->children[0]);
                array->release = nullptr;
            };
            return 0;
        };
        stream.get_last_error = [](ArrowArrayStream*) -> const char* { return nullptr; };
        stream.release = [](ArrowArrayStream* self) {
            ++of(self).releases;
            self->release = nullptr;
        };
        return stream;
    }
};

dbdf_status_t import_one(HandMadeStream& made, std::uint64_t rows, int booleans_as_u8 = 0) {
    WriterHandle writer = memory_writer();
    ArrowArrayStream stream = made.stream();
    dbdf_arrow_import_options_t options = DBDF_ARROW_IMPORT_OPTIONS_INIT;
    options.booleans_as_u8 = booleans_as_u8;
    const dbdf_status_t status = dbdf_writer_import_arrow(writer.get(), &stream, rows, &options);
    EXPECT_EQ(made.releases, 1);
    EXPECT_EQ(made.column.release, nullptr);
    return status;
}

TEST(ArrowImport, StringsAndOtherTypesWithoutAValueTypeAreRefusedNamingTheColumn) {
    for (const char* format : {"u", "U", "vu", "z", "d:10,2", "+l", "tdD", "e", "n", "b"}) {
        SCOPED_TRACE(format);
        HandMadeStream made;
        made.format = format;
        EXPECT_STATUS(DBDF_ERR_UNSUPPORTED, import_one(made, 0));
        const std::string message = dbdf_last_error_message();
        EXPECT_NE(message.find("column 0 ('only')"), std::string::npos) << message;
        EXPECT_NE(message.find(std::string("'") + format + "'"), std::string::npos) << message;
    }
}

TEST(ArrowImport, NullsAreRefusedNamingTheColumnAndTheRow) {
    const std::int64_t values[] = {1, 2, 3};
    const std::uint8_t validity[] = {0b101};
    HandMadeStream made;
    made.format = "l";
    made.length = 3;
    made.values = values;
    made.validity = validity;
    made.null_count = 1;
    EXPECT_STATUS(DBDF_ERR_FORMAT, import_one(made, 3));
    const std::string message = dbdf_last_error_message();
    EXPECT_NE(message.find("column 0 ('only') holds a null (row 1"), std::string::npos) << message;
    EXPECT_NE(message.find("no missing values"), std::string::npos) << message;
}

TEST(ArrowImport, BooleansBecomeU8OnlyWhenAsked) {
    const std::uint8_t bits[] = {0b110};
    HandMadeStream made;
    made.format = "b";
    made.length = 3;
    made.values = bits;
    WriterHandle writer = memory_writer();
    ArrowArrayStream stream = made.stream();
    dbdf_arrow_import_options_t options = DBDF_ARROW_IMPORT_OPTIONS_INIT;
    options.booleans_as_u8 = 1;
    ASSERT_OK(dbdf_writer_import_arrow(writer.get(), &stream, 3, &options));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const std::vector<std::uint8_t> written = dbdf_test::finished_bytes(writer.get());
    ReaderHandle back = memory_reader(written);
    dbdf_value_type_t type{};
    ASSERT_OK(dbdf_reader_column_type(back.get(), 0, &type));
    EXPECT_EQ(type, DBDF_VALUE_U8);
    EXPECT_EQ(all_values(back.get()), (std::vector<std::uint8_t>{0, 1, 1}));
}

TEST(ArrowImport, AStreamThatDeliversOtherThanTheAnnouncedRowsIsRefused) {
    const double values[] = {1.5, -2.0};
    HandMadeStream fewer;
    fewer.format = "g";
    fewer.length = 2;
    fewer.values = values;
    EXPECT_STATUS(DBDF_ERR_FORMAT, import_one(fewer, 5));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("ended after 2 rows; 5 were announced"), std::string::npos);
    HandMadeStream more;  // not a copy: the nodes point into their own struct
    more.format = "g";
    more.length = 2;
    more.values = values;
    EXPECT_STATUS(DBDF_ERR_FORMAT, import_one(more, 1));
    EXPECT_NE(std::string(dbdf_last_error_message()).find("more than the 1 rows announced"), std::string::npos);
}

TEST(ArrowImport, TheStreamIsReleasedAlsoWhenTheArgumentsAreRefused) {
    HandMadeStream made;
    made.format = "g";
    ArrowArrayStream stream = made.stream();
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_import_arrow(nullptr, &stream, 0, nullptr));
    EXPECT_EQ(made.releases, 1);
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_import_arrow(nullptr, nullptr, 0, nullptr));
}

}  // namespace
