// The picture `dbdf map` draws of an object's blocks, as SVG: each block a rectangle at its position and shape,
// filled by block type and shaded by its stored values per cell, with a tooltip; a legend and the object's shape and
// size. Made from the block infos of the reader's index alone, so no payload is read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dbdf.h"

namespace dbdf_cli {

struct BlockMapInput {
    std::string name;  // the file's name, shown in the caption
    dbdf_object_info_t info{};
    std::string value_types;  // "f64", or a frame's column types in short
    std::vector<dbdf_block_info_t> blocks;
};

// Files of more blocks than this are drawn by aggregating the blocks that fall into one cell of a grid of
// kAggregateGrid x kAggregateGrid cells, so the picture stays a few MiB for any number of blocks.
inline constexpr std::size_t kMaxDrawnBlocks = 10000;
inline constexpr std::size_t kAggregateGrid = 160;

// The drawing area's size in pixels. Each axis gets its own scale when the object is far from square, so that a
// 10^6 x 3 matrix is not a line one pixel wide; every block is drawn at least one pixel wide and high.
inline constexpr double kDrawingPixels = 800;
inline constexpr double kMinimumSidePixels = 160;

// The SVG document: deterministic (the same input gives the same bytes).
std::string block_map_svg(const BlockMapInput& input);

}  // namespace dbdf_cli
