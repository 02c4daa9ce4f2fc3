// A matrix that lies in the input file as it lies in memory (the data of a little-endian C-order .npy), written by one
// dbdf_writer_write_dense call from a mapping of the whole of it, in the blocks the tile-by-tile path writes: one call
// and one mapping instead of a call per tile and a mapping per 16 MiB, and the output's space reserved ahead by the
// writer.
#pragma once

#include <cstdint>

#include "guarded_mapping.hpp"
#include "tiling.hpp"

namespace dbdf_cli {

// The writer's encode threads for a mapped matrix (dbdf_writer_options_t.threads): the library's choice, one per
// core (at most four) for a large matrix, so the tiles ahead are analysed on the other threads, and on this one
// whenever the next tile is not ready, while this one writes. Measured on an idle machine that is faster in wall time than one thread for random doubles and integers
// 0..99 (bench/RESULTS.md, "`dbdf convert` on an idle machine"); one thread did better only on a loaded machine, as
// `write_dense`'s own one-thread figures do there.
inline constexpr unsigned kMappedMatrixEncodeThreads = 0;

// Above this many bytes of data the matrix is written tile by tile from mapping windows instead: a mapping of the
// whole takes page tables of about 1/512 of its size, and the progress line does not move during the one call.
inline constexpr std::uint64_t kWholeMappingBytes = std::uint64_t{4} << 30;

// Writes the rows x cols matrix of `type` at `offset` in `input` to `output`, whose object was begun with that shape,
// as settings.options say (the blocks are those write_matrix_tiles writes), and returns true. Returns false, having
// written nothing, when it cannot: the data is larger than kWholeMappingBytes, not aligned for its type, or cannot be
// mapped (an address space limited by ulimit -v). A failed write throws CliError: input.shrink_message() when the input
// is shorter than when it was opened, otherwise the writer's error.
bool write_mapped_matrix(const OutputTarget& output, GuardedMapping& input, std::uint64_t offset, std::uint64_t rows,
                         std::uint64_t cols, dbdf_value_type_t type, const OutputSettings& settings);

// Runs `write`. When it throws a CliError while `input` is shorter than when it was opened, that error is the
// kernel's refusal to write bytes that left the mapping (EFAULT, "Bad address"), and what is thrown instead says so:
// CliError(input.shrink_message(), kExitInvalid).
template <class Write>
void reporting_shrink(const GuardedMapping& input, Write&& write) {
    try {
        write();
    } catch (const CliError&) {
        if (input.shrank()) throw CliError(input.shrink_message(), kExitInvalid);
        throw;
    }
}

}  // namespace dbdf_cli
