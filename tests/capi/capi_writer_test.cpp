// Every writing function of dbdf.h: begin, add in every form and encoding, tiling helpers, finish, memory output,
// call order, NULL arguments, sinks, atomic files.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

namespace fs = std::filesystem;

TEST(CapiWriter, CallOrderIsEnforced) {
    WriterHandle writer = memory_writer();
    const double value = 1.0;
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER,
                  dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_F64, &value, 1, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_add_empty(writer.get(), 0, 0, 1, 1));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_finish(writer.get()));
    const void* data = nullptr;
    size_t size = 0;
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_memory(writer.get(), &data, &size));
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    ASSERT_OK(dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_F64, &value, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_finish(writer.get()));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_add_empty(writer.get(), 0, 0, 1, 1));
    ASSERT_OK(dbdf_writer_memory(writer.get(), &data, &size));
    EXPECT_EQ(size, 19u + 16u + 10u + 1u);  // 1.0 narrows to a u8 dense block
    uint64_t written = 0;
    ASSERT_OK(dbdf_writer_bytes_written(writer.get(), &written));
    EXPECT_EQ(written, size);
    std::vector<std::uint8_t> copy(size);
    size_t copied = 0;
    EXPECT_STATUS(DBDF_ERR_BUFFER_TOO_SMALL, dbdf_writer_copy_memory(writer.get(), copy.data(), size - 1, &copied));
    EXPECT_EQ(copied, size);
    ASSERT_OK(dbdf_writer_copy_memory(writer.get(), copy.data(), size, &copied));
    EXPECT_EQ(std::memcmp(copy.data(), data, size), 0);
}

TEST(CapiWriter, EveryValueTypeAndEncodingRoundTrips) {
    const dbdf_encoding_t encodings[] = {DBDF_ENCODING_AUTO, DBDF_ENCODING_AS_GIVEN, DBDF_ENCODING_DENSE,
                                         DBDF_ENCODING_CSR, DBDF_ENCODING_COO};
    for (int code = 1; code <= 10; ++code) {
        const auto type = static_cast<dbdf_value_type_t>(code);
        for (dbdf_encoding_t encoding : encodings) {
            // Values 0, 1, 0, 3, 4, 0 as doubles, written in the block's own type through a byte buffer.
            const double source[6] = {0, 1, 0, 3, 4, 0};
            std::vector<std::uint8_t> typed(6 * dbdf_value_type_size(type));
            for (int i = 0; i < 6; ++i) {
                switch (type) {
                    case DBDF_VALUE_U8: typed[i] = static_cast<std::uint8_t>(source[i]); break;
                    case DBDF_VALUE_I8:
                        reinterpret_cast<std::int8_t*>(typed.data())[i] = static_cast<std::int8_t>(source[i]);
                        break;
                    case DBDF_VALUE_U16:
                        reinterpret_cast<std::uint16_t*>(typed.data())[i] = static_cast<std::uint16_t>(source[i]);
                        break;
                    case DBDF_VALUE_I16:
                        reinterpret_cast<std::int16_t*>(typed.data())[i] = static_cast<std::int16_t>(source[i]);
                        break;
                    case DBDF_VALUE_U32:
                        reinterpret_cast<std::uint32_t*>(typed.data())[i] = static_cast<std::uint32_t>(source[i]);
                        break;
                    case DBDF_VALUE_I32:
                        reinterpret_cast<std::int32_t*>(typed.data())[i] = static_cast<std::int32_t>(source[i]);
                        break;
                    case DBDF_VALUE_U64:
                        reinterpret_cast<std::uint64_t*>(typed.data())[i] = static_cast<std::uint64_t>(source[i]);
                        break;
                    case DBDF_VALUE_I64:
                        reinterpret_cast<std::int64_t*>(typed.data())[i] = static_cast<std::int64_t>(source[i]);
                        break;
                    case DBDF_VALUE_F32:
                        reinterpret_cast<float*>(typed.data())[i] = static_cast<float>(source[i]);
                        break;
                    case DBDF_VALUE_F64: reinterpret_cast<double*>(typed.data())[i] = source[i]; break;
                    case DBDF_VALUE_NONE: FAIL() << "not a value type";
                }
            }
            WriterHandle writer = memory_writer();
            dbdf_write_options_t options;
            dbdf_write_options_init(&options);
            options.encoding = encoding;
            ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, type, 2, 3));
            ASSERT_OK(dbdf_writer_add_dense(writer.get(), 0, 0, 2, 3, type, typed.data(), 6, 0, &options));
            ASSERT_OK(dbdf_writer_finish(writer.get()));
            const auto bytes = finished_bytes(writer.get());
            ReaderHandle reader = memory_reader(bytes);
            double out[6];
            ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, out, 6, 0));
            for (int i = 0; i < 6; ++i)
                EXPECT_EQ(out[i], source[i]) << dbdf_value_type_name(type) << " " << dbdf_encoding_name(encoding);
        }
    }
}

