// dbdf map IN OUT.svg: a picture of the object's blocks (block_map.hpp), from the block index alone: no payload is
// read, so it takes the time of `dbdf info` and a few dozen bytes per block.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../atomic_output.hpp"
#include "../block_map.hpp"
#include "../handles.hpp"
#include "commands.hpp"

namespace dbdf_cli {
namespace {

// "f64" for a matrix; for a frame its column types, "i64, f64, f64", shortened after eight.
std::string value_types_of(const Reader& reader, const std::string& file, const dbdf_object_info_t& info) {
    if (info.data_type != DBDF_DATA_FRAME) return dbdf_value_type_name(info.value_type);
    constexpr std::uint64_t kShown = 8;
    std::string text;
    for (std::uint64_t c = 0; c < info.cols && c < kShown; ++c) {
        text += (c == 0 ? "" : ", ") + std::string(dbdf_value_type_name(column_type(reader, file, c)));
    }
    if (info.cols > kShown) text += fmt::format(", ... ({} columns)", info.cols);
    return info.cols == 0 ? "no columns" : text;
}

}  // namespace

int run_map(const MapOptions& options) {
    const dbdf_dialect_t dialect = parse_dialect(options.dialect);
    Reader reader = open_reader(options.file, dialect);
    BlockMapInput input;
    input.name = options.file;
    input.info = object_info(reader, options.file);
    std::uint64_t block_count = 0;
    check(dbdf_reader_build_index(reader.get(), &block_count), options.file);
    input.value_types = value_types_of(reader, options.file, input.info);
    input.blocks.reserve(block_count);
    for (std::uint64_t index = 0; index < block_count; ++index) {
        dbdf_block_info_t block{};
        check(dbdf_reader_index_entry(reader.get(), index, &block), options.file);
        input.blocks.push_back(block);
    }
    AtomicOutput out(options.output);
    out.write(block_map_svg(input));
    out.commit();
    return kExitOk;
}

}  // namespace dbdf_cli
