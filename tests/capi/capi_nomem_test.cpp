// A failing allocation inside the core comes back as DBDF_ERR_NOMEM, never as an exception crossing the ABI.
// This binary links the static library, so the global operator new below is the one the core uses.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iterator>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "dbdf.h"
#include "replaced_global_allocator.hpp"

namespace {

// Allocations left before the next one fails; negative means "never fail".
std::atomic<long> allocations_until_failure{-1};

void* allocate(std::size_t size) {
    long left = allocations_until_failure.load();
    if (left == 0) throw std::bad_alloc();
    if (left > 0) allocations_until_failure.store(left - 1);
    if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
    throw std::bad_alloc();
}

}  // namespace

void* test_allocate(std::size_t size) { return allocate(size); }
void test_release(void* pointer) noexcept { std::free(pointer); }

// Runs a whole write-then-read sequence through the C ABI (a dense f64 matrix of `rows` x `cols` written by one
// write_dense call, with the writer's and the call's options when given); allocations may fail anywhere inside it.
dbdf_status_t write_then_read(const std::vector<double>& values, std::vector<double>& out, std::uint64_t rows,
                              std::uint64_t cols, const dbdf_writer_options_t* writer_options = nullptr,
                              const dbdf_write_options_t* write_options = nullptr) {
    dbdf_writer_t* writer = nullptr;
    dbdf_reader_t* reader = nullptr;
    const void* data = nullptr;
    size_t size = 0;
    dbdf_status_t status = writer_options != nullptr ? dbdf_writer_open_memory_with_options(writer_options, &writer)
                                                     : dbdf_writer_open_memory(&writer);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, rows, cols);
    if (status == DBDF_OK) {
        status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values.data(), values.size(), 0, write_options);
    }
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    if (status == DBDF_OK) status = dbdf_writer_memory(writer, &data, &size);
    if (status == DBDF_OK) status = dbdf_reader_open_memory(data, size, &reader);
    if (status == DBDF_OK) status = dbdf_reader_read_dense(reader, DBDF_VALUE_F64, out.data(), out.size(), 0);
    dbdf_reader_free(reader);
    dbdf_writer_free(writer);
    return status;
}

TEST(CapiNoMemory, EveryAllocationFailurePointIsReportedAsNoMem) {
    std::vector<double> values(64);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i % 5) * 0.5;
    std::vector<double> out(64);
    int failures_seen = 0;
    bool completed = false;
    // Fail the 1st, 2nd, ... allocation of the sequence until it runs through with allocations to spare.
    for (long fail_at = 0; fail_at < 10000 && !completed; ++fail_at) {
        allocations_until_failure.store(fail_at);
        const dbdf_status_t status = write_then_read(values, out, 8, 8);
        const bool budget_left = allocations_until_failure.load() > 0;
        allocations_until_failure.store(-1);  // test code below may allocate freely
        if (status == DBDF_OK) {
            EXPECT_EQ(out, values);
            completed = budget_left;
            continue;
        }
        ASSERT_EQ(status, DBDF_ERR_NOMEM) << "allocation " << fail_at << ": " << dbdf_last_error_message();
        ++failures_seen;
    }
    EXPECT_TRUE(completed);
    EXPECT_GT(failures_seen, 5);
}

// A call fails with a message too long to be stored without allocating. Failing each allocation of the call in
// turn reaches the one that stores the message: the status must survive, with a static text in place of the
// message, and the program must not terminate (the error handlers run inside a noexcept function).
TEST(CapiNoMemory, AnErrorWhoseMessageCannotBeStoredKeepsItsStatus) {
    std::vector<std::uint8_t> bytes = {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10};  // 1 x 1 f64 header
    const std::uint8_t empty_block[25] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    bytes.insert(bytes.end(), std::begin(empty_block), std::end(empty_block));
    int invalid_with_static_text = 0;
    int invalid_with_full_message = 0;
    // A new thread starts with an empty message buffer, so storing a long message has to allocate.
    std::thread caller([&] {
        dbdf_reader_t* reader = nullptr;
        ASSERT_EQ(dbdf_reader_open_memory(bytes.data(), bytes.size(), &reader), DBDF_OK);
        dbdf_value_type_t type = DBDF_VALUE_NONE;
        for (long fail_at = 0; fail_at < 100 && invalid_with_full_message == 0; ++fail_at) {
            allocations_until_failure.store(fail_at);
            const dbdf_status_t status = dbdf_reader_column_type(reader, 1234567, &type);
            allocations_until_failure.store(-1);
            const std::string message = dbdf_last_error_message();
            if (status == DBDF_ERR_NOMEM) {
                EXPECT_EQ(message, "out of memory");
                continue;
            }
            ASSERT_EQ(status, DBDF_ERR_INVALID_ARGUMENT) << message;
            if (message.find("column 1234567 does not exist") != std::string::npos) {
                ++invalid_with_full_message;
            } else {
                EXPECT_NE(message.find("could not be stored"), std::string::npos) << message;
                ++invalid_with_static_text;
            }
        }
        dbdf_reader_free(reader);
    });
    caller.join();
    EXPECT_EQ(invalid_with_static_text, 1);
    EXPECT_EQ(invalid_with_full_message, 1);
}

