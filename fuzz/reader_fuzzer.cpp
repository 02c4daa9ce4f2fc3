// libFuzzer target: open any input, step through its blocks and decode each one in every output form, build the
// index, read the whole object when small, and validate, from memory and through a byte source; and pull it as an
// Arrow stream (arrow_pull.hpp). Any input must end in success or dbdf::Error; a crash, a sanitizer report, a hang
// or an allocation beyond the caps below is a bug. Built twice: DBDF_FUZZ_DIALECT (Spec or Daphne) names the
// dialect the reader is opened with.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "arrow_pull.hpp"
#include "dbdf/error.hpp"
#include "dbdf/reader.hpp"

#ifndef DBDF_FUZZ_DIALECT
#error "DBDF_FUZZ_DIALECT must name the dialect: Spec or Daphne"
#endif

namespace {

// Caps on what the target itself allocates for outputs, so that large (valid) claims are skipped, not fuzzed
// into out-of-memory reports of the harness.
constexpr std::uint64_t kMaxCells = 1 << 16;

void decode_current_block(dbdf::Reader& reader) {
    const dbdf::BlockView& block = reader.block();
    (void)reader.payload();
    if (block.area() <= kMaxCells) {
        std::vector<double> dense(block.area());
        reader.decode_dense(dbdf::ValueType::F64, dense.data(), dense.size(), 0);
        std::vector<std::int8_t> narrow(block.area());
        try {
            reader.decode_dense(dbdf::ValueType::I8, narrow.data(), narrow.size(), 0);
        } catch (const dbdf::Error&) {}
    }
    const std::uint64_t entries = reader.count_entries();
    if (entries <= kMaxCells && block.rows <= kMaxCells) {
        std::vector<std::uint64_t> row_offsets(std::uint64_t{block.rows} + 1);
        std::vector<std::uint32_t> rows(entries), cols(entries);
        std::vector<float> values(entries);
        reader.decode_csr(dbdf::ValueType::F32, row_offsets.data(), row_offsets.size(), cols.data(), values.data(),
                          values.size());
        reader.decode_coo(dbdf::ValueType::F32, rows.data(), cols.data(), values.data(), values.size());
    }
}

// The input as a caller's byte source: reads of at most `most_bytes` (short reads, asked again for the rest), its
// size declared or left to probing, and a read-ahead window of the library's default or of 64 bytes.
dbdf::ReadAtSource source_over(std::span<const std::byte> input, std::size_t most_bytes, bool sized,
                               bool small_window) {
    dbdf::ReadAtSource source;
    source.read_at = [input, most_bytes](std::uint64_t offset, std::span<std::byte> destination) -> std::size_t {
        if (offset >= input.size()) return 0;
        const std::size_t count = std::min({destination.size(), most_bytes, input.size() - offset});
        std::memcpy(destination.data(), input.data() + offset, count);
        return count;
    };
    if (sized) source.size = input.size();
    source.read_ahead = small_window ? 64 : 0;
    return source;
}

void exercise(dbdf::Reader reader) {
    reader.validate([](const dbdf::Violation&) {});
    try {
        while (reader.next_block()) {
            try {
                decode_current_block(reader);
            } catch (const dbdf::Error&) {}
        }
    } catch (const dbdf::Error&) {}
    const auto& header = reader.header();
    const auto& index = reader.build_index();
    if (!index.empty()) reader.seek_block(index.size() - 1);
    if (header.rows * header.cols <= kMaxCells && header.rows <= kMaxCells && header.cols <= kMaxCells) {
        std::vector<double> all(header.rows * header.cols);
        reader.read_dense_window(dbdf::ValueType::F64, dbdf::Window{0, 0, header.rows, header.cols}, all.data(),
                                 all.size(), 0);
        const std::uint64_t entries = reader.count_entries_total();
        std::vector<std::uint64_t> row_offsets(header.rows + 1), cols(entries);
        std::vector<double> values(entries);
        reader.read_csr(dbdf::ValueType::F64, row_offsets.data(), row_offsets.size(), cols.data(), values.data(),
                        values.size());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span input(reinterpret_cast<const std::byte*>(data), size);
    constexpr dbdf::Dialect kDialect = dbdf::Dialect::DBDF_FUZZ_DIALECT;
    try {
        exercise(dbdf::Reader::open_memory(input, kDialect));
    } catch (const dbdf::Error&) {}
    // The same through a byte source, whose reader fetches only what it needs instead of seeing all the input. How
    // it serves the bytes comes from the input's size, so that mutations reach each way.
    try {
        const std::size_t most_bytes = std::size_t{1} << (size % 7 * 2);  // 1 to 4096 bytes a read
        exercise(
            dbdf::Reader::open_source(source_over(input, most_bytes, (size & 8) != 0, (size & 16) != 0), kDialect));
    } catch (const dbdf::Error&) {}
    // A reader of its own: the export starts at the first block, whatever the reads above left. The layouts come
    // from the input's size, so that mutations reach each of them.
    try {
        auto reader = std::make_shared<dbdf::Reader>(dbdf::Reader::open_memory(input, kDialect));
        (void)dbdf_fuzz::pull_arrow_export(std::move(reader), static_cast<unsigned>(size % 4));
    } catch (const dbdf::Error&) {}
    return 0;
}
