// A failing allocation inside the core comes back as DBDF_ERR_NOMEM, never as an exception crossing the ABI.
// This binary links the static library, so the global operator new below is the one the core uses.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "dbdf.h"

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

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }

// Runs a whole write-then-read sequence through the C ABI; allocations may fail anywhere inside it.
dbdf_status_t write_then_read(const std::vector<double>& values, std::vector<double>& out) {
    dbdf_writer_t* writer = nullptr;
    dbdf_reader_t* reader = nullptr;
    const void* data = nullptr;
    size_t size = 0;
    dbdf_status_t status = dbdf_writer_open_memory(&writer);
    if (status == DBDF_OK) status = dbdf_writer_begin_matrix(writer, DBDF_DATA_DENSE, DBDF_VALUE_F64, 8, 8);
    if (status == DBDF_OK) status = dbdf_writer_write_dense(writer, DBDF_VALUE_F64, values.data(), 64, 0, nullptr);
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
        const dbdf_status_t status = write_then_read(values, out);
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