// The same for a format violation: when its message cannot be stored, its rule and byte offset still are, since
// storing them needs no memory. Data type 0 is reserved: rule 6 at byte 1.
TEST(CapiNoMemory, AFormatErrorWhoseMessageCannotBeStoredKeepsItsRuleAndOffset) {
    const std::vector<std::uint8_t> bytes = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10};
    int with_static_text = 0;
    int with_full_message = 0;
    std::thread caller([&] {
        for (long fail_at = 0; fail_at < 100 && with_full_message == 0; ++fail_at) {
            dbdf_reader_t* reader = nullptr;
            allocations_until_failure.store(fail_at);
            const dbdf_status_t status = dbdf_reader_open_memory(bytes.data(), bytes.size(), &reader);
            allocations_until_failure.store(-1);
            const std::string message = dbdf_last_error_message();
            if (status == DBDF_ERR_NOMEM) {
                EXPECT_EQ(dbdf_last_error_rule(), 0) << message;
                EXPECT_EQ(dbdf_last_error_offset(), DBDF_NO_OFFSET) << message;
                continue;
            }
            ASSERT_EQ(status, DBDF_ERR_FORMAT) << message;
            EXPECT_EQ(dbdf_last_error_rule(), 6) << message;
            EXPECT_EQ(dbdf_last_error_offset(), 1u) << message;
            if (message.find("data type 0 is reserved") != std::string::npos) {
                ++with_full_message;
            } else {
                EXPECT_NE(message.find("could not be stored"), std::string::npos) << message;
                ++with_static_text;
            }
        }
    });
    caller.join();
    EXPECT_EQ(with_static_text, 1);
    EXPECT_EQ(with_full_message, 1);
}

namespace {

// Fails the 1st, 2nd, ... allocation made while `sequence` runs, until it runs through with allocations to spare.
// Every failure must come back as DBDF_ERR_NOMEM. `after_each` runs after every attempt with its status, and
// `check_result` after every successful one; both may allocate freely. Returns the number of NOMEM failures.
int expect_nomem_at_every_allocation(const std::function<dbdf_status_t()>& sequence,
                                     const std::function<void()>& check_result,
                                     const std::function<void(dbdf_status_t)>& after_each = {}) {
    int failures_seen = 0;
    bool completed = false;
    for (long fail_at = 0; fail_at < 100000 && !completed; ++fail_at) {
        allocations_until_failure.store(fail_at);
        const dbdf_status_t status = sequence();
        const bool budget_left = allocations_until_failure.load() > 0;
        allocations_until_failure.store(-1);
        if (after_each) after_each(status);
        if (status == DBDF_OK) {
            check_result();
            completed = budget_left;
            continue;
        }
        EXPECT_EQ(status, DBDF_ERR_NOMEM) << "allocation " << fail_at << ": " << dbdf_last_error_message();
        if (status != DBDF_ERR_NOMEM) return failures_seen;
        ++failures_seen;
    }
    EXPECT_TRUE(completed);
    return failures_seen;
}

// write_dense on three threads, tiles of 8 x 8 whose values narrow differently (to u8, to u16 after u8, to f32, or
// not at all): an allocation that fails on a helper thread, in the analysis's stored values, in their spare buffers
// or in starting a thread comes back as DBDF_ERR_NOMEM from the call, with no thread left running.
dbdf_status_t threaded_write_then_read(const std::vector<double>& values, std::vector<double>& out) {
    dbdf_writer_options_t options;
    dbdf_writer_options_init(&options);
    options.threads = 3;
    dbdf_write_options_t tiles;
    dbdf_write_options_init(&tiles);
    tiles.block_rows = 8;
    tiles.block_cols = 8;
    return write_then_read(values, out, 32, 32, &options, &tiles);
}

TEST(CapiNoMemory, WriteDenseOnSeveralThreads) {
    std::vector<double> values(32 * 32);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::size_t tile = (i / 32 / 8) * 4 + (i % 32) / 8;
        switch (tile % 4) {
            case 0: values[i] = static_cast<double>(i % 7); break;                           // u8
            case 1: values[i] = i % 32 == 15 ? 40000.0 : static_cast<double>(i % 9); break;  // u8, then u16
            case 2: values[i] = static_cast<double>(i) + 0.5; break;                         // f32
            default: values[i] = 1.0 / static_cast<double>(i + 3); break;                    // f64
        }
    }
    std::vector<double> out(values.size());
    // The threads of this process: the test's own alone, once a call has returned.
    const auto running_threads = [] {
        const std::filesystem::directory_iterator tasks("/proc/self/task");
        return std::distance(begin(tasks), end(tasks));
    };
    const int failures = expect_nomem_at_every_allocation(
        [&] { return threaded_write_then_read(values, out); }, [&] { EXPECT_EQ(out, values); },
        [&](dbdf_status_t status) { EXPECT_EQ(running_threads(), 1) << "after status " << status; });
    EXPECT_GT(failures, 5);
}

