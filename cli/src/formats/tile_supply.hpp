// The tiles of a conversion, in the order they are written, each with its values: taken where they lie in the source
// when they lie there as the writer wants them (a borrowed pointer, no copy), otherwise gathered into a buffer that
// is kept from tile to tile (a fresh buffer per tile costs its allocation, the kernel's zeroing of its pages and their
// faults, about as much as gathering the tile).
//
// Everything runs on the calling thread. Gathering the next tile on a second thread while the current one is written
// was measured and lost (bench/RESULTS.md, "`dbdf convert` from a mapping"): 0.77x to 0.89x the wall time of the
// serial loop on a busy 2-core machine, with more CPU time; taking the tile from a mapping of the input won instead.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "../typed_values.hpp"
#include "tiling.hpp"

namespace dbdf_cli {

// One tile of the output, in the order it is written, and what its values are.
struct TileJob {
    enum class Fill {
        none,      // no values are needed: the tile is written as an empty block
        zeros,     // the source holds only zeros there: the buffer is cleared, not gathered
        gathered,  // the source's cells: borrowed (BorrowTile) or gathered (GatherTile)
    };
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    Fill fill = Fill::gathered;
};

// Sets `job` to the next tile; false when every tile was given.
using NextTile = std::function<bool(TileJob& job)>;

class TileSupply {
public:
    // `borrow` (tiling.hpp) may be null: every tile is gathered then.
    TileSupply(NextTile next_tile, GatherTile gather, BorrowTile borrow = nullptr);

    // The next tile in order and its job.rows * job.cols values of job.type, row-major (nullptr for Fill::none),
    // aligned for job.type (a borrowed tile that is not is gathered); false after the last one. The values stay valid until the next call. What next_tile, gather or borrow throw
    // goes to the caller.
    bool next(TileJob& job, const void*& values);

private:
    // Buffers kept across tiles. Two, because row-major tile order alternates between the full tiles of a band and
    // the narrower one at its end.
    TypedBuffer& buffer_of(dbdf_value_type_t type, std::size_t count);

    NextTile next_tile_;
    GatherTile gather_;
    BorrowTile borrow_;
    std::array<std::optional<TypedBuffer>, 2> buffers_;
    std::size_t next_buffer_ = 0;
};

}  // namespace dbdf_cli