TEST(CapiWriter, SparseInputsFramesAndTilingHelpers) {
    WriterHandle writer = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_CSR, DBDF_VALUE_I32, 4, 4));
    const uint64_t row_offsets[] = {0, 1, 1};
    const uint32_t csr_cols[] = {3};
    const std::int32_t csr_values[] = {-5};
    ASSERT_OK(
        dbdf_writer_add_csr(writer.get(), 0, 0, 2, 4, DBDF_VALUE_I32, row_offsets, csr_cols, csr_values, 1, nullptr));
    const uint32_t coo_rows[] = {0, 1};
    const uint32_t coo_cols[] = {2, 0};
    const std::int32_t coo_values[] = {7, 8};
    ASSERT_OK(
        dbdf_writer_add_coo(writer.get(), 2, 0, 2, 4, DBDF_VALUE_I32, coo_rows, coo_cols, coo_values, 2, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_add_empty(writer.get(), 1, 1, 2, 2));  // overlaps
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    const auto bytes = finished_bytes(writer.get());
    ReaderHandle reader = memory_reader(bytes);
    std::int32_t all[16];
    ASSERT_OK(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_I32, all, 16, 0));
    EXPECT_EQ(all[3], -5);
    EXPECT_EQ(all[8 + 2], 7);
    EXPECT_EQ(all[12], 8);

    // Whole-matrix CSR helper with ragged tiles.
    WriterHandle csr_writer = memory_writer();
    const uint64_t offsets[] = {0, 2, 2, 3};
    const uint64_t cols[] = {0, 4, 2};
    const double values[] = {1.5, 2.5, 3.5};
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 2;
    options.block_cols = 3;
    ASSERT_OK(dbdf_writer_begin_matrix(csr_writer.get(), DBDF_DATA_CSR, DBDF_VALUE_F64, 3, 5));
    ASSERT_OK(dbdf_writer_write_csr(csr_writer.get(), DBDF_VALUE_F64, offsets, cols, values, 3, &options));
    ASSERT_OK(dbdf_writer_finish(csr_writer.get()));
    const auto csr_bytes = finished_bytes(csr_writer.get());
    ReaderHandle csr_reader = memory_reader(csr_bytes);
    uint64_t blocks = 0;
    ASSERT_OK(dbdf_reader_build_index(csr_reader.get(), &blocks));
    EXPECT_EQ(blocks, 4u);
    uint64_t read_offsets[4];
    uint64_t read_cols[3];
    double read_values[3];
    uint64_t entries = 0;
    ASSERT_OK(
        dbdf_reader_read_csr(csr_reader.get(), DBDF_VALUE_F64, read_offsets, 4, read_cols, read_values, 3, &entries));
    EXPECT_EQ(std::vector<uint64_t>(read_cols, read_cols + 3), (std::vector<uint64_t>{0, 4, 2}));
    EXPECT_EQ(std::vector<double>(read_values, read_values + 3), (std::vector<double>{1.5, 2.5, 3.5}));

    // Frame with typed, labelled columns.
    WriterHandle frame_writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I64, DBDF_VALUE_F32};
    const char* labels[] = {"id", "weight"};
    ASSERT_OK(dbdf_writer_begin_frame(frame_writer.get(), 3, 2, types, labels, nullptr));
    const std::int64_t ids[] = {7, 8, 9};
    const float weights[] = {0.5f, 1.5f, -2.0f};
    ASSERT_OK(dbdf_writer_write_column(frame_writer.get(), 0, DBDF_VALUE_I64, ids, 3, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_write_column(frame_writer.get(), 1, DBDF_VALUE_F32, weights, 2, nullptr));
    ASSERT_OK(dbdf_writer_write_column(frame_writer.get(), 1, DBDF_VALUE_F32, weights, 3, nullptr));
    ASSERT_OK(dbdf_writer_finish(frame_writer.get()));
    const auto frame_bytes = finished_bytes(frame_writer.get());
    ReaderHandle frame = memory_reader(frame_bytes);
    const char* label = nullptr;
    size_t length = 0;
    ASSERT_OK(dbdf_reader_column_label(frame.get(), 1, &label, &length));
    EXPECT_EQ(std::string(label, length), "weight");
    EXPECT_EQ(label[length], '\0');
    float weight_column[3];
    ASSERT_OK(dbdf_reader_read_column(frame.get(), 1, DBDF_VALUE_F32, weight_column, 3));
    EXPECT_EQ(weight_column[2], -2.0f);
    // Duplicate labels are rejected (rule 16).
    WriterHandle duplicate = memory_writer();
    const char* same[] = {"a", "a"};
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_begin_frame(duplicate.get(), 1, 2, types, same, nullptr));
}

