#include "spec_body_writer.hpp"

#include <algorithm>
#include <new>
#include <span>

#include "analysis_pipeline.hpp"
#include "block_encoder.hpp"
#include "block_facts.hpp"
#include "dbdf/endian.hpp"
#include "dbdf/tile_shape.hpp"
#include "parallel_for.hpp"
#include "wide_count.hpp"

namespace dbdf {

namespace detail {
namespace {

template <class T>
EncodingPlan automatic_plan(const BlockPosition& position, const BlockFacts& facts) {
    return smallest_plan(position, facts.entries, narrowest_type(facts.feasible, value_type_v<T>));
}

// Encodes and writes a block whose values were analysed (and checked against rule 8) already.
template <class T, class Source>
void emit_block(WriteContext& context, const BlockPlacement& place, const Source& source, Encoding encoding,
                BlockType given_type, const BlockFacts& facts) {
    const BlockPosition position{place.row, place.col, place.rows, place.cols};
    EncodingPlan plan;
    switch (encoding) {
        case Encoding::Auto: plan = automatic_plan<T>(position, facts); break;
        case Encoding::AsGiven: plan = EncodingPlan{given_type, value_type_v<T>, facts.entries}; break;
        case Encoding::Dense: plan = EncodingPlan{BlockType::Dense, value_type_v<T>, facts.entries}; break;
        case Encoding::Csr: plan = EncodingPlan{BlockType::Csr, value_type_v<T>, facts.entries}; break;
        case Encoding::Coo: plan = EncodingPlan{BlockType::Coo, value_type_v<T>, facts.entries}; break;
    }
    if (plan.block_type == BlockType::Coo && plan.entries > kMaxBlockExtent) {
        invalid_argument(placement_text(place) + " has " + std::to_string(plan.entries) +
                         " entries; a COO block holds at most 2^32-1 (its #nzb is uint32)");
    }
    // A dense payload the analysis stored in the plan's value type (u8 / i8, u16 / i16, u32 / i32, f32): the
    // values are not read again.
    const bool from_narrowed =
        facts.narrowed.storing() && plan.block_type == BlockType::Dense && plan.value_type == facts.narrowed.type();
    // A CSR block of the values' own type from the payload the analysis collected: the values are not read again.
    const bool from_csr_payload =
        facts.csr_payload != nullptr && plan.block_type == BlockType::Csr && plan.value_type == value_type_v<T>;
    // A dense payload of the values as they are, copied where the kernel's copy of it runs fastest.
    const bool from_placed =
        !facts.placed.empty() && plan.block_type == BlockType::Dense && plan.value_type == value_type_v<T>;
    context.emitting([&] {
        if (from_placed) {
            put_record_header(context.out, position, plan);
            context.out.put_bytes(facts.placed.bytes());
            return;
        }
        if (from_csr_payload) {
            put_record_header(context.out, position, plan);
            context.out.put_bytes(std::span<const std::byte>(facts.csr_payload.get(), facts.csr_payload_bytes));
            return;
        }
        if (!from_narrowed) {
            encode_block(context.out, position, source, plan);
            return;
        }
        put_record_header(context.out, position, plan);
        context.out.put_bytes(facts.narrowed.payload());
    });
    context.record(place);
}

// On a helper thread that analyses the tiles of write_dense ahead of the writes: when the tile is written as a
// dense block of its values as they are (automatic encoding kept their type, and no sparse block is smaller), a copy
// of them placed for the kernel's copy at the payload's forecast offset (placed_payload.hpp), its rows one after the
// other whether they lie in one run or apart (a window of a wider array, which the writing thread would otherwise
// gather itself). Sizes outside [kPlacedFrom, kMostPlacedBytes] are written from where they are.
template <class T>
void place_payload(BlockFacts& facts, const BlockPlacement& place, const DenseSource<T>& source,
                   const PayloadOffsets& offsets, std::size_t tile, SpareBuffers& spares) {
    const std::uint64_t bytes = std::uint64_t{place.rows} * place.cols * sizeof(T);
    if (!kHostIsLittleEndian || bytes < PlacedPayload::kPlacedFrom || bytes > PlacedPayload::kMostPlacedBytes) return;
    const EncodingPlan plan = automatic_plan<T>(BlockPosition{place.row, place.col, place.rows, place.cols}, facts);
    if (plan.block_type != BlockType::Dense || plan.value_type != value_type_v<T>) return;
    const PayloadRows rows{reinterpret_cast<const std::byte*>(source.row(0)), std::size_t{place.cols} * sizeof(T),
                           place.rows, static_cast<std::size_t>(source.stride) * sizeof(T)};
    try {
        facts.placed = PlacedPayload(rows, offsets.payload_offset(tile), spares);
    } catch (const std::bad_alloc&) {
        // No memory for a copy: the block is written from the caller's values, as without one.
    }
}

// The first step of reservation ahead of dense blocks, and the largest: each step reserves as much as was written
// before it within these bounds, so a file takes a few steps (a 512 MiB one four or five), an object whose header
// declares far more than its caller ever adds gets at most what was written plus 64 MiB reserved past it, and a
// matrix that automatic encoding narrows (small integers: an eighth of the dense size) does not have the whole dense
// size reserved and given back (fallocate and trimming 512 MiB cost 15 to 40 ms, 64 MiB under 4 ms).
constexpr std::uint64_t kFirstReservationStep = std::uint64_t{64} << 20;
constexpr std::uint64_t kLargestReservationStep = std::uint64_t{1} << 30;

// Reserves the output's space ahead of a dense block, added alone or by write_dense_blocks (a file sink preallocates
// it, so that the file system allocates space in a few large extents instead of page by page as the writes arrive).
// Only for encodings that never write more than plain dense blocks of the wider of the given and the object's value
// type; no more than the object's uncovered cells can take in such blocks. What is not written is given back when the
// file is committed, or goes with the temporary file.
void reserve_ahead_of_dense_block(WriteContext& context, const BlockPlacement& place, ValueType type,
                                  Encoding encoding) {
    const ObjectHeader& header = context.header;
    const bool bounded_by_dense =
        encoding == Encoding::Auto || encoding == Encoding::Dense || encoding == Encoding::AsGiven;
    if (!bounded_by_dense || !is_matrix(header.data_type)) return;
    const ValueType widest = value_size(type) >= value_size(header.value_type) ? type : header.value_type;
    const std::uint64_t block_bytes = kBlockPositionBytes + dense_block_bytes(place.rows, place.cols, widest);
    const std::uint64_t position = context.out.total();
    if (position + block_bytes <= context.reserved_until) return;
    const WideCount uncovered = static_cast<WideCount>(header.rows) * header.cols - context.tracker.covered_cells();
    const WideCount uncovered_bytes = uncovered * value_size(widest);
    const std::uint64_t step = std::clamp(position, kFirstReservationStep, kLargestReservationStep);
    const std::uint64_t bytes =
        std::max<std::uint64_t>(block_bytes, static_cast<std::uint64_t>(std::min<WideCount>(step, uncovered_bytes)));
    context.reserve_output_unflushed(bytes);
}

}  // namespace

void SpecBodyWriter::check_header(const ObjectHeader& header) const {
    if (header.data_type == DataType::Scalar) {
        // Data type 4 is DAPHNE's serialized single value; the spec defines no such data type, so a spec file
        // cannot hold it.
        invalid_argument(
            "data type scalar exists only in the daphne dialect; the spec format has no scalar (write "
            "a 1 x 1 dense matrix instead)");
    }
    check_header_for_writing(header);
}

void SpecBodyWriter::write_header() {
    const std::vector<std::byte> bytes = encode_header(context_.header);
    context_.emitting([&] { context_.out.put_bytes(bytes); });
}

void SpecBodyWriter::check_block(const BlockPlacement& place, Encoding, BlockType) const {
    context_.check_placement(place);
}

void SpecBodyWriter::add_block(const BlockPlacement& place, const BlockInput& input, Encoding encoding) {
    if (input.given == BlockType::Dense) reserve_ahead_of_dense_block(context_, place, input.type, encoding);
    input.visit([&](auto& source) {
        using T = source_value_t<decltype(source)>;
        if constexpr (!kIsDenseSource<std::remove_cvref_t<decltype(source)>>) {
            source.drop_zeros = encoding == Encoding::Auto;
        }
        const BlockFacts facts =
            analyze<T>(source, DeclaredTypes<T>(context_.header, place), facts_wanted(encoding), &spare_buffers_);
        emit_block<T>(context_, place, source, encoding, input.given, facts);
    });
}

void SpecBodyWriter::add_empty(const BlockPlacement& place) {
    const BlockPosition position{place.row, place.col, place.rows, place.cols};
    context_.emitting([&] {
        put_record_header(context_.out, position, EncodingPlan{BlockType::Empty, ValueType::None, 0});
    });
    context_.record(place);
}

// The tiles in row-major tile order (rule 3); none for a matrix without cells (rule 4: no blocks).
std::vector<BlockPlacement> SpecBodyWriter::matrix_blocks(ValueType type, const WriteOptions& options) const {
    const ObjectHeader& header = context_.header;
    std::vector<BlockPlacement> tiles;
    if (header.rows == 0 || header.cols == 0) return tiles;
    const BlockPlacement tile = tile_shape(header, type, options);
    for (std::uint64_t row = 0; row < header.rows; row += tile.rows) {
        for (std::uint64_t col = 0; col < header.cols; col += tile.cols) {
            tiles.push_back(BlockPlacement{
                row, col, static_cast<std::uint32_t>(std::min<std::uint64_t>(tile.rows, header.rows - row)),
                static_cast<std::uint32_t>(std::min<std::uint64_t>(tile.cols, header.cols - col))});
        }
    }
    return tiles;
}

void SpecBodyWriter::write_dense_blocks(const std::vector<BlockPlacement>& tiles, ValueType type, const void* values,
                                        std::uint64_t stride, Encoding encoding, unsigned encode_threads) {
    const ObjectHeader& header = context_.header;
    const std::uint64_t value_count =
        tiles.empty() ? 0 : static_cast<std::uint64_t>(static_cast<WideCount>(header.rows - 1) * stride + header.cols);
    const unsigned threads = detail::encode_threads(encode_threads, tiles.size(), value_count * value_size(type));
    visit_value_type(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* typed_values = static_cast<const T*>(values);
        auto source_of = [&](const BlockPlacement& place) {
            return DenseSource<T>{typed_values + place.row * stride + place.col, place.rows, place.cols, stride};
        };
        const FactsWanted wanted = facts_wanted(encoding);
        // A given dense encoding of values that need no rule 8 check has nothing to analyse ahead.
        const bool nothing_to_analyse =
            !tiles.empty() && wanted == FactsWanted::None && !DeclaredTypes<T>(header, tiles[0]).needed();
        // Payloads are placed by the threads that analyse ahead of the writes, so only when there are such threads,
        // and only for an output that gains from it.
        const unsigned pipeline_threads = nothing_to_analyse ? 1 : threads;
        const bool place_payloads = encoding == Encoding::Auto && pipeline_threads >= 2 && tiles.size() >= 2 &&
                                    context_.sink->places_payloads();
        PayloadOffsets offsets(tiles, type, context_.out.total());
        run_analysis_pipeline(
            tiles.size(), pipeline_threads,
            [&](std::size_t i, AnalysingThread thread) {
                BlockFacts facts =
                    analyze<T>(source_of(tiles[i]), DeclaredTypes<T>(header, tiles[i]), wanted, &spare_buffers_);
                // On the writing thread the copy would cost the writes more than its faster copy saves them.
                if (place_payloads && thread == AnalysingThread::Helper) {
                    place_payload<T>(facts, tiles[i], source_of(tiles[i]), offsets, i, spare_buffers_);
                }
                return facts;
            },
            [&](std::size_t i, const BlockFacts& facts) {
                reserve_ahead_of_dense_block(context_, tiles[i], type, encoding);
                emit_block<T>(context_, tiles[i], source_of(tiles[i]), encoding, BlockType::Dense, facts);
                offsets.written(i, context_.out.total());
            });
    });
}

// Row bands of one column, each a dense block of the automatic height for the column's type unless the options
// give one.
void SpecBodyWriter::write_column(std::uint64_t column, ValueType type, const void* values,
                                  const WriteOptions& options) {
    const ObjectHeader& header = context_.header;
    const ValueType declared = header.type_of_column(column);
    const std::uint32_t block_rows =
        options.block_rows != 0 ? options.block_rows : default_tile(header.rows, 1, declared).rows;
    const auto* bytes = static_cast<const std::byte*>(values);
    for (std::uint64_t row = 0; row < header.rows; row += block_rows) {
        const BlockPlacement place{
            row, column, static_cast<std::uint32_t>(std::min<std::uint64_t>(block_rows, header.rows - row)), 1};
        check_block(place, options.encoding, BlockType::Dense);
        add_block(place, BlockInput::dense_values(type, place.rows, 1, bytes + row * value_size(type), 1),
                  options.encoding);
    }
}

void SpecBodyWriter::finish() {
    context_.require_cover();
    context_.emitting([&] {
        context_.out.flush();
        context_.sink->commit();
    });
}

}  // namespace detail
}  // namespace dbdf