// What the frame sequence read back, in storage that needs no allocation.
struct FrameResult {
    std::int64_t ids[5];
    float weights[5];
    char label[64];
    size_t label_length;
};

// A 5-row frame of an i64 and an f32 column in 2-row blocks, written to memory and read back column by column.
dbdf_status_t frame_round_trip(FrameResult& result) {
    static const dbdf_value_type_t types[] = {DBDF_VALUE_I64, DBDF_VALUE_F32};
    static const char* const labels[] = {"id", "a label longer than any small-string buffer holds"};
    static const std::int64_t ids[] = {1, -2, 3, INT64_MIN, 5};
    static const float weights[] = {0.5f, 0.0f, 0.0f, -1.5f, 2.0f};
    dbdf_writer_t* writer = nullptr;
    dbdf_reader_t* reader = nullptr;
    const void* data = nullptr;
    size_t size = 0;
    const char* label = nullptr;
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 2;
    dbdf_status_t status = dbdf_writer_open_memory(&writer);
    if (status == DBDF_OK) status = dbdf_writer_begin_frame(writer, 5, 2, types, labels, nullptr);
    if (status == DBDF_OK) status = dbdf_writer_write_column(writer, 0, DBDF_VALUE_I64, ids, 5, &options);
    if (status == DBDF_OK) status = dbdf_writer_write_column(writer, 1, DBDF_VALUE_F32, weights, 5, &options);
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    if (status == DBDF_OK) status = dbdf_writer_memory(writer, &data, &size);
    if (status == DBDF_OK) status = dbdf_reader_open_memory(data, size, &reader);
    if (status == DBDF_OK) status = dbdf_reader_column_label(reader, 1, &label, &result.label_length);
    if (status == DBDF_OK && result.label_length < sizeof result.label) {
        std::memcpy(result.label, label, result.label_length);
    }
    if (status == DBDF_OK) status = dbdf_reader_read_column(reader, 0, DBDF_VALUE_I64, result.ids, 5);
    if (status == DBDF_OK) status = dbdf_reader_read_column(reader, 1, DBDF_VALUE_F32, result.weights, 5);
    dbdf_reader_free(reader);
    dbdf_writer_free(writer);
    return status;
}

TEST(CapiNoMemory, FramesWrittenAndReadByColumn) {
    FrameResult result{};
    const int failures =
        expect_nomem_at_every_allocation([&] { return frame_round_trip(result); },
                                         [&] {
                                             EXPECT_EQ(std::vector<std::int64_t>(result.ids, result.ids + 5),
                                                       (std::vector<std::int64_t>{1, -2, 3, INT64_MIN, 5}));
                                             EXPECT_EQ(std::vector<float>(result.weights, result.weights + 5),
                                                       (std::vector<float>{0.5f, 0.0f, 0.0f, -1.5f, 2.0f}));
                                             EXPECT_EQ(std::string(result.label, result.label_length),
                                                       "a label longer than any small-string buffer holds");
                                         });
    EXPECT_GT(failures, 5);
}