TEST(CapiWriter, RuleEightAndArgumentErrors) {
    WriterHandle writer = memory_writer();
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_FRAME, DBDF_VALUE_F64, 1, 1));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_NONE, 1, 1));
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 1, 2));
    const double too_big[] = {1.0, 256.0};
    EXPECT_STATUS(DBDF_ERR_RANGE,
                  dbdf_writer_add_dense(writer.get(), 0, 0, 1, 2, DBDF_VALUE_F64, too_big, 2, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_add_dense(writer.get(), 0, 0, 1, 2, DBDF_VALUE_F64, too_big, 1, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_add_dense(writer.get(), 0, 1, 1, 2, DBDF_VALUE_F64, too_big, 2, 0, nullptr));
    dbdf_write_options_t bad = DBDF_WRITE_OPTIONS_INIT;
    bad.encoding = static_cast<dbdf_encoding_t>(9);
    ASSERT_OK(dbdf_writer_add_empty(writer.get(), 0, 0, 1, 2));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_add_empty(writer.get(), 0, 0, 1, 2));  // overlaps
    // The writer stays usable after argument and range errors: the object is complete and finishes.
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    WriterHandle second = memory_writer();
    ASSERT_OK(dbdf_writer_begin_matrix(second.get(), DBDF_DATA_DENSE, DBDF_VALUE_U8, 1, 1));
    const std::uint8_t one = 1;
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_add_dense(second.get(), 0, 0, 1, 1, DBDF_VALUE_U8, &one, 1, 0, &bad));
    dbdf_write_options_t unset{};
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_add_dense(second.get(), 0, 0, 1, 1, DBDF_VALUE_U8, &one, 1, 0, &unset));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT,
                  dbdf_writer_add_dense(nullptr, 0, 0, 1, 1, DBDF_VALUE_U8, &one, 1, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_memory(nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_file(nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_open_callback(nullptr, nullptr, nullptr));
    EXPECT_STATUS(DBDF_ERR_INVALID_ARGUMENT, dbdf_writer_bytes_written(second.get(), nullptr));
    EXPECT_STATUS(DBDF_ERR_FORMAT, dbdf_writer_finish(second.get()));  // cell (0, 0) not covered
    dbdf_writer_free(nullptr);
}

TEST(CapiWriter, FailingCallbackIsASinkError) {
    struct Budget {
        int calls_left;
    } budget{0};
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_callback(
        [](void* context, const void*, size_t) { return static_cast<Budget*>(context)->calls_left-- > 0 ? 0 : -1; },
        &budget, &raw));
    WriterHandle writer(raw);
    const double value = 0.25;
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    ASSERT_OK(dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_F64, &value, 1, 0, nullptr));
    EXPECT_STATUS(DBDF_ERR_SINK, dbdf_writer_finish(writer.get()));
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_finish(writer.get()));
}

// A write callback is C code's way to report failure by its return value; a C++ caller's callback may throw
// instead. The library is C++ built with exceptions (unwind tables in every frame), the callback is called from
// its C++ sink code, and guarded() in capi/src/call_guard.hpp catches whatever reaches the interface. So the
// exception unwinds into guarded(), which turns anything that is neither a dbdf error nor bad_alloc into
// DBDF_ERR_INTERNAL. (With MSVC's /EHsc, which assumes extern "C" functions never throw, this would not hold.)
enum class Throw { LogicError, NonStdException, BadAlloc };

