#include "write_context.hpp"

#include "wide_count.hpp"

namespace dbdf::detail {

std::string placement_text(const BlockPlacement& place) {
    return "block at (" + std::to_string(place.row) + ", " + std::to_string(place.col) + ") of shape " +
           std::to_string(place.rows) + " x " + std::to_string(place.cols);
}

void WriteContext::reserve_output(std::uint64_t bytes) {
    emitting([&] {
        out.flush();
        sink->reserve(bytes);
    });
    reserved_until = out.total() + bytes;
}

void WriteContext::reserve_output_unflushed(std::uint64_t bytes) {
    // The sink's bytes end before the buffered ones: reserving as many more ends the reservation exactly where asked.
    // (No more: trimming a reservation the file did not fill frees its blocks, which a file system mounted with
    // `discard` then discards at once, waiting for the device.)
    emitting([&] { sink->reserve(bytes + out.buffered()); });
    reserved_until = out.total() + bytes;
}

void WriteContext::check_extent(const BlockPlacement& place) const {
    if (place.rows == 0 || place.cols == 0) {
        invalid_argument(placement_text(place) + " has no cells; blocks need at least one row and one column (rule 4)");
    }
    if (!lies_within(place)) refuse_outside(place);
}

bool WriteContext::lies_within(const BlockPlacement& place) const {
    const bool rows_fit = place.rows <= header.rows && place.row <= header.rows - place.rows;
    const bool cols_fit = place.cols <= header.cols && place.col <= header.cols - place.cols;
    return rows_fit && cols_fit;
}

void WriteContext::refuse_outside(const BlockPlacement& place) const {
    invalid_argument(placement_text(place) + " reaches outside the " + std::to_string(header.rows) + " x " +
                     std::to_string(header.cols) + " object (rule 2)");
}

void WriteContext::check_no_overlap(const BlockPlacement& place) const {
    if (auto other = tracker.find_overlap({place.row, place.col, place.rows, place.cols, 0})) {
        invalid_argument(placement_text(place) + " overlaps the earlier block at (" + std::to_string(other->row) +
                         ", " + std::to_string(other->col) + ") (rule 1)");
    }
}

void WriteContext::record(const BlockPlacement& place) {
    tracker.add({place.row, place.col, place.rows, place.cols, 0});
    ++blocks_added;
}

void WriteContext::require_cover() const {
    if (tracker.covers(header.rows, header.cols)) return;
    const auto covered = tracker.covered_cells();
    throw Error(ErrorCode::Format,
                "the blocks cover " + std::to_string(static_cast<std::uint64_t>(covered)) + " of the object's " +
                    std::to_string(static_cast<std::uint64_t>(static_cast<WideCount>(header.rows) * header.cols)) +
                    " cells; add blocks for the rest before finishing (rule 1)",
                1);
}

}  // namespace dbdf::detail
