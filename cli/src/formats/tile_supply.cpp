#include "tile_supply.hpp"

#include <cstdint>
#include <cstring>
#include <utility>

namespace dbdf_cli {

TileSupply::TileSupply(NextTile next_tile, GatherTile gather, BorrowTile borrow)
    : next_tile_(std::move(next_tile)), gather_(std::move(gather)), borrow_(std::move(borrow)) {}

TypedBuffer& TileSupply::buffer_of(dbdf_value_type_t type, std::size_t count) {
    for (std::optional<TypedBuffer>& buffer : buffers_) {
        if (buffer && buffer->type() == type && buffer->size() == count) return *buffer;
    }
    std::optional<TypedBuffer>& replaced = buffers_[next_buffer_];
    next_buffer_ = 1 - next_buffer_;
    replaced.reset();  // before the new one is allocated, so that two tiles' memory is never held at once
    return replaced.emplace(type, count);
}

bool TileSupply::next(TileJob& job, const void*& values) {
    values = nullptr;
    if (!next_tile_(job)) return false;
    if (job.fill == TileJob::Fill::none) return true;
    if (job.fill == TileJob::Fill::gathered && borrow_) {
        values = borrow_(job.row, job.col, job.rows, job.cols);
        // A borrowed tile misaligned for its type (an .npy whose header length puts its data at an odd offset) is
        // gathered instead. The library accepts misaligned values as well, but reads them through an aligned copy of
        // each block; gathering is that same one copy, made here once.
        if (values != nullptr && reinterpret_cast<std::uintptr_t>(values) % dbdf_value_type_size(job.type) == 0) {
            return true;
        }
        values = nullptr;
    }
    TypedBuffer& buffer = buffer_of(job.type, job.rows * job.cols);
    // The buffer holds what an earlier tile left there: every cell is written, by the gather or here.
    if (job.fill == TileJob::Fill::zeros) {
        std::memset(buffer.data(), 0, buffer.size() * buffer.width());
    } else {
        gather_(job.row, job.col, job.rows, job.cols, buffer);
    }
    values = buffer.data();
    return true;
}

}  // namespace dbdf_cli
