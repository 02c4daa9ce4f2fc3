#include "block_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "terminal_text.hpp"

namespace dbdf_cli {
namespace {

constexpr std::array<const char*, 4> kTypeNames{"empty", "dense", "csr", "coo"};
constexpr std::array<const char*, 4> kTypeColours{"#d9d9d9", "#1f77b4", "#2ca02c", "#d62728"};
constexpr double kMargin = 20;
constexpr double kCaptionHeight = 60;
constexpr double kLegendWidth = 190;

// Text for an XML attribute or element: the terminal-safe form (controls and invalid UTF-8 escaped) with the
// XML specials replaced, so any file name or label makes a well-formed document.
std::string xml_text(std::string_view text) {
    std::string out;
    for (char c : terminal_text(text)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// 1,234,567 bytes as "1.2 MB"; below 10 kB exactly.
std::string size_text(std::uint64_t bytes) {
    if (bytes < 10000) return fmt::format("{} bytes", bytes);
    const std::array<const char*, 5> units{"kB", "MB", "GB", "TB", "PB"};
    double value = static_cast<double>(bytes) / 1000;
    std::size_t unit = 0;
    while (value >= 1000 && unit + 1 < units.size()) {
        value /= 1000;
        ++unit;
    }
    return fmt::format("{:.1f} {}", value, units[unit]);
}

// "1 block", "12 blocks".
std::string blocks_text(std::uint64_t count) { return fmt::format("{} block{}", count, count == 1 ? "" : "s"); }

// Stored values per cell, 0 to 1 (a CSR or COO block may store explicit zeros; never above 1 for a valid block).
double fill_share(double stored, double cells) { return cells <= 0 ? 0 : std::min(1.0, stored / cells); }

// Opacity of a fill: an empty block is drawn solid in grey; others from 0.3 (few values stored) to 1 (every cell).
double opacity_of(std::size_t type, double share) { return type == DBDF_BLOCK_EMPTY ? 1.0 : 0.3 + 0.7 * share; }

struct Scale {
    double x = 1;  // pixels per column
    double y = 1;  // pixels per row
    double width = 0;
    double height = 0;
    bool to_scale = true;
};

Scale scale_of(const dbdf_object_info_t& info) {
    Scale scale;
    const double rows = std::max<double>(1, static_cast<double>(info.rows));
    const double cols = std::max<double>(1, static_cast<double>(info.cols));
    const double longer = std::max(rows, cols);
    scale.width = std::max(kMinimumSidePixels, kDrawingPixels * cols / longer);
    scale.height = std::max(kMinimumSidePixels, kDrawingPixels * rows / longer);
    scale.x = scale.width / cols;
    scale.y = scale.height / rows;
    scale.to_scale = std::fabs(scale.x - scale.y) <= 1e-9 * std::max(scale.x, scale.y);
    return scale;
}

// A pixel coordinate, rounded to hundredths so the output is short and the same on every machine.
std::string px(double value) { return fmt::format("{:.2f}", value); }

void draw_blocks(const BlockMapInput& input, const Scale& scale, std::string& svg) {
    for (const dbdf_block_info_t& block : input.blocks) {
        const std::size_t type = static_cast<std::size_t>(block.block_type) % kTypeNames.size();
        const double cells = static_cast<double>(block.rows) * static_cast<double>(block.cols);
        const double share = fill_share(static_cast<double>(block.stored_values), cells);
        const double x = kMargin + static_cast<double>(block.col) * scale.x;
        const double y = kMargin + kCaptionHeight + static_cast<double>(block.row) * scale.y;
        const double w = std::max(1.0, block.cols * scale.x);
        const double h = std::max(1.0, block.rows * scale.y);
        const std::string value_type =
            block.value_type == DBDF_VALUE_NONE ? std::string("no values") : dbdf_value_type_name(block.value_type);
        svg += fmt::format(
            "<rect class=\"block\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"{:.2f}\">"
            "<title>block {} at ({}, {}): {} x {}, {}, {}, {} stored values ({:.1f}% of its cells), "
            "{}</title></rect>\n",
            px(x), px(y), px(w), px(h), kTypeColours[type], opacity_of(type, share), block.index, block.row, block.col,
            block.rows, block.cols, kTypeNames[type], value_type, block.stored_values, 100 * share,
            size_text(block.encoded_bytes));
    }
}

// One cell of the aggregation grid: the area of each block type that falls into it, the stored values (each block's
// spread evenly over its area) and how many blocks touch it.
struct GridCell {
    std::array<double, 4> area{};
    double stored = 0;
    std::uint64_t blocks = 0;
};

void draw_aggregated(const BlockMapInput& input, const Scale& scale, std::string& svg) {
    const double rows = static_cast<double>(input.info.rows);
    const double cols = static_cast<double>(input.info.cols);
    const std::size_t grid_rows = rows < kAggregateGrid ? std::max<std::size_t>(1, input.info.rows) : kAggregateGrid;
    const std::size_t grid_cols = cols < kAggregateGrid ? std::max<std::size_t>(1, input.info.cols) : kAggregateGrid;
    const double cell_rows = std::max(1.0, rows) / static_cast<double>(grid_rows);
    const double cell_cols = std::max(1.0, cols) / static_cast<double>(grid_cols);
    std::vector<GridCell> grid(grid_rows * grid_cols);
    for (const dbdf_block_info_t& block : input.blocks) {
        const std::size_t type = static_cast<std::size_t>(block.block_type) % kTypeNames.size();
        const double top = static_cast<double>(block.row), bottom = top + block.rows;
        const double left = static_cast<double>(block.col), right = left + block.cols;
        const double area = static_cast<double>(block.rows) * static_cast<double>(block.cols);
        const std::size_t first_row = std::min(grid_rows - 1, static_cast<std::size_t>(top / cell_rows));
        const std::size_t first_col = std::min(grid_cols - 1, static_cast<std::size_t>(left / cell_cols));
        for (std::size_t r = first_row; r < grid_rows && r * cell_rows < std::max(bottom, top + 1e-9); ++r) {
            const double overlap_rows = std::min(bottom, (r + 1) * cell_rows) - std::max(top, r * cell_rows);
            for (std::size_t c = first_col; c < grid_cols && c * cell_cols < std::max(right, left + 1e-9); ++c) {
                const double overlap_cols = std::min(right, (c + 1) * cell_cols) - std::max(left, c * cell_cols);
                const double overlap = std::max(0.0, overlap_rows) * std::max(0.0, overlap_cols);
                GridCell& cell = grid[r * grid_cols + c];
                cell.area[type] += overlap;
                if (area > 0) cell.stored += static_cast<double>(block.stored_values) * overlap / area;
                ++cell.blocks;
            }
        }
    }
    for (std::size_t r = 0; r < grid_rows; ++r) {
        for (std::size_t c = 0; c < grid_cols; ++c) {
            const GridCell& cell = grid[r * grid_cols + c];
            if (cell.blocks == 0) continue;
            const std::size_t type =
                static_cast<std::size_t>(std::max_element(cell.area.begin(), cell.area.end()) - cell.area.begin());
            double cell_area = 0;
            for (double a : cell.area) cell_area += a;
            const double share = fill_share(cell.stored, cell_area);
            const double x = kMargin + c * cell_cols * scale.x;
            const double y = kMargin + kCaptionHeight + r * cell_rows * scale.y;
            const auto first_row = static_cast<std::uint64_t>(r * cell_rows);
            const auto first_col = static_cast<std::uint64_t>(c * cell_cols);
            svg += fmt::format(
                "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                "fill-opacity=\"{:.2f}\"><title>from ({}, {}): {}, mostly {}, {:.1f}% of cells stored"
                "</title></rect>\n",
                px(x), px(y), px(std::max(1.0, cell_cols * scale.x)), px(std::max(1.0, cell_rows * scale.y)),
                kTypeColours[type], opacity_of(type, share), first_row, first_col, blocks_text(cell.blocks),
                kTypeNames[type], 100 * share);
        }
    }
}

void draw_legend(const BlockMapInput& input, double left, std::string& svg) {
    std::array<std::uint64_t, 4> blocks{}, bytes{};
    for (const dbdf_block_info_t& block : input.blocks) {
        const std::size_t type = static_cast<std::size_t>(block.block_type) % kTypeNames.size();
        ++blocks[type];
        bytes[type] += block.encoded_bytes;
    }
    double y = kMargin + kCaptionHeight;
    svg += fmt::format("<g class=\"legend\">\n<text x=\"{}\" y=\"{}\" font-weight=\"bold\">block type</text>\n",
                       px(left), px(y + 12));
    for (std::size_t type = 0; type < kTypeNames.size(); ++type) {
        y += 22;
        svg += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}: {}, "
            "{}</text>\n",
            px(left), px(y), kTypeColours[type], px(left + 20), px(y + 12), kTypeNames[type], blocks_text(blocks[type]),
            size_text(bytes[type]));
    }
    y += 36;
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\">shade: stored values per cell</text>\n"
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"{:.2f}\"/>"
        "<text x=\"{}\" y=\"{}\">few</text>\n"
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" fill-opacity=\"1.00\"/>"
        "<text x=\"{}\" y=\"{}\">every cell</text>\n</g>\n",
        px(left), px(y), px(left), px(y + 8), kTypeColours[DBDF_BLOCK_CSR], opacity_of(DBDF_BLOCK_CSR, 0),
        px(left + 20), px(y + 20), px(left + 60), px(y + 8), kTypeColours[DBDF_BLOCK_CSR], px(left + 80), px(y + 20));
}

}  // namespace

