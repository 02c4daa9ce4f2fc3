// The `threads` and `durable` fields of the option structs (section 5 of dbdf.h): what they change (nothing in the
// bytes or values, only how the work is spread and synced), and callers compiled against an older, smaller struct.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace dbdf_test {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kRows = 1200;
constexpr std::uint64_t kCols = 900;

// Half the tiles dense and fractional, a quarter sparse, a quarter integral (they narrow).
std::vector<double> tiled_values() {
    std::vector<double> values(kRows * kCols);
    for (std::uint64_t i = 0; i < values.size(); ++i) {
        const std::uint64_t row = i / kCols;
        const std::uint64_t col = i % kCols;
        switch ((row / 300 + col / 300) % 4) {
            case 0: values[i] = (row + col) % 50 == 0 ? 1.0 : 0.0; break;
            case 1: values[i] = static_cast<double>((row * col) % 1000); break;
            default: values[i] = static_cast<double>(row) / 8.0 - static_cast<double>(col); break;
        }
    }
    return values;
}

std::vector<std::uint8_t> written_with(const dbdf_writer_options_t& options, const std::vector<double>& values) {
    dbdf_writer_t* raw = nullptr;
    EXPECT_EQ(dbdf_writer_open_memory_with_options(&options, &raw), DBDF_OK) << dbdf_last_error_message();
    WriterHandle writer(raw);
    dbdf_write_options_t tiles = DBDF_WRITE_OPTIONS_INIT;
    tiles.block_rows = 300;
    tiles.block_cols = 300;
    EXPECT_EQ(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols), DBDF_OK);
    EXPECT_EQ(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, &tiles), DBDF_OK)
        << dbdf_last_error_message();
    EXPECT_EQ(dbdf_writer_finish(writer.get()), DBDF_OK) << dbdf_last_error_message();
    return finished_bytes(writer.get());
}

std::vector<double> read_with(const dbdf_open_options_t& options, const std::vector<std::uint8_t>& bytes) {
    dbdf_reader_t* raw = nullptr;
    EXPECT_EQ(dbdf_reader_open_memory_with_options(bytes.data(), bytes.size(), &options, &raw), DBDF_OK)
        << dbdf_last_error_message();
    ReaderHandle reader(raw);
    std::vector<double> values(kRows * kCols, -1.0);
    EXPECT_EQ(dbdf_reader_read_dense(reader.get(), DBDF_VALUE_F64, values.data(), values.size(), 0), DBDF_OK)
        << dbdf_last_error_message();
    return values;
}

TEST(CapiParallel, ThreadCountsChangeNeitherBytesNorValues) {
    dbdf_open_options_t open_defaults;
    dbdf_open_options_init(&open_defaults);
    EXPECT_EQ(open_defaults.threads, 0u);
    dbdf_writer_options_t writer_defaults;
    std::memset(&writer_defaults, 0xff, sizeof writer_defaults);
    dbdf_writer_options_init(&writer_defaults);
    EXPECT_EQ(writer_defaults.threads, 0u);
    EXPECT_EQ(writer_defaults.durable, 0);

    const std::vector<double> values = tiled_values();
    dbdf_writer_options_t one_thread = DBDF_WRITER_OPTIONS_INIT;
    one_thread.threads = 1;
    const std::vector<std::uint8_t> bytes = written_with(one_thread, values);
    for (const unsigned threads : {0u, 2u, 5u}) {
        dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
        options.threads = threads;
        EXPECT_EQ(written_with(options, values), bytes) << threads << " encoding threads";
    }
    for (const unsigned threads : {0u, 1u, 2u, 6u}) {
        dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
        options.threads = threads;
        EXPECT_EQ(read_with(options, bytes), values) << threads << " decoding threads";
    }
}

// A caller compiled before `threads` and `durable` existed passes a smaller struct: the fields it lacks take their
// defaults and nothing past its struct_size is read.
TEST(CapiParallel, OlderSmallerOptionStructsAreAccepted) {
    const std::vector<double> values = tiled_values();
    const std::vector<std::uint8_t> bytes = written_with(DBDF_WRITER_OPTIONS_INIT, values);

    // Heap blocks of exactly the old sizes: under AddressSanitizer a read past struct_size fails the test.
    std::vector<std::byte> old_open_storage(offsetof(dbdf_open_options_t, threads));
    auto* old_open = reinterpret_cast<dbdf_open_options_t*>(old_open_storage.data());
    old_open->struct_size = old_open_storage.size();
    old_open->dialect = DBDF_DIALECT_SPEC;
    EXPECT_EQ(read_with(*old_open, bytes), values);

    std::vector<std::byte> old_writer_storage(offsetof(dbdf_writer_options_t, durable));
    auto* old_writer = reinterpret_cast<dbdf_writer_options_t*>(old_writer_storage.data());
    old_writer->struct_size = old_writer_storage.size();
    old_writer->dialect = DBDF_DIALECT_SPEC;
    old_writer->write_meta = 1;
    EXPECT_EQ(written_with(*old_writer, values), bytes);
}

class CapiDurableFile : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = fs::temp_directory_path() / ("dbdf_capi_options_" + std::to_string(::getpid()));
        fs::remove_all(directory_);
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }
    fs::path directory_;
};

// Durable and default file writes give the same file, replace an existing one and leave nothing else behind.
TEST_F(CapiDurableFile, DurableAndDefaultWritesGiveTheSameFile) {
    const std::vector<double> values = tiled_values();
    const std::vector<std::uint8_t> expected = written_with(DBDF_WRITER_OPTIONS_INIT, values);
    const fs::path target = directory_ / "m.dbdf";
    std::ofstream(target) << "old";
    for (const int durable : {1, 0}) {
        dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
        options.durable = durable;
        options.threads = 2;
        dbdf_writer_t* raw = nullptr;
        ASSERT_OK(dbdf_writer_open_file_with_options(target.c_str(), &options, &raw));
        WriterHandle writer(raw);
        dbdf_write_options_t tiles = DBDF_WRITE_OPTIONS_INIT;
        tiles.block_rows = 300;
        tiles.block_cols = 300;
        ASSERT_OK(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, kRows, kCols));
        ASSERT_OK(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, &tiles));
        ASSERT_OK(dbdf_writer_finish(writer.get()));
        std::ifstream file(target, std::ios::binary);
        const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        EXPECT_EQ(bytes, expected) << "durable " << durable;
        EXPECT_EQ(std::distance(fs::directory_iterator(directory_), fs::directory_iterator()), 1);
    }
}

}  // namespace
}  // namespace dbdf_test
