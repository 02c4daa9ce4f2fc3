#include "mapped_matrix.hpp"

#include "../progress.hpp"

namespace dbdf_cli {

bool write_mapped_matrix(const OutputTarget& output, GuardedMapping& input, std::uint64_t offset, std::uint64_t rows,
                         std::uint64_t cols, dbdf_value_type_t type, const OutputSettings& settings) {
    const std::uint64_t width = dbdf_value_type_size(type);
    // The caller checked that the data lies within the file, so rows * cols * width does not overflow.
    const std::uint64_t cells = rows * cols;
    if (cells == 0 || cells * width > kWholeMappingBytes) return false;
    const std::uint8_t* values = input.bytes(offset, cells * width);
    // Data misaligned for its type (an .npy whose header puts it at an odd offset) is tiled. The library accepts it
    // too, but would copy each block into aligned memory and encode it on this thread: what the tile path does.
    if (values == nullptr || reinterpret_cast<std::uintptr_t>(values) % width != 0) return false;
    Progress progress(rows);
    reporting_shrink(input, [&] {
        output.check(dbdf_writer_write_dense(output.writer, type, values, cells, 0, &settings.options),
                     "writing the matrix");
    });
    progress.update(rows);
    return true;
}

}  // namespace dbdf_cli
