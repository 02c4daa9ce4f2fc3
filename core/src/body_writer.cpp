#include "body_writer.hpp"

#include "daphne_body_writer.hpp"
#include "spec_body_writer.hpp"

namespace dbdf::detail {

void BodyWriter::write_dense_blocks(const std::vector<BlockPlacement>& blocks, ValueType type, const void* values,
                                    std::uint64_t stride, Encoding encoding, unsigned) {
    const auto* bytes = static_cast<const std::byte*>(values);
    for (const BlockPlacement& place : blocks) {
        check_block(place, encoding, BlockType::Dense);
        const void* first = bytes + (place.row * stride + place.col) * value_size(type);
        add_block(place, BlockInput::dense_values(type, place.rows, place.cols, first, stride), encoding);
    }
}

std::unique_ptr<BodyWriter> make_body_writer(WriteContext& context, const WriterDialect& dialect) {
    switch (dialect.dialect) {
        case Dialect::Spec: return std::make_unique<SpecBodyWriter>(context);
        case Dialect::Daphne: return std::make_unique<DaphneBodyWriter>(context, dialect);
    }
    throw Error(ErrorCode::InvalidArgument, "dialect code " + std::to_string(static_cast<unsigned>(dialect.dialect)) +
                                                " is unknown (0 spec, 1 daphne)");
}

}  // namespace dbdf::detail
