// Payloads placed for the kernel's copy into a file's page cache (core/src/placed_payload.hpp): the copies hold the
// payload's bytes at an address congruent to its file offset modulo 4096, the offsets forecast are those the writer
// then writes at, and write_dense writes the same bytes whether it places payloads or not.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "dbdf/block.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/writer.hpp"
#include "placed_payload.hpp"
#include "test_support.hpp"

namespace dbdf {
namespace {

using detail::PayloadOffsets;
using detail::PayloadRows;
using detail::PlacedPayload;
using detail::SpareBuffers;

std::vector<std::byte> counting_bytes(std::size_t count) {
    std::vector<std::byte> bytes(count);
    for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<std::byte>(i * 131 + i / 4096);
    return bytes;
}

std::uint64_t distance_mod_page(std::uint64_t file_offset, const std::byte* address) {
    return (file_offset - reinterpret_cast<std::uintptr_t>(address)) % 4096;
}

TEST(PlacedPayload, HoldsTheBytesAtAnAddressCongruentToTheFileOffset) {
    SpareBuffers spares;
    const std::vector<std::byte> bytes = counting_bytes(PlacedPayload::kPlacedFrom + 77);
    for (const std::uint64_t offset :
         {std::uint64_t{0}, std::uint64_t{45}, std::uint64_t{4095}, (std::uint64_t{1} << 33) + 17}) {
        const PlacedPayload placed(PayloadRows{bytes.data(), bytes.size(), 1, bytes.size()}, offset, spares);
        ASSERT_EQ(placed.bytes().size(), bytes.size());
        EXPECT_EQ(distance_mod_page(offset, placed.bytes().data()), 0u) << "offset " << offset;
        EXPECT_EQ(std::memcmp(placed.bytes().data(), bytes.data(), bytes.size()), 0) << "offset " << offset;
    }
}

TEST(PlacedPayload, MovesItsCopyAndGivesItsBufferBackToTheSpares) {
    SpareBuffers spares;
    const std::vector<std::byte> bytes = counting_bytes(PlacedPayload::kPlacedFrom);
    const std::byte* buffer_seen = nullptr;
    {
        PlacedPayload placed(PayloadRows{bytes.data(), 1024, bytes.size() / 1024, 1024}, 45, spares);
        PlacedPayload moved(std::move(placed));
        EXPECT_TRUE(placed.empty());  // NOLINT(bugprone-use-after-move): a moved-from copy holds nothing
        ASSERT_FALSE(moved.empty());
        EXPECT_EQ(distance_mod_page(45, moved.bytes().data()), 0u);
        PlacedPayload assigned;
        assigned = std::move(moved);
        EXPECT_EQ(std::memcmp(assigned.bytes().data(), bytes.data(), bytes.size()), 0);
        buffer_seen = assigned.bytes().data();
    }
    // The next payload of that size takes the same buffer back from the spares.
    std::size_t capacity = 0;
    const detail::SpareBuffer again = spares.take(bytes.size() + 4096, capacity);
    EXPECT_GE(capacity, bytes.size() + 4096);
    EXPECT_LE(again.get(), buffer_seen);
    EXPECT_GT(again.get() + 4096, buffer_seen);
}

TEST(PlacedPayload, PutsRowsApartInMemoryOneAfterTheOther) {
    SpareBuffers spares;
    const std::size_t row_bytes = 4096 * 3 + 8, stride_bytes = row_bytes + 40, rows = 100;
    const std::vector<std::byte> apart = counting_bytes(stride_bytes * rows);
    const PlacedPayload placed(PayloadRows{apart.data(), row_bytes, rows, stride_bytes}, 19 + 26, spares);
    ASSERT_EQ(placed.bytes().size(), row_bytes * rows);
    EXPECT_EQ(distance_mod_page(19 + 26, placed.bytes().data()), 0u);
    for (std::size_t row = 0; row < rows; ++row) {
        ASSERT_EQ(std::memcmp(placed.bytes().data() + row * row_bytes, apart.data() + row * stride_bytes, row_bytes), 0)
            << "row " << row;
    }
}

TEST(PayloadOffsets, ForecastsDenseRecordsOfTheTilesNotWrittenYet) {
    // Three full-width tiles of 32, 32 and 10 rows of 16384 doubles after an object header of 19 bytes.
    const std::vector<BlockPlacement> tiles{{0, 0, 32, 16384}, {32, 0, 32, 16384}, {64, 0, 10, 16384}};
    const std::uint64_t record_header =
        kBlockPositionBytes + dense_block_bytes(32, 16384, ValueType::F64) - std::uint64_t{32} * 16384 * 8;
    EXPECT_EQ(record_header, 26u);  // rx, cx (16 bytes), the block header and its value type (spec, section 4)
    const std::uint64_t full_record = 26 + std::uint64_t{32} * 16384 * 8;
    PayloadOffsets offsets(tiles, ValueType::F64, 19);
    EXPECT_EQ(offsets.payload_offset(0), 19u + 26);
    EXPECT_EQ(offsets.payload_offset(1), 19u + full_record + 26);
    EXPECT_EQ(offsets.payload_offset(2), 19u + 2 * full_record + 26);
    // Tile 0 was written narrowed, 1000 bytes long in all: the forecast follows where the writer says it is.
    offsets.written(0, 19 + 1000);
    EXPECT_EQ(offsets.payload_offset(1), 19u + 1000 + 26);
    EXPECT_EQ(offsets.payload_offset(2), 19u + 1000 + full_record + 26);
    offsets.written(1, 5000);
    EXPECT_EQ(offsets.payload_offset(2), 5000u + 26);
}

// A memory sink that says it places payloads, as a file sink does, and notes where each payload of 1 MiB or more
// would land in a file of its bytes, and from which address. Such a write takes 20 ms, as a kernel's copy of many
// megabytes takes long against the analysis of a small tile here: meanwhile a helper thread surely has started and
// taken the tile after it, so that some tiles are placed on every run.
class PlacingSink final : public ByteSink {
public:
    struct LargeWrite {
        std::uint64_t file_offset;
        const std::byte* address;
        std::size_t size;
    };

