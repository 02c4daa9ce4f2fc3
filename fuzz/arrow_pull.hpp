// The Arrow export under hostile input: a reader's object exported as an Arrow stream and pulled batch by batch,
// every byte each batch claims to hold read through the layout its schema declares (so a lent buffer that runs past
// the input, or an offset past a child, is a sanitizer report), then released. Used by the reader fuzz target.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "dbdf/arrow.hpp"
#include "dbdf/reader.hpp"

namespace dbdf_fuzz {

// An object of more cells than this has only its first batches pulled: a batch holds at most 64 MiB by design, and
// a header may claim far more rows than its blocks hold (empty blocks cost the file nothing).
inline constexpr std::uint64_t kMaxWholeExportCells = std::uint64_t{1} << 16;
inline constexpr int kBatchesOfALargeObject = 2;

// The bytes of a fixed-width Arrow format ("C" u8 ... "g" f64); 0 for a nested one.
inline std::uint64_t fixed_width(std::string_view format) {
    if (format.size() != 1) return 0;
    switch (format[0]) {
        case 'c':
        case 'C': return 1;
        case 's':
        case 'S': return 2;
        case 'i':
        case 'I':
        case 'f': return 4;
        case 'l':
        case 'L':
        case 'g': return 8;
        default: return 0;
    }
}

// What the library must never give a consumer: a finding of the fuzzer, like a sanitizer report.
[[noreturn]] inline void broken(const char* what) {
    std::fprintf(stderr, "the Arrow export broke its own contract: %s\n", what);
    std::abort();
}

// Reads every byte `array` holds as `schema` declares it; returns a checksum so the reads are not optimised away.
inline std::uint64_t touch(const ArrowSchema& schema, const ArrowArray& array) {
    if (array.length < 0 || array.offset < 0 || array.n_children != schema.n_children) broken("batch shape");
    const auto length = static_cast<std::uint64_t>(array.length + array.offset);
    const std::string_view format = schema.format;
    std::uint64_t sum = 0;
    const auto sum_bytes = [&sum](const void* buffer, std::uint64_t bytes) {
        const auto* first = static_cast<const unsigned char*>(buffer);
        for (std::uint64_t at = 0; at < bytes; ++at) sum = sum * 31 + first[at];
    };
    if (const std::uint64_t width = fixed_width(format); width != 0) {
        if (array.n_buffers != 2) broken("buffers of a value column");
        if (length != 0) sum_bytes(array.buffers[1], length * width);
    } else if (format.starts_with("+w:")) {
        if (array.n_children != 1) broken("children of a fixed-size list");
        const std::uint64_t size = std::stoull(std::string(format.substr(3)));
        if (static_cast<std::uint64_t>(array.children[0]->length) < length * size) broken("fixed-size list items");
        sum += touch(*schema.children[0], *array.children[0]);
    } else if (format == "+L") {
        if (array.n_buffers != 2 || array.n_children != 1) broken("buffers of a large list");
        const auto* offsets = static_cast<const std::int64_t*>(array.buffers[1]);
        if (length != 0 && offsets[length] > array.children[0]->length) broken("large list offsets");
        for (std::uint64_t at = 0; length != 0 && at <= length; ++at) sum += static_cast<std::uint64_t>(offsets[at]);
        sum += touch(*schema.children[0], *array.children[0]);
    } else if (format == "+s") {
        for (std::int64_t child = 0; child < array.n_children; ++child) {
            if (array.children[child]->length < array.length) broken("struct child length");
            sum += touch(*schema.children[child], *array.children[child]);
        }
    } else {
        broken("a format the export does not produce");
    }
    return sum;
}

// Exports `reader`'s object in the layouts `layout_bits` picks (bit 0: lists and CSR arrays instead of columns and
// triplets; bit 1: batches lent from the reader's memory where they can be) and pulls its batches. Throws
// dbdf::Error when the object cannot be exported at all.
inline std::uint64_t pull_arrow_export(std::shared_ptr<dbdf::Reader> reader, unsigned layout_bits) {
    const dbdf::ObjectHeader& header = reader->header();
    dbdf::ArrowExportOptions options;
    options.dense_layout =
        (layout_bits & 1) != 0 ? dbdf::ArrowMatrixLayout::FixedSizeList : dbdf::ArrowMatrixLayout::Columns;
    options.sparse_layout =
        (layout_bits & 1) != 0 ? dbdf::ArrowSparseLayout::Arrays : dbdf::ArrowSparseLayout::Triplets;
    options.zero_copy = (layout_bits & 2) != 0 && reader->lends_memory();
    const bool whole = header.rows <= kMaxWholeExportCells && header.cols <= kMaxWholeExportCells &&
                       header.rows * header.cols <= kMaxWholeExportCells;
    ArrowArrayStream stream{};
    dbdf::export_arrow_stream(std::move(reader), options, &stream);
    std::uint64_t sum = 0;
    ArrowSchema schema{};
    if (stream.get_schema(&stream, &schema) == 0) {
        for (int batch = 0; whole || batch < kBatchesOfALargeObject; ++batch) {
            ArrowArray array{};
            if (stream.get_next(&stream, &array) != 0) {
                if (stream.get_last_error(&stream) == nullptr) broken("a failed pull without a message");
                break;
            }
            if (array.release == nullptr) break;  // the end
            sum += touch(schema, array);
            array.release(&array);
        }
        schema.release(&schema);
    }
    stream.release(&stream);
    return sum;
}

}  // namespace dbdf_fuzz
