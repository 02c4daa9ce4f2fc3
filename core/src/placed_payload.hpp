// A copy of a block's dense payload, placed in memory for the kernel's copy of it into a file's page cache, and
// the forecast of file offsets that placing it needs.
//
// The kernel copies a write's bytes into the page cache with `rep movsb`, and the page cache's address of a byte has
// the low 12 bits of its file offset. That copy runs fastest when its source lies at the same address as its
// destination modulo 32; at any other distance it runs 10 to 15% slower, and at 8 to 24 bytes a third to two thirds
// slower (bench/RESULTS.md, "Payloads placed for the kernel's copy"). A dense block's payload starts 26
// bytes after its record header, and the caller's values wherever the caller put them: a NumPy array's values are 16
// bytes into a page, so every payload of write_dense lies at an odd distance. A copy made at the right address, by a
// thread that analyses the next tile while the caller's thread writes, lets the write run at full speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "dbdf/types.hpp"
#include "dbdf/writer.hpp"
#include "spare_buffers.hpp"

namespace dbdf::detail {

// A block's dense payload where the caller's values are: `rows` runs of `row_bytes`, each `stride_bytes` after the
// one before (stride_bytes == row_bytes: one run).
struct PayloadRows {
    const std::byte* first = nullptr;
    std::size_t row_bytes = 0;
    std::size_t rows = 0;
    std::size_t stride_bytes = 0;

    std::size_t bytes() const { return row_bytes * rows; }
};

class PlacedPayload {
public:
    PlacedPayload() = default;  // holds nothing
    // Copies the rows, one after the other, to an address congruent to `file_offset` modulo 4096, in a buffer from
    // `spares` (given back to them when this goes; their owner, a writer, outlives this). Throws std::bad_alloc when
    // there is no memory for the buffer.
    PlacedPayload(const PayloadRows& rows, std::uint64_t file_offset, SpareBuffers& spares);
    ~PlacedPayload();
    PlacedPayload(PlacedPayload&& other) noexcept;
    PlacedPayload& operator=(PlacedPayload&& other) noexcept;

    bool empty() const { return bytes_.empty(); }
    std::span<const std::byte> bytes() const { return bytes_; }

    // Payloads shorter than this are written from where they are: placing them costs more than it saves.
    static constexpr std::size_t kPlacedFrom = std::size_t{1} << 20;
    // The largest payload placed: a copy of more would not come from the writer's spare buffers.
    static constexpr std::size_t kMostPlacedBytes = SpareBuffers::kLargestSpare - 4096;

private:
    void release() noexcept;

    SpareBuffers* spares_ = nullptr;
    SpareBuffer buffer_;
    std::size_t capacity_ = 0;
    std::span<const std::byte> bytes_;
};

// Where the payloads of the tiles of one write_dense will land in the output, as far as the caller's thread, which
// writes them in order, has told: the forecast for a tile assumes that every tile before it not written yet is
// written as a dense block of its own values' type, as every tile whose payload is placed is. A wrong forecast (a
// tile in between narrowed or written sparse) costs only the speed of the tile's write, never its bytes.
class PayloadOffsets {
public:
    // `first_block` is the output position (ByteOutput::total()) where the first tile's record starts.
    PayloadOffsets(const std::vector<BlockPlacement>& tiles, ValueType type, std::uint64_t first_block);

    // The caller's thread has written tiles [0, tile]: the next record starts at `next_block`.
    void written(std::size_t tile, std::uint64_t next_block);

    // The output position where the payload of `tile` (not written yet) is forecast to start.
    std::uint64_t payload_offset(std::size_t tile) const;

private:
    const std::vector<BlockPlacement>& tiles_;
    const ValueType type_;
    mutable std::mutex mutex_;
    std::size_t next_tile_ = 0;
    std::uint64_t next_block_;
};

}  // namespace dbdf::detail