// What the sparse sequence read back.
struct SparseResult {
    std::uint64_t entries;
    std::uint64_t row_offsets[5];
    std::uint64_t cols[8];
    std::int32_t values[8];
    std::uint64_t tiled_entries;
    std::uint64_t block_offsets[3];
    std::uint32_t block_rows[4];
    std::uint32_t block_cols[4];
    std::int32_t block_values[4];
    std::uint64_t block_entries[2];
};

// A 4 x 6 CSRMatrix of i32 written block by block from CSR arrays (rows 0-1) and COO triplets (rows 2-3), and again
// from object-wide CSR arrays in 2 x 4 tiles; read back as a whole and block by block.
dbdf_status_t sparse_round_trip(SparseResult& result) {
    static const std::uint64_t block_offsets[] = {0, 2, 3};
    static const std::uint32_t block_cols[] = {1, 5, 0};
    static const std::int32_t block_values[] = {7, -8, 9};
    static const std::uint32_t coo_rows[] = {0, 1};
    static const std::uint32_t coo_cols[] = {4, 2};
    static const std::int32_t coo_values[] = {100000, -1};
    static const std::uint64_t offsets[] = {0, 2, 3, 4, 5};
    static const std::uint64_t cols[] = {1, 5, 0, 4, 2};
    static const std::int32_t values[] = {7, -8, 9, 100000, -1};
    dbdf_write_options_t as_given = DBDF_WRITE_OPTIONS_INIT;
    as_given.encoding = DBDF_ENCODING_AS_GIVEN;
    dbdf_write_options_t tiles = DBDF_WRITE_OPTIONS_INIT;
    tiles.block_rows = 2;
    tiles.block_cols = 4;
    dbdf_writer_t* blocks = nullptr;
    dbdf_writer_t* tiled = nullptr;
    dbdf_reader_t* reader = nullptr;
    dbdf_reader_t* tiled_reader = nullptr;
    const void* data = nullptr;
    size_t size = 0;
    dbdf_status_t status = dbdf_writer_open_memory(&blocks);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(blocks, DBDF_DATA_CSR, DBDF_VALUE_I32, 4, 6);
    if (status == DBDF_OK) {
        status = dbdf_writer_add_csr(blocks, 0, 0, 2, 6, DBDF_VALUE_I32, block_offsets, block_cols, block_values, 3,
                                     &as_given);
    }
    if (status == DBDF_OK) {
        status = dbdf_writer_add_coo(blocks, 2, 0, 2, 6, DBDF_VALUE_I32, coo_rows, coo_cols, coo_values, 2, &as_given);
    }
    if (status == DBDF_OK) status = dbdf_writer_finish(blocks);
    if (status == DBDF_OK) status = dbdf_writer_memory(blocks, &data, &size);
    if (status == DBDF_OK) status = dbdf_reader_open_memory(data, size, &reader);
    if (status == DBDF_OK) status = dbdf_reader_count_entries(reader, &result.entries);
    if (status == DBDF_OK) {
        status = dbdf_reader_read_csr(reader, DBDF_VALUE_I32, result.row_offsets, 5, result.cols, result.values, 8,
                                      &result.entries);
    }
    if (status == DBDF_OK) status = dbdf_reader_next_block(reader, nullptr);
    if (status == DBDF_OK) {
        status = dbdf_reader_block_decode_csr(reader, DBDF_VALUE_I32, result.block_offsets, 3, result.block_cols,
                                              result.block_values, 4, &result.block_entries[0]);
    }
    if (status == DBDF_OK) status = dbdf_reader_next_block(reader, nullptr);
    if (status == DBDF_OK) {
        status = dbdf_reader_block_decode_coo(reader, DBDF_VALUE_I32, result.block_rows, result.block_cols,
                                              result.block_values, 4, &result.block_entries[1]);
    }
    if (status == DBDF_OK) status = dbdf_writer_open_memory(&tiled);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(tiled, DBDF_DATA_CSR, DBDF_VALUE_I32, 4, 6);
    if (status == DBDF_OK) status = dbdf_writer_write_csr(tiled, DBDF_VALUE_I32, offsets, cols, values, 5, &tiles);
    if (status == DBDF_OK) status = dbdf_writer_finish(tiled);
    if (status == DBDF_OK) status = dbdf_writer_memory(tiled, &data, &size);
    if (status == DBDF_OK) status = dbdf_reader_open_memory(data, size, &tiled_reader);
    if (status == DBDF_OK) status = dbdf_reader_count_entries(tiled_reader, &result.tiled_entries);
    dbdf_reader_free(tiled_reader);
    dbdf_reader_free(reader);
    dbdf_writer_free(tiled);
    dbdf_writer_free(blocks);
    return status;
}