std::string block_map_svg(const BlockMapInput& input) {
    const Scale scale = scale_of(input.info);
    const bool aggregated = input.blocks.size() > kMaxDrawnBlocks;
    const double width = kMargin + scale.width + kMargin + kLegendWidth + kMargin;
    const double height = kMargin + kCaptionHeight + std::max(scale.height, 220.0) + kMargin;
    const dbdf_data_type_t data_type = input.info.data_type;
    std::string svg = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n"
        "<title>{2}: blocks of a {3} x {4} {5}</title>\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        px(width), px(height), xml_text(input.name), input.info.rows, input.info.cols, dbdf_data_type_name(data_type));
    svg += fmt::format(
        "<g class=\"caption\">\n<text x=\"{0}\" y=\"{1}\" font-weight=\"bold\">{2}</text>\n"
        "<text x=\"{0}\" y=\"{3}\">{4} x {5} {6} of {7}, {8} in {9}{10}</text>\n"
        "<text x=\"{0}\" y=\"{11}\">{12}</text>\n</g>\n",
        px(kMargin), px(kMargin + 12), xml_text(input.name), px(kMargin + 30), input.info.rows, input.info.cols,
        dbdf_data_type_name(data_type), xml_text(input.value_types), size_text(input.info.total_bytes),
        blocks_text(input.blocks.size()),
        aggregated ? fmt::format(", drawn as a {} x {} grid", kAggregateGrid, kAggregateGrid) : "", px(kMargin + 48),
        scale.to_scale ? std::string("to scale")
                       : fmt::format("not to scale: {} px per column, {} px per row (blocks at least 1 px)",
                                     fmt::format("{:.3g}", scale.x), fmt::format("{:.3g}", scale.y)));
    svg += fmt::format(
        "<rect class=\"object\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
        "stroke=\"black\"/>\n<g class=\"blocks\" stroke=\"white\" stroke-width=\"0.5\">\n",
        px(kMargin), px(kMargin + kCaptionHeight), px(scale.width), px(scale.height));
    if (aggregated)
        draw_aggregated(input, scale, svg);
    else
        draw_blocks(input, scale, svg);
    svg += "</g>\n";
    draw_legend(input, kMargin + scale.width + kMargin, svg);
    svg += "</svg>\n";
    return svg;
}

}  // namespace dbdf_cli
