// The C++ example: small RAII wrappers over dbdf.h (the C interface is all a C++ program needs), then a frame
// written column by column and read back, and the cross-language matrix written for the C example to check.
//
//   dbdf_example_cpp               demo
//   dbdf_example_cpp write FILE    write the cross-language matrix (see examples/c/main.c)
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dbdf.h"

namespace {

// Turns a failed call into an exception carrying the library's message.
void check(dbdf_status_t status, const char* what) {
    if (status != DBDF_OK && status != DBDF_END_OF_BLOCKS) {
        throw std::runtime_error(std::string(what) + ": " + dbdf_status_name(status) + ": " +
                                 dbdf_last_error_message());
    }
}

struct WriterFree {
    void operator()(dbdf_writer_t* writer) const { dbdf_writer_free(writer); }
};
struct ReaderFree {
    void operator()(dbdf_reader_t* reader) const { dbdf_reader_free(reader); }
};
using Writer = std::unique_ptr<dbdf_writer_t, WriterFree>;
using Reader = std::unique_ptr<dbdf_reader_t, ReaderFree>;

Writer memory_writer() {
    dbdf_writer_t* writer = nullptr;
    check(dbdf_writer_open_memory(&writer), "dbdf_writer_open_memory");
    return Writer(writer);
}

// Column `column` of a frame, read in its own value type T.
template <class T>
std::vector<T> read_column(const Reader& reader, std::uint64_t column, dbdf_value_type_t type, std::uint64_t rows) {
    std::vector<T> values(rows);
    check(dbdf_reader_read_column(reader.get(), column, type, values.data(), values.size()), "dbdf_reader_read_column");
    return values;
}

int demo() {
    const std::vector<std::int32_t> station{101, 102, 103, 104};
    const std::vector<double> temperature{21.5, -3.25, 0.0, 37.0};
    const std::vector<std::uint8_t> humidity{40, 85, 0, 12};
    Writer writer = memory_writer();
    const dbdf_value_type_t types[] = {DBDF_VALUE_I32, DBDF_VALUE_F64, DBDF_VALUE_U8};
    const char* labels[] = {"station", "temperature", "humidity"};
    check(dbdf_writer_begin_frame(writer.get(), 4, 3, types, labels, nullptr), "begin_frame");
    check(dbdf_writer_write_column(writer.get(), 0, DBDF_VALUE_I32, station.data(), station.size(), nullptr),
          "station");
    check(dbdf_writer_write_column(writer.get(), 1, DBDF_VALUE_F64, temperature.data(), temperature.size(), nullptr),
          "temperature");
    check(dbdf_writer_write_column(writer.get(), 2, DBDF_VALUE_U8, humidity.data(), humidity.size(), nullptr),
          "humidity");
    check(dbdf_writer_finish(writer.get()), "finish");
    const void* bytes = nullptr;
    size_t size = 0;
    check(dbdf_writer_memory(writer.get(), &bytes, &size), "dbdf_writer_memory");
    std::printf("wrote a 4-row frame of 3 typed, labelled columns: %zu bytes\n", size);

    dbdf_reader_t* raw = nullptr;
    check(dbdf_reader_open_memory(bytes, size, &raw), "dbdf_reader_open_memory");
    Reader reader(raw);
    dbdf_block_info_t block{};
    dbdf_status_t status;
    while ((status = dbdf_reader_next_block(reader.get(), &block)) == DBDF_OK) {
        std::printf("  block %llu: column %llu, rows %llu..%llu, %s of %s\n",
                    static_cast<unsigned long long>(block.index), static_cast<unsigned long long>(block.col),
                    static_cast<unsigned long long>(block.row),
                    static_cast<unsigned long long>(block.row + block.rows - 1), dbdf_block_type_name(block.block_type),
                    dbdf_value_type_name(block.value_type));
    }
    check(status, "dbdf_reader_next_block");
    const auto stations = read_column<std::int32_t>(reader, 0, DBDF_VALUE_I32, 4);
    const auto temperatures = read_column<double>(reader, 1, DBDF_VALUE_F64, 4);
    const auto humidities = read_column<std::uint8_t>(reader, 2, DBDF_VALUE_U8, 4);
    std::printf("%8s %12s %9s\n", labels[0], labels[1], labels[2]);
    for (int row = 0; row < 4; ++row) {
        std::printf("%8d %12g %9u\n", stations[row], temperatures[row], static_cast<unsigned>(humidities[row]));
        if (stations[row] != station[row] || temperatures[row] != temperature[row] ||
            humidities[row] != humidity[row]) {
            throw std::runtime_error("the frame read back differs from the one written");
        }
    }
    return 0;
}

int write_cross_matrix(const char* path) {
    std::vector<double> values(30);
    for (int row = 0; row < 6; ++row) {
        for (int col = 0; col < 5; ++col) values[row * 5 + col] = (row + col) % 3 == 0 ? 0.0 : (row * 5 + col) * 0.5;
    }
    dbdf_writer_t* raw = nullptr;
    check(dbdf_writer_open_file(path, &raw), "dbdf_writer_open_file");
    Writer writer(raw);
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.block_rows = 4;
    options.block_cols = 3;
    check(dbdf_writer_begin_matrix(writer.get(), DBDF_DATA_DENSE, DBDF_VALUE_F64, 6, 5), "begin_matrix");
    check(dbdf_writer_write_dense(writer.get(), DBDF_VALUE_F64, values.data(), values.size(), 0, &options),
          "write_dense");
    check(dbdf_writer_finish(writer.get()), "finish");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc == 1) return demo();
        if (argc == 3 && std::string(argv[1]) == "write") return write_cross_matrix(argv[2]);
        std::fprintf(stderr, "usage: %s [write FILE]\n", argv[0]);
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
}
