// What the writer's dialect-neutral front shares with the body writer of its dialect: the sink and its buffered
// output, the object's header, the phase of the writer, and the blocks placed so far with the partition rules
// they must keep (rules 4, 2 and 1). The front owns it; the body writer holds a reference.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "byte_output.hpp"
#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/writer.hpp"
#include "partition.hpp"

namespace dbdf::detail {

enum class WriterPhase { Idle, Begun, Finished, Failed };

[[noreturn]] inline void invalid_argument(const std::string& message) {
    throw Error(ErrorCode::InvalidArgument, message);
}

// "block at (r, c) of shape h x w", the start of every message about a block.
std::string placement_text(const BlockPlacement& place);

struct WriteContext {
    explicit WriteContext(std::unique_ptr<ByteSink> owned_sink) : sink(std::move(owned_sink)), out(*sink) {}

    std::unique_ptr<ByteSink> sink;
    ByteOutput out;
    ObjectHeader header;
    WriterPhase phase = WriterPhase::Idle;
    PartitionTracker tracker;
    std::uint64_t blocks_added = 0;

    // Runs `emit`, marking the writer failed when it throws (bytes may have reached the sink).
    template <class Emit>
    void emitting(Emit&& emit) {
        try {
            emit();
        } catch (...) {
            phase = WriterPhase::Failed;
            throw;
        }
    }

    // Tells the sink how many bytes are about to follow (a file sink preallocates them); what is buffered goes
    // out first, so that the hint starts where the file ends. Sets reserved_until.
    void reserve_output(std::uint64_t bytes);
    // The same for the `bytes` after the current output position, without flushing what is buffered first (which
    // would hand a callback or memory sink its bytes in more, smaller pieces): the reservation starts where the
    // sink's bytes end, before the buffered ones, and is longer by as many bytes as are buffered. Sets
    // reserved_until.
    void reserve_output_unflushed(std::uint64_t bytes);
    // The output position (out.total()) up to which space was last reserved; 0 before any reservation.
    std::uint64_t reserved_until = 0;

    // Rules 4 and 2: the block has cells, and they lie in the object.
    void check_extent(const BlockPlacement& place) const;
    // Rule 2 alone: whether the block's rows and columns lie in the object, and the refusal when they do not.
    bool lies_within(const BlockPlacement& place) const;
    [[noreturn]] void refuse_outside(const BlockPlacement& place) const;
    // Rule 1: no cell is covered twice.
    void check_no_overlap(const BlockPlacement& place) const;
    // Rules 2, 4 and 1 for a block about to be added.
    void check_placement(const BlockPlacement& place) const {
        check_extent(place);
        check_no_overlap(place);
    }
    // A block written: its cells count towards the cover that finish() checks.
    void record(const BlockPlacement& place);
    // Rule 1 at the end: the blocks cover every cell. Error(Format) when they do not.
    void require_cover() const;
};

}  // namespace dbdf::detail