    void write(std::span<const std::byte> bytes) override {
        if (bytes.size() >= PlacedPayload::kPlacedFrom) {
            large_writes.push_back({bytes_.size(), bytes.data(), bytes.size()});
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    }
    bool places_payloads() const override { return true; }
    const std::vector<std::byte>& bytes() const { return bytes_; }

    std::vector<LargeWrite> large_writes;

private:
    std::vector<std::byte> bytes_;
};

constexpr std::uint64_t kCols = 16384;  // an automatic tile of doubles: 32 full rows, 4 MiB

// Doubles that keep their type and their block dense; the rows in [integral_begin, integral_end) are small integers
// (a tile of them is narrowed to u8), those in [zero_begin, zero_end) zeros (empty or sparse tiles).
std::vector<double> doubles(std::uint64_t rows, std::uint64_t integral_begin = 0, std::uint64_t integral_end = 0,
                            std::uint64_t zero_begin = 0, std::uint64_t zero_end = 0) {
    std::vector<double> values(rows * kCols);
    std::uint64_t state = 88172645463325252ull;
    for (std::uint64_t i = 0; i < values.size(); ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        const std::uint64_t row = i / kCols;
        if (row >= zero_begin && row < zero_end) {
            values[i] = 0.0;
        } else if (row >= integral_begin && row < integral_end) {
            values[i] = static_cast<double>(state % 100);
        } else {
            values[i] = static_cast<double>(state >> 11) * 0x1.0p-53;
        }
    }
    return values;
}

std::vector<std::byte> write_dense_to(std::unique_ptr<ByteSink> sink, const std::vector<double>& values,
                                      unsigned threads) {
    Writer writer(std::move(sink));
    writer.set_encode_threads(threads);
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, values.size() / kCols, kCols);
    writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
    writer.finish();
    if (auto* memory = dynamic_cast<MemorySink*>(&writer.sink())) return memory->bytes();
    return static_cast<PlacingSink&>(writer.sink()).bytes();
}

// How the large payloads of a write_dense call were written: from copies placed at distance 0 from their file
// offsets, or from the tiles' own cells in the caller's array; any other source counts as `elsewhere`.
struct PayloadSources {
    std::size_t placed = 0;
    std::size_t from_the_array = 0;
    std::size_t elsewhere = 0;
};

PayloadSources payload_sources(const PlacingSink& sink, const std::vector<double>& values, std::size_t tile_bytes) {
    const auto* array_begin = reinterpret_cast<const std::byte*>(values.data());
    const auto* array_end = array_begin + values.size() * sizeof(double);
    PayloadSources sources;
    for (std::size_t tile = 0; tile < sink.large_writes.size(); ++tile) {
        const PlacingSink::LargeWrite& write = sink.large_writes[tile];
        const bool in_the_array = write.address >= array_begin && write.address < array_end;
        if (in_the_array && write.address == array_begin + tile * tile_bytes && write.size == tile_bytes) {
            ++sources.from_the_array;
        } else if (!in_the_array && write.size == tile_bytes &&
                   distance_mod_page(write.file_offset, write.address) == 0) {
            ++sources.placed;
        } else {
            ++sources.elsewhere;
        }
    }
    return sources;
}

// Every tile a helper analysed is written from a copy placed at its file offset; one the writing thread analysed
// itself (the first, mostly: the helpers are still starting) from the caller's array, since on that thread the copy
// would cost the writes more than it saves them.
TEST(ParallelPlacedPayloads, TilesAnalysedAheadAreWrittenFromCopiesPlacedAtTheirFileOffsets) {
    const std::vector<double> values = doubles(32 * 5 + 7);  // five whole tiles and a short one
    const std::vector<std::byte> expected = write_dense_to(std::make_unique<MemorySink>(), values, 1);
    const std::size_t tile_bytes = std::size_t{32} * kCols * sizeof(double);
    for (const unsigned threads : {2u, 3u}) {
        Writer writer(std::make_unique<PlacingSink>());
        writer.set_encode_threads(threads);
        writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, values.size() / kCols, kCols);
        writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
        const auto& sink = static_cast<const PlacingSink&>(writer.sink());
        // The five 4 MiB payloads; the short tile's 448 KiB are written from where they are.
        ASSERT_EQ(sink.large_writes.size(), 5u) << threads << " threads";
        const PayloadSources sources = payload_sources(sink, values, tile_bytes);
        EXPECT_EQ(sources.elsewhere, 0u) << threads << " threads";
        EXPECT_GE(sources.placed, 1u) << threads << " threads";
        EXPECT_EQ(sources.placed + sources.from_the_array, 5u) << threads << " threads";
        writer.finish();
        EXPECT_EQ(sink.bytes(), expected) << threads << " threads";
    }
}

// With one thread nothing is analysed ahead, so no copy is made: every payload comes from the caller's array.
TEST(ParallelPlacedPayloads, OneThreadPlacesNoPayload) {
    const std::vector<double> values = doubles(32 * 3);
    Writer writer(std::make_unique<PlacingSink>());
    writer.set_encode_threads(1);
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, values.size() / kCols, kCols);
    writer.write_dense(ValueType::F64, values.data(), values.size(), 0, WriteOptions{});
    writer.finish();
    const auto& sink = static_cast<const PlacingSink&>(writer.sink());
    const PayloadSources sources = payload_sources(sink, values, std::size_t{32} * kCols * sizeof(double));
    EXPECT_EQ(sources.from_the_array, 3u);
    EXPECT_EQ(sources.placed + sources.elsewhere, 0u);
    EXPECT_EQ(sink.bytes(), write_dense_to(std::make_unique<MemorySink>(), values, 1));
}