TEST(CapiNoMemory, CsrAndCooInputAndOutput) {
    SparseResult result{};
    const int failures = expect_nomem_at_every_allocation(
        [&] { return sparse_round_trip(result); },
        [&] {
            EXPECT_EQ(result.entries, 5u);
            EXPECT_EQ(std::vector<std::uint64_t>(result.row_offsets, result.row_offsets + 5),
                      (std::vector<std::uint64_t>{0, 2, 3, 4, 5}));
            EXPECT_EQ(std::vector<std::uint64_t>(result.cols, result.cols + 5),
                      (std::vector<std::uint64_t>{1, 5, 0, 4, 2}));
            EXPECT_EQ(std::vector<std::int32_t>(result.values, result.values + 5),
                      (std::vector<std::int32_t>{7, -8, 9, 100000, -1}));
            EXPECT_EQ(result.block_entries[0], 3u);
            EXPECT_EQ(std::vector<std::uint64_t>(result.block_offsets, result.block_offsets + 3),
                      (std::vector<std::uint64_t>{0, 2, 3}));
            EXPECT_EQ(result.block_entries[1], 2u);  // the COO block, decoded last
            EXPECT_EQ(std::vector<std::uint32_t>(result.block_rows, result.block_rows + 2),
                      (std::vector<std::uint32_t>{0, 1}));
            EXPECT_EQ(std::vector<std::int32_t>(result.block_values, result.block_values + 2),
                      (std::vector<std::int32_t>{100000, -1}));
            EXPECT_EQ(result.tiled_entries, 5u);
        });
    EXPECT_GT(failures, 5);
}

// What the index sequence found.
struct IndexResult {
    std::uint64_t blocks;
    dbdf_block_info_t entry;
    dbdf_block_info_t sought;
    std::uint64_t violations;
    std::uint64_t invalid_violations;
    int first_rule;
    double window[4];
};

// The index, seeking, validation (of a valid and of an invalid object: violation messages are built) and a window
// read over `valid` (a 4 x 4 f64 matrix of 2 x 2 tiles, value 4 * row + col) and `invalid` (uncovered cells).
dbdf_status_t index_and_validate(const std::vector<std::uint8_t>& valid, const std::vector<std::uint8_t>& invalid,
                                 IndexResult& result) {
    dbdf_reader_t* reader = nullptr;
    dbdf_reader_t* broken = nullptr;
    const dbdf_violation_fn first_rule = [](void* context, int rule, uint64_t, const char*) {
        *static_cast<int*>(context) = rule;
    };
    dbdf_status_t status = dbdf_reader_open_memory(valid.data(), valid.size(), &reader);
    if (status == DBDF_OK) status = dbdf_reader_build_index(reader, &result.blocks);
    if (status == DBDF_OK) status = dbdf_reader_index_entry(reader, 2, &result.entry);
    if (status == DBDF_OK) status = dbdf_reader_seek_block(reader, 3);
    if (status == DBDF_OK) status = dbdf_reader_block_info(reader, &result.sought);
    if (status == DBDF_OK) status = dbdf_reader_validate(reader, nullptr, nullptr, &result.violations);
    if (status == DBDF_OK)
        status = dbdf_reader_read_dense_window(reader, DBDF_VALUE_F64, 1, 1, 2, 2, result.window, 4, 0);
    if (status == DBDF_OK) status = dbdf_reader_open_memory(invalid.data(), invalid.size(), &broken);
    if (status == DBDF_OK) {
        status = dbdf_reader_validate(broken, first_rule, &result.first_rule, &result.invalid_violations);
        // The expected outcome: the violation is found and reported.
        if (status == DBDF_ERR_FORMAT && result.invalid_violations == 1) status = DBDF_OK;
    }
    dbdf_reader_free(broken);
    dbdf_reader_free(reader);
    return status;
}

