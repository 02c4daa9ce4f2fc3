// RAII holders and helpers for the C ABI tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dbdf.h"

namespace dbdf_test {

struct ReaderDeleter {
    void operator()(dbdf_reader_t* reader) const { dbdf_reader_free(reader); }
};
struct WriterDeleter {
    void operator()(dbdf_writer_t* writer) const { dbdf_writer_free(writer); }
};
using ReaderHandle = std::unique_ptr<dbdf_reader_t, ReaderDeleter>;
using WriterHandle = std::unique_ptr<dbdf_writer_t, WriterDeleter>;

#define EXPECT_STATUS(expected, call)                                                      \
    do {                                                                                   \
        const dbdf_status_t status_ = (call);                                              \
        EXPECT_EQ(status_, expected) << #call << ": " << dbdf_status_name(status_) << ": " \
                                     << dbdf_last_error_message();                         \
    } while (false)

#define ASSERT_OK(call)                                                                   \
    do {                                                                                  \
        const dbdf_status_t status_ = (call);                                             \
        ASSERT_EQ(status_, DBDF_OK) << #call << ": " << dbdf_status_name(status_) << ": " \
                                    << dbdf_last_error_message();                         \
    } while (false)

// A call expected to fail with `status`, leaving a last error message that contains `names` (the argument or
// state at fault).
struct FailingCall {
    const char* call;
    std::function<dbdf_status_t()> run;
    dbdf_status_t status;
    const char* names;
};

inline void expect_failures(const std::vector<FailingCall>& calls) {
    for (const FailingCall& failing : calls) {
        SCOPED_TRACE(failing.call);
        const dbdf_status_t status = failing.run();
        const std::string message = dbdf_last_error_message();
        EXPECT_EQ(status, failing.status) << dbdf_status_name(status) << ": " << message;
        EXPECT_NE(message.find(failing.names), std::string::npos) << "message: " << message;
    }
}

inline WriterHandle memory_writer() {
    dbdf_writer_t* writer = nullptr;
    EXPECT_EQ(dbdf_writer_open_memory(&writer), DBDF_OK);
    return WriterHandle(writer);
}

inline std::vector<std::uint8_t> finished_bytes(dbdf_writer_t* writer) {
    const void* data = nullptr;
    size_t size = 0;
    EXPECT_EQ(dbdf_writer_memory(writer, &data, &size), DBDF_OK) << dbdf_last_error_message();
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    return std::vector<std::uint8_t>(bytes, bytes + size);
}

// The reader reads `bytes` in place, so they must outlive it: temporaries are refused at compile time.
ReaderHandle memory_reader(std::vector<std::uint8_t>&& bytes) = delete;
inline ReaderHandle memory_reader(const std::vector<std::uint8_t>& bytes) {
    dbdf_reader_t* reader = nullptr;
    EXPECT_EQ(dbdf_reader_open_memory(bytes.data(), bytes.size(), &reader), DBDF_OK) << dbdf_last_error_message();
    return ReaderHandle(reader);
}

// A finished 4 x 3 f64 DenseMatrix with value 10 * row + col (zero at (0, 0)), tiled 2 x 2 (4 blocks).
inline std::vector<std::uint8_t> sample_matrix(dbdf_encoding_t encoding = DBDF_ENCODING_AUTO) {
    WriterHandle writer = memory_writer();
    std::vector<double> values(12);
    for (int i = 0; i < 12; ++i) values[i] = 10.0 * (i / 3) + (i % 3);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = encoding;
    options.block_rows = 2;
    options.block_cols = 2;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 4, 3), DBDF_OK);
    EXPECT_EQ(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, &options), DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

// An object of `blocks` dense blocks of rows x cols f64 values, written with `options` (NULL: spec).
inline std::vector<std::uint8_t> dense_blocks_file(std::uint32_t blocks, std::uint32_t rows, std::uint32_t cols,
                                                   const dbdf_writer_options_t* options = nullptr) {
    dbdf_writer_t* raw = nullptr;
    EXPECT_EQ(dbdf_writer_open_memory_with_options(options, &raw), DBDF_OK);
    WriterHandle writer(raw);
    EXPECT_EQ(
        dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, std::uint64_t{rows} * blocks, cols),
        DBDF_OK);
    std::vector<double> values(std::size_t{rows} * cols);
    for (std::uint32_t block = 0; block < blocks; ++block) {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.1 * static_cast<double>(i + block) + 0.37;
        EXPECT_EQ(dbdf_writer_add_dense(writer.get(), std::uint64_t{rows} * block, 0, rows, cols, DBDF_VALUE_F64,
                                        values.data(), values.size(), 0, nullptr),
                  DBDF_OK)
            << dbdf_last_error_message();
    }
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    const void* data = nullptr;
    size_t nbytes = 0;
    EXPECT_EQ(dbdf_writer_memory(writer.get(), &data, &nbytes), DBDF_OK);
    const auto* first = static_cast<const std::uint8_t*>(data);
    return std::vector<std::uint8_t>(first, first + nbytes);
}

}  // namespace dbdf_test
