#include "placed_payload.hpp"

#include <cstring>
#include <utility>

#include "dbdf/block.hpp"

namespace dbdf::detail {
namespace {

constexpr std::uintptr_t kPage = 4096;

}  // namespace

PlacedPayload::PlacedPayload(const PayloadRows& rows, std::uint64_t file_offset, SpareBuffers& spares)
    : spares_(&spares) {
    const std::size_t bytes = rows.bytes();
    buffer_ = spares.take(bytes + kPage, capacity_);
    const auto base = reinterpret_cast<std::uintptr_t>(buffer_.get());
    const std::uintptr_t shift = (static_cast<std::uintptr_t>(file_offset) - base) % kPage;
    std::byte* const placed = buffer_.get() + shift;
    if (rows.stride_bytes == rows.row_bytes) {
        std::memcpy(placed, rows.first, bytes);
    } else {
        for (std::size_t row = 0; row < rows.rows; ++row) {
            std::memcpy(placed + row * rows.row_bytes, rows.first + row * rows.stride_bytes, rows.row_bytes);
        }
    }
    bytes_ = std::span<const std::byte>(placed, bytes);
}

PlacedPayload::~PlacedPayload() { release(); }

PlacedPayload::PlacedPayload(PlacedPayload&& other) noexcept
    : spares_(other.spares_),
      buffer_(std::move(other.buffer_)),
      capacity_(std::exchange(other.capacity_, 0)),
      bytes_(std::exchange(other.bytes_, {})) {}

PlacedPayload& PlacedPayload::operator=(PlacedPayload&& other) noexcept {
    if (this != &other) {
        release();
        spares_ = other.spares_;
        buffer_ = std::move(other.buffer_);
        capacity_ = std::exchange(other.capacity_, 0);
        bytes_ = std::exchange(other.bytes_, {});
    }
    return *this;
}

void PlacedPayload::release() noexcept {
    if (buffer_ != nullptr && spares_ != nullptr) spares_->give_back(std::move(buffer_), capacity_);
    buffer_.reset();
    capacity_ = 0;
    bytes_ = {};
}

PayloadOffsets::PayloadOffsets(const std::vector<BlockPlacement>& tiles, ValueType type, std::uint64_t first_block)
    : tiles_(tiles), type_(type), next_block_(first_block) {}

void PayloadOffsets::written(std::size_t tile, std::uint64_t next_block) {
    const std::lock_guard<std::mutex> lock(mutex_);
    next_tile_ = tile + 1;
    next_block_ = next_block;
}

std::uint64_t PayloadOffsets::payload_offset(std::size_t tile) const {
    std::size_t next_tile = 0;
    std::uint64_t block = 0;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        next_tile = next_tile_;
        block = next_block_;
    }
    // Dense records of the tiles in between (a few: the pipeline analyses only so far ahead), then this one's
    // record header: its dense block without its values.
    for (std::size_t between = next_tile; between < tile; ++between) {
        block += kBlockPositionBytes + dense_block_bytes(tiles_[between].rows, tiles_[between].cols, type_);
    }
    const BlockPlacement& place = tiles_[tile];
    const std::uint64_t values = std::uint64_t{place.rows} * place.cols * value_size(type_);
    return block + kBlockPositionBytes + dense_block_bytes(place.rows, place.cols, type_) - values;
}

}  // namespace dbdf::detail