TEST(CapiNoMemory, IndexSeekAndValidate) {
    std::vector<std::uint8_t> valid;
    {
        dbdf_writer_t* writer = nullptr;
        ASSERT_EQ(dbdf_writer_open_memory(&writer), DBDF_OK);
        double values[16];
        for (int i = 0; i < 16; ++i) values[i] = i;
        dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
        options.block_rows = 2;
        options.block_cols = 2;
        ASSERT_EQ(dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 4, 4), DBDF_OK);
        ASSERT_EQ(dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 16, 0, &options), DBDF_OK);
        ASSERT_EQ(dbdf_writer_finish(writer), DBDF_OK);
        const void* data = nullptr;
        size_t size = 0;
        ASSERT_EQ(dbdf_writer_memory(writer, &data, &size), DBDF_OK);
        valid.assign(static_cast<const std::uint8_t*>(data), static_cast<const std::uint8_t*>(data) + size);
        dbdf_writer_free(writer);
    }
    // 2 x 2 f64 matrix with one 1 x 2 empty block: row 1 uncovered (rule 1).
    std::vector<std::uint8_t> invalid = {1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 10};
    const std::uint8_t block[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0};
    invalid.insert(invalid.end(), std::begin(block), std::end(block));
    IndexResult result{};
    const int failures = expect_nomem_at_every_allocation(
        [&] { return index_and_validate(valid, invalid, result); },
        [&] {
            EXPECT_EQ(result.blocks, 4u);
            EXPECT_EQ(result.entry.row, 2u);
            EXPECT_EQ(result.entry.col, 0u);
            EXPECT_EQ(result.sought.index, 3u);
            EXPECT_EQ(result.sought.row, 2u);
            EXPECT_EQ(result.sought.col, 2u);
            EXPECT_EQ(result.violations, 0u);
            EXPECT_EQ(std::vector<double>(result.window, result.window + 4), (std::vector<double>{5, 6, 9, 10}));
            EXPECT_EQ(result.invalid_violations, 1u);
            EXPECT_EQ(result.first_rule, 1);
        });
    EXPECT_GT(failures, 5);
}

// A file written through the atomic file writer and read back through a mapping.
dbdf_status_t file_round_trip(const char* path, double (&out)[6]) {
    static const double values[] = {1.5, 0, -2, 0, 0, 1e300};
    dbdf_writer_t* writer = nullptr;
    dbdf_reader_t* reader = nullptr;
    dbdf_status_t status = dbdf_writer_open_file(path, &writer);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 2, 3);
    if (status == DBDF_OK) status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values, 6, 0, nullptr);
    if (status == DBDF_OK) status = dbdf_writer_finish(writer);
    dbdf_writer_free(writer);
    if (status == DBDF_OK) status = dbdf_reader_open_file(path, &reader);
    if (status == DBDF_OK) status = dbdf_reader_read_dense(reader, DBDF_VALUE_F64, out, 6, 0);
    dbdf_reader_free(reader);
    return status;
}

TEST(CapiNoMemory, FileWritersLeaveNoTemporaryFileBehind) {
    namespace fs = std::filesystem;
    const fs::path directory = fs::temp_directory_path() / ("dbdf_capi_nomem_" + std::to_string(::getpid()));
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path target = directory / "out.dbdf";
    const std::string path = target.string();
    double out[6] = {};
    const auto files_in_directory = [&] {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
        return names;
    };
    const int failures = expect_nomem_at_every_allocation(
        [&] { return file_round_trip(path.c_str(), out); },
        [&] {
            EXPECT_EQ(std::vector<double>(out, out + 6), (std::vector<double>{1.5, 0, -2, 0, 0, 1e300}));
        },
        [&](dbdf_status_t) {
            // Whatever failed, at most the finished file is left: never a temporary one.
            const std::vector<std::string> names = files_in_directory();
            std::string listing;
            for (const std::string& name : names) listing += " " + name;
            EXPECT_TRUE(names.empty() || names == std::vector<std::string>{"out.dbdf"}) << "left behind:" << listing;
            fs::remove(target);
        });
    EXPECT_GT(failures, 3);
    fs::remove_all(directory);
}

}  // namespace