int throwing_write(void* context, const void*, size_t) {
    switch (*static_cast<const Throw*>(context)) {
        case Throw::LogicError: throw std::logic_error("callback broke its contract");
        case Throw::NonStdException: throw 42;
        case Throw::BadAlloc: throw std::bad_alloc();
    }
    return 0;
}

// Opens a callback writer over `what`, begins a 1 x 1 f64 matrix and adds its dense block: nothing reaches the
// callback before finish flushes the buffered bytes.
WriterHandle begun_throwing_writer(Throw& what) {
    dbdf_writer_t* raw = nullptr;
    EXPECT_EQ(dbdf_writer_open_callback(throwing_write, &what, &raw), DBDF_OK);
    WriterHandle writer(raw);
    const double value = 0.25;
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1), DBDF_OK);
    EXPECT_EQ(dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_F64, &value, 1, 0, &as_given), DBDF_OK);
    return writer;
}

TEST(CapiWriter, ExceptionsFromACallbackBecomeInternalErrorsAndFailTheWriter) {
    struct Case {
        Throw what;
        dbdf_status_t status;
        const char* message;
    };
    const Case cases[] = {
        {Throw::LogicError, DBDF_ERR_INTERNAL, "internal error: callback broke its contract"},
        {Throw::NonStdException, DBDF_ERR_INTERNAL, "internal error: unknown exception"},
        {Throw::BadAlloc, DBDF_ERR_NOMEM, "out of memory"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.message);
        Throw what = c.what;
        WriterHandle writer = begun_throwing_writer(what);
        ASSERT_NE(writer, nullptr);
        EXPECT_STATUS(c.status, dbdf_writer_finish(writer.get()));
        EXPECT_STREQ(dbdf_last_error_message(), c.message);
        // The writer is failed: bytes may have reached the sink, so only freeing it remains.
        EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_finish(writer.get()));
        EXPECT_NE(std::string(dbdf_last_error_message()).find("failed earlier"), std::string::npos)
            << dbdf_last_error_message();
        EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_add_empty(writer.get(), 0, 0, 1, 1));
        uint64_t written = 0;
        ASSERT_OK(dbdf_writer_bytes_written(writer.get(), &written));
        EXPECT_EQ(written, 19u + 24u + 2u + 8u);  // header, block position and shape, types, value: all buffered
    }
}

std::string contents(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(CapiWriter, FileWriterIsAtomic) {
    const fs::path directory = fs::temp_directory_path() / ("dbdf_capi_writer_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path target = directory / "out.dbdf";
    std::ofstream(target) << "keep me";
    dbdf_writer_t* raw = nullptr;
    ASSERT_OK(dbdf_writer_open_file(target.c_str(), &raw));
    ASSERT_OK(dbdf_writer_begin_matrix(raw, DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    dbdf_writer_free(raw);  // without finish
    EXPECT_EQ(contents(target), "keep me");
    EXPECT_EQ(std::distance(fs::directory_iterator(directory), fs::directory_iterator()), 1);
    const void* data = nullptr;
    size_t size = 0;
    ASSERT_OK(dbdf_writer_open_file(target.c_str(), &raw));
    WriterHandle writer(raw);
    EXPECT_STATUS(DBDF_ERR_CALL_ORDER, dbdf_writer_memory(writer.get(), &data, &size));
    const double value = 3.0;
    ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 1, 1));
    ASSERT_OK(dbdf_writer_add_dense(writer.get(), 0, 0, 1, 1, DBDF_VALUE_F64, &value, 1, 0, nullptr));
    ASSERT_OK(dbdf_writer_finish(writer.get()));
    EXPECT_NE(contents(target), "keep me");
    EXPECT_EQ(std::distance(fs::directory_iterator(directory), fs::directory_iterator()), 1);
    dbdf_writer_t* unwritable = nullptr;
    EXPECT_STATUS(DBDF_ERR_IO, dbdf_writer_open_file((directory / "no" / "such.dbdf").c_str(), &unwritable));
    fs::remove_all(directory);
}

}  // namespace
}  // namespace dbdf_test
