// A failing allocation inside the core comes back as DBDF_ERR_NOMEM, never as an exception crossing the ABI.
// This binary links the static library, so the global operator new below is the one the core uses.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
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