TEST(ParallelPlacedPayloads, TilesNarrowedOrSparseInBetweenChangeNoByte) {
    // Tiles 0-1 random, 2 narrowed to u8, 3 random, 4 empty, 5 random, 6 half zeros (dense or sparse as the count
    // says), 7 random: the forecasts made before a narrowed or sparse tile is written are wrong, which may cost
    // the speed of the tile after it but never its bytes.
    const std::vector<double> values = doubles(32 * 8, 64, 96, 128, 160);
    std::vector<double> half_zeros = values;
    for (std::uint64_t i = 192 * kCols; i < 224 * kCols; i += 2) half_zeros[i] = 0.0;
    for (const std::vector<double>* input : std::vector<const std::vector<double>*>{&values, &half_zeros}) {
        const std::vector<std::byte> expected = write_dense_to(std::make_unique<MemorySink>(), *input, 1);
        for (const unsigned threads : {2u, 4u}) {
            EXPECT_EQ(write_dense_to(std::make_unique<PlacingSink>(), *input, threads), expected)
                << threads << " threads";
        }
    }
}

TEST(ParallelPlacedPayloads, RowsApartInMemoryArePlacedOneAfterTheOther) {
    // A window of the matrix, every row kCols + 8 apart: each tile's rows are copied together to their place.
    const std::vector<double> wide = doubles(64, 0, 0, 0, 0);
    std::vector<double> padded((kCols + 8) * 64);
    for (std::uint64_t row = 0; row < 64; ++row) {
        std::memcpy(&padded[row * (kCols + 8)], &wide[row * kCols], kCols * sizeof(double));
    }
    Writer writer(std::make_unique<PlacingSink>());
    writer.set_encode_threads(2);
    writer.begin_matrix(DataType::DenseMatrix, ValueType::F64, 64, kCols);
    writer.write_dense(ValueType::F64, padded.data(), padded.size(), kCols + 8, WriteOptions{});
    writer.finish();
    const auto& sink = static_cast<const PlacingSink&>(writer.sink());
    EXPECT_EQ(sink.bytes(), write_dense_to(std::make_unique<MemorySink>(), wide, 1));
    // A tile the writing thread analysed itself is gathered row by row from the window instead: more writes, none
    // of a whole tile from the array.
    std::size_t placed = 0;
    for (const PlacingSink::LargeWrite& write : sink.large_writes) {
        if (write.size == std::size_t{32} * kCols * sizeof(double)) {
            EXPECT_EQ(distance_mod_page(write.file_offset, write.address), 0u);
            ++placed;
        }
    }
    EXPECT_GE(placed, 1u);
    // A memory sink gains nothing from a copy: none is made (the payloads come from the caller's array).
    EXPECT_FALSE(MemorySink().places_payloads());
}

}  // namespace
}  // namespace dbdf
