#include "dbdf/reader.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "block_decoder.hpp"
#include "byte_source.hpp"
#include "caller_arrays.hpp"
#include "callback_source.hpp"
#include "daphne_dialect.hpp"
#include "dbdf/error.hpp"
#include "dense_piece_reader.hpp"
#include "dense_window_reads.hpp"
#include "partition_sweep.hpp"
#include "wide_count.hpp"
#include "window_lookup.hpp"

namespace dbdf {

using detail::Overlap;
using detail::PartitionSweep;
using detail::Rectangle;

struct Reader::State {
    std::unique_ptr<detail::ByteSource> source;
    std::uint64_t input_size = 0;  // the source's size when it was opened
    Dialect dialect = Dialect::Spec;
    ObjectHeader header;
    std::size_t header_bytes = 0;

    // Iteration.
    std::uint64_t next_offset = 0;
    std::uint64_t next_index = 0;
    std::optional<BlockView> current;
    // The current block's payload once something needed all of it (payload(), sparse decoding, counting): a view of
    // lent memory, or bytes read into payload_buffer. Dropped whenever the current block changes.
    std::optional<detail::ByteWindow> current_payload;
    detail::ByteBuffer payload_buffer;
    PartitionSweep seen;  // blocks passed by next_block(), checked when the last is passed, unless the index did
    std::optional<Error> sticky_error;
    bool at_end = false;

    // Index.
    bool index_built = false;
    std::vector<BlockView> index;
    std::unique_ptr<detail::WindowLookup> window_lookup;  // over `index`, made by the first window read

    // Threads for whole-object reads: 0 automatic.
    unsigned decode_threads = 0;

    void set_current(std::optional<BlockView> block) {
        current = block;
        current_payload.reset();
    }

    // The current block's whole payload, read once per block.
    const detail::ByteWindow& payload_of_current() {
        if (!current_payload) {
            current_payload = detail::fetch(*source, current->payload_offset, current->payload_bytes, payload_buffer);
        }
        return *current_payload;
    }

    void reset_iteration() {
        next_offset = header_bytes;
        next_index = 0;
        set_current(std::nullopt);
        seen.clear();
        sticky_error.reset();
        at_end = false;
    }
};

namespace {

// The record at `offset`, parsed from a copy of its first bytes: a file's records are read with one small pread()
// each, never with their payload (a mapping's pages would cost a page fault each: 9.7 ms against 0.6 ms for the
// 1024 records of a 1 GiB file). Zero-area CSR blocks also get their row counts checked, which reads their payload.
BlockView read_record(const detail::ByteSource& source, std::uint64_t offset, std::uint64_t index) {
    const std::uint64_t input_size = source.size();
    std::array<std::byte, detail::kRecordPeekBytes> record{};
    const auto peek = static_cast<std::size_t>(std::min<std::uint64_t>(record.size(), input_size - offset));
    detail::read_exactly(source, offset, std::span(record).first(peek));
    BlockView block = detail::parse_block_record_at(record.data(), input_size, offset, index);
    if (detail::needs_zero_area_check(block)) {
        detail::ByteBuffer payload;
        detail::check_zero_area_csr(detail::fetch(source, block.payload_offset, block.payload_bytes, payload), block);
    }
    return block;
}

// A block's whole payload, for the reads that walk all of it (counting, CSR output, validation).
detail::ByteWindow payload_window(const detail::ByteSource& source, const BlockView& block,
                                  detail::ByteBuffer& buffer) {
    return detail::fetch(source, block.payload_offset, block.payload_bytes, buffer);
}

Rectangle rectangle_of(const BlockView& block) {
    return Rectangle{block.row, block.col, block.rows, block.cols, block.index, block.offset};
}

[[noreturn]] void throw_overlap(const Overlap& overlap) {
    const Rectangle& block = overlap.offender;
    const Rectangle& other = overlap.earlier;
    throw_format(ErrorCode::Format, 1, block.offset,
                 "block " + std::to_string(block.tag) + " at (" + std::to_string(block.row) + ", " +
                     std::to_string(block.col) + ") overlaps the block at (" + std::to_string(other.row) + ", " +
                     std::to_string(other.col) + ") whose record starts at byte " + std::to_string(other.offset));
}

// Rule 1: no block overlaps another. Checked for all blocks at once, which costs O(n log n) on any layout; the
// first offender in file order is reported.
void check_no_overlap(PartitionSweep& blocks) {
    const std::vector<Overlap> overlaps = blocks.find_overlaps();
    if (!overlaps.empty()) throw_overlap(overlaps.front());
}

std::string cells_text(detail::WideCount cells) {
    if (cells > ~0ull) return "more than 2^64";
    return std::to_string(static_cast<std::uint64_t>(cells));
}

// Rule 1: the blocks cover every cell.
void check_cover(const PartitionSweep& blocks, const ObjectHeader& header, std::uint64_t end_offset) {
    if (blocks.covers(header.rows, header.cols)) return;
    throw_format(ErrorCode::Format, 1, end_offset,
                 "the blocks cover " + cells_text(blocks.covered_cells()) + " of the object's " +
                     cells_text(static_cast<detail::WideCount>(header.rows) * header.cols) +
                     " cells; every cell must belong to exactly one block");
}

void require_valid_output_type(ValueType type) {
    if (!is_valid(type)) {
        throw Error(ErrorCode::InvalidArgument, "requested value type code " +
                                                    std::to_string(static_cast<unsigned>(type)) + " is not one of " +
                                                    value_type_name_range());
    }
}

// Capacity needed for `rows` strided rows of `cols` elements; saturates.
detail::WideCount strided_extent(std::uint64_t rows, std::uint64_t cols, std::uint64_t stride) {
    if (rows == 0 || cols == 0) return 0;
    return static_cast<detail::WideCount>(rows - 1) * stride + cols;
}

void require_capacity(detail::WideCount needed, std::size_t capacity, const char* what) {
    if (needed > capacity) {
        throw Error(ErrorCode::BufferTooSmall, std::string(what) + " needs room for " + cells_text(needed) +
                                                   " elements but the buffer holds " + std::to_string(capacity));
    }
}

}  // namespace

Reader::Reader(std::unique_ptr<State> state) : state_(std::move(state)) {}
Reader::Reader(Reader&&) noexcept = default;
Reader& Reader::operator=(Reader&&) noexcept = default;
Reader::~Reader() = default;

namespace {

ObjectHeader parse_header_of(Dialect dialect, std::span<const std::byte> input, std::size_t& header_bytes) {
    switch (dialect) {
        case Dialect::Spec: return parse_header(input, header_bytes);
        case Dialect::Daphne: return detail::parse_daphne_header(input, header_bytes);
    }
    throw Error(ErrorCode::InvalidArgument,
                "dialect code " + std::to_string(static_cast<unsigned>(dialect)) + " is unknown (0 spec, 1 daphne)");
}

// The header from the source. A file's header is parsed from a prefix of the file that grows (64 KiB for a file,
// 64 bytes for a caller's source, then four times more each time) while the parser finds it cut short: a frame's
// labels make the header's size unknown until it is parsed, and reading the whole file for it would read every
// payload too.
ObjectHeader read_header(const detail::ByteSource& source, Dialect dialect, std::size_t& header_bytes) {
    const std::uint64_t size = source.size();
    if (const std::byte* memory = source.lent_memory()) {
        return parse_header_of(dialect, {memory, static_cast<std::size_t>(size)}, header_bytes);
    }
    detail::ByteBuffer buffer;
    for (std::uint64_t prefix = std::min<std::uint64_t>(size, source.first_header_read_bytes());;
         prefix = std::min(size, prefix * 4)) {
        const detail::ByteWindow window = detail::fetch(source, 0, prefix, buffer);
        try {
            return parse_header_of(dialect, {window.data, static_cast<std::size_t>(prefix)}, header_bytes);
        } catch (const Error& error) {
            if (error.code() != ErrorCode::Truncated || prefix == size) throw;
        }
    }
}

}  // namespace

// A reader over any byte source; the one place a reader's state is set up.
Reader Reader::open_source_state(std::unique_ptr<detail::ByteSource> source, Dialect dialect) {
    auto state = std::make_unique<State>();
    state->dialect = dialect;
    state->source = std::move(source);
    state->input_size = state->source->size();
    state->header = read_header(*state->source, dialect, state->header_bytes);
    state->reset_iteration();
    Reader reader(std::move(state));
    // A daphne body is one block (or a frame's interleaved rows) that the header alone places, so its record and
    // size are checked here, a few bytes read: every use of the reader then starts from the same verdict. Left to
    // the first block read, a file whose object has no cells (0 x N) and whose body is cut off would pass every
    // use that reads no block (printing or converting its zero values) while others refuse it.
    if (dialect == Dialect::Daphne) reader.build_index();
    return reader;
}

Reader Reader::open_file(const std::filesystem::path& path, Dialect dialect, FileAccess access) {
    return open_source_state(
        access == FileAccess::Map ? detail::make_mapped_source(path) : detail::make_file_source(path), dialect);
}

Reader Reader::open_memory(std::span<const std::byte> input, Dialect dialect) {
    return open_source_state(detail::make_memory_source(input), dialect);
}

Reader Reader::open_source(ReadAtSource source, Dialect dialect) {
    return open_source_state(detail::make_callback_source(std::move(source)), dialect);
}

Dialect Reader::dialect() const { return state_->dialect; }

const ObjectHeader& Reader::header() const { return state_->header; }
std::uint64_t Reader::header_bytes() const { return state_->header_bytes; }
std::uint64_t Reader::total_bytes() const { return state_->input_size; }
bool Reader::lends_memory() const { return state_->source->lent_memory() != nullptr; }

bool Reader::next_block() {
    State& s = *state_;
    if (s.sticky_error) throw *s.sticky_error;
    if (s.at_end) return false;
    try {
        // A daphne body is one block or interleaved frame rows: its blocks are known all at once.
        if (s.dialect == Dialect::Daphne) build_index();
        if (s.index_built) {  // layout already checked; step through the index
            if (s.next_index >= s.index.size()) {
                s.set_current(std::nullopt);
                s.at_end = true;
                return false;
            }
            s.set_current(s.index[s.next_index++]);
            return true;
        }
        if (s.next_offset >= s.input_size) {
            check_no_overlap(s.seen);
            check_cover(s.seen, s.header, s.input_size);
            s.set_current(std::nullopt);
            s.at_end = true;
            return false;
        }
        BlockView block = read_record(*s.source, s.next_offset, s.next_index);
        detail::check_block_bounds(block, s.header);
        s.seen.add(rectangle_of(block));
        s.next_offset += block.encoded_bytes;
        ++s.next_index;
        s.set_current(block);
        return true;
    } catch (const Error& error) {
        // A file that shrank is no fault of its layout, and the reader is where it was; every other error is the
        // layout's and stays: the body cannot be walked past it.
        if (error.code() != ErrorCode::Io) s.sticky_error = error;
        throw;
    }
}

bool Reader::has_block() const { return state_->current.has_value(); }

const BlockView& Reader::block() const {
    if (!state_->current) throw Error(ErrorCode::CallOrder, "there is no current block: call next_block first");
    return *state_->current;
}

std::span<const std::byte> Reader::payload() const {
    const BlockView& current = block();
    const detail::ByteWindow& window = state_->payload_of_current();
    return {window.at(current.payload_offset), static_cast<std::size_t>(current.payload_bytes)};
}

void Reader::decode_dense(ValueType type, void* out, std::size_t capacity, std::uint64_t row_stride) {
    const BlockView& current = block();
    require_valid_output_type(type);
    const std::uint64_t stride = row_stride == 0 ? current.cols : row_stride;
    if (stride < current.cols) {
        throw Error(ErrorCode::InvalidArgument, "row stride " + std::to_string(stride) +
                                                    " is smaller than the block's " + std::to_string(current.cols) +
                                                    " columns");
    }
    require_capacity(strided_extent(current.rows, current.cols, stride), capacity, "the block");
    if (current.area() == 0) return;
    if (out == nullptr) throw Error(ErrorCode::InvalidArgument, "output buffer is NULL");
    detail::DenseTarget target{type, out, stride, 0, current.rows, 0, current.cols};
    // An output that is not aligned for the type gets the block through an aligned copy (caller_arrays.hpp).
    const std::size_t row_bytes = std::size_t{current.cols} * value_size(type);
    detail::OutputArray output(out, detail::value_alignment(type));
    target.data = output.at(current.rows * row_bytes);
    if (target.data != out) target.row_stride = current.cols;
    if (state_->current_payload) {  // already read whole
        detail::decode_block_dense(*state_->current_payload, current, state_->header, target);
    } else {
        // In bounded pieces, or straight into `out`, rather than the whole payload into the reader first.
        detail::ByteBuffer buffer;
        detail::read_block_dense(*state_->source, current, state_->header, target, buffer);
    }
    if (target.data != out) {
        detail::copy_rows(out, stride * value_size(type), target.data, row_bytes, current.rows, row_bytes);
    }
}

std::uint64_t Reader::count_entries() {
    const BlockView& current = block();
    if (state_->current_payload) return detail::count_block_entries(*state_->current_payload, current);
    detail::ByteBuffer buffer;
    return detail::count_entries_of(*state_->source, current, buffer);
}

std::uint64_t Reader::decode_csr(ValueType type, std::uint64_t* row_offsets, std::size_t row_offsets_capacity,
                                 std::uint32_t* col_indices, void* values, std::size_t capacity) {
    const BlockView& current = block();
    require_valid_output_type(type);
    require_capacity(std::uint64_t{current.rows} + 1, row_offsets_capacity, "the block's row offsets");
    const std::uint64_t entries = count_entries();
    if (entries > capacity) return entries;
    const std::size_t offsets_bytes = (std::size_t{current.rows} + 1) * sizeof(std::uint64_t);
    const std::size_t cols_bytes = entries * sizeof(std::uint32_t);
    const std::size_t values_bytes = entries * value_size(type);
    detail::OutputArray offsets_out(row_offsets, alignof(std::uint64_t));
    detail::OutputArray cols_out(col_indices, alignof(std::uint32_t));
    detail::OutputArray values_out(values, detail::value_alignment(type));
    detail::decode_block_csr(state_->payload_of_current(), current, state_->header, type,
                             static_cast<std::uint64_t*>(offsets_out.at(offsets_bytes)),
                             static_cast<std::uint32_t*>(cols_out.at(cols_bytes)), values_out.at(values_bytes));
    offsets_out.deliver(offsets_bytes);
    cols_out.deliver(cols_bytes);
    values_out.deliver(values_bytes);
    return entries;
}

std::uint64_t Reader::decode_coo(ValueType type, std::uint32_t* row_indices, std::uint32_t* col_indices, void* values,
                                 std::size_t capacity) {
    const BlockView& current = block();
    require_valid_output_type(type);
    const std::uint64_t entries = count_entries();
    if (entries > capacity) return entries;
    const std::size_t index_bytes = entries * sizeof(std::uint32_t);
    const std::size_t values_bytes = entries * value_size(type);
    detail::OutputArray rows_out(row_indices, alignof(std::uint32_t));
    detail::OutputArray cols_out(col_indices, alignof(std::uint32_t));
    detail::OutputArray values_out(values, detail::value_alignment(type));
    detail::decode_block_coo(state_->payload_of_current(), current, state_->header, type,
                             static_cast<std::uint32_t*>(rows_out.at(index_bytes)),
                             static_cast<std::uint32_t*>(cols_out.at(index_bytes)), values_out.at(values_bytes));
    rows_out.deliver(index_bytes);
    cols_out.deliver(index_bytes);
    values_out.deliver(values_bytes);
    return entries;
}

void Reader::rewind() { state_->reset_iteration(); }

const std::vector<BlockView>& Reader::build_index() {
    State& s = *state_;
    if (s.index_built) return s.index;
    std::vector<BlockView> index;
    if (s.dialect == Dialect::Daphne) {
        // The blocks are built to partition the object; nothing else to check.
        s.index = detail::daphne_body_blocks(*s.source, s.header_bytes, s.header);
        s.index_built = true;
        s.next_index = s.current ? s.current->index + 1 : (s.at_end ? s.index.size() : s.next_index);
        return s.index;
    }
    PartitionSweep layout;
    std::uint64_t offset = s.header_bytes;
    while (offset < s.input_size) {
        BlockView block = read_record(*s.source, offset, index.size());
        detail::check_block_bounds(block, s.header);
        layout.add(rectangle_of(block));
        offset += block.encoded_bytes;
        index.push_back(block);
    }
    check_no_overlap(layout);
    check_cover(layout, s.header, s.input_size);
    s.index = std::move(index);
    s.index_built = true;
    // Iteration continues from the same block, now through the index.
    s.seen.clear();
    s.next_index = s.current ? s.current->index + 1 : (s.at_end ? s.index.size() : s.next_index);
    return s.index;
}

void Reader::seek_block(std::uint64_t index) {
    const auto& blocks = build_index();
    if (index >= blocks.size()) {
        throw Error(ErrorCode::InvalidArgument, "block " + std::to_string(index) + " does not exist; the object has " +
                                                    std::to_string(blocks.size()) + " blocks");
    }
    State& s = *state_;
    s.sticky_error.reset();
    s.at_end = false;
    s.set_current(blocks[index]);
    s.next_index = index + 1;
}

void Reader::read_dense_window(ValueType type, const Window& window, void* out, std::size_t capacity,
                               std::uint64_t row_stride) {
    const DenseWindowRead read{type, window, out, capacity, row_stride};
    read_dense_windows(std::span(&read, 1));
}

void Reader::read_dense_windows(std::span<const DenseWindowRead> reads) {
    const ObjectHeader& header = state_->header;
    for (const DenseWindowRead& read : reads) {
        require_valid_output_type(read.type);
        const Window& window = read.window;
        const bool rows_fit = window.rows <= header.rows && window.row <= header.rows - window.rows;
        const bool cols_fit = window.cols <= header.cols && window.col <= header.cols - window.cols;
        if (!rows_fit || !cols_fit) {
            throw Error(ErrorCode::InvalidArgument,
                        "window of " + std::to_string(window.rows) + " x " + std::to_string(window.cols) + " at (" +
                            std::to_string(window.row) + ", " + std::to_string(window.col) + ") lies outside the " +
                            std::to_string(header.rows) + " x " + std::to_string(header.cols) + " object");
        }
        const std::uint64_t stride = read.row_stride == 0 ? window.cols : read.row_stride;
        if (stride < window.cols) {
            throw Error(ErrorCode::InvalidArgument, "row stride " + std::to_string(stride) + " is smaller than the " +
                                                        std::to_string(window.cols) + " columns read");
        }
        require_capacity(strided_extent(window.rows, window.cols, stride), read.capacity, "the window");
    }
    // The layout is checked even when no value is read, so that a window of nothing (a 0 x N object printed or
    // converted) is refused for a broken file as every other use of it is.
    const std::vector<BlockView>& index = build_index();
    std::vector<DenseWindowRead> nonempty;
    for (const DenseWindowRead& read : reads) {
        if (read.window.rows == 0 || read.window.cols == 0) continue;
        if (read.out == nullptr) throw Error(ErrorCode::InvalidArgument, "output buffer is NULL");
        nonempty.push_back(read);
    }
    if (nonempty.empty()) return;
    if (!state_->window_lookup) state_->window_lookup = std::make_unique<detail::WindowLookup>(index);
    detail::decode_dense_windows(*state_->source, header, index, *state_->window_lookup, nonempty,
                                 state_->decode_threads);
}

void Reader::set_decode_threads(unsigned threads) { state_->decode_threads = threads; }
unsigned Reader::decode_threads() const { return state_->decode_threads; }

std::uint64_t Reader::count_entries_total() {
    std::uint64_t entries = 0;
    detail::ByteBuffer buffer;
    for (const BlockView& block : build_index()) entries += detail::count_entries_of(*state_->source, block, buffer);
    return entries;
}

std::uint64_t Reader::read_csr(ValueType type, std::uint64_t* row_offsets, std::size_t row_offsets_capacity,
                               std::uint64_t* col_indices, void* values, std::size_t capacity) {
    require_valid_output_type(type);
    const ObjectHeader& header = state_->header;
    require_capacity(static_cast<detail::WideCount>(header.rows) + 1, row_offsets_capacity, "the row offsets");
    const std::uint64_t entries = count_entries_total();
    if (entries > capacity) return entries;
    // Counts per row land in row_offsets[row + 1]; the prefix sum turns them into offsets. The scatter then uses
    // row_offsets[row] as the write cursor of each row, which leaves it at the next row's start; shifting back by
    // one restores the offsets. No memory is needed beyond the outputs and the sorted block order.
    // The caller's arrays need not be aligned for their type: they are touched through byte-safe loads and stores
    // here and in scatter_block_csr.
    std::memset(row_offsets, 0, (header.rows + 1) * sizeof(std::uint64_t));
    const auto& index = build_index();
    detail::ByteBuffer buffer;
    for (const BlockView& block : index) {
        detail::add_block_row_counts(payload_window(*state_->source, block, buffer), block, row_offsets + 1);
    }
    for (std::uint64_t row = 0; row < header.rows; ++row) {
        detail::store_element(row_offsets, row + 1,
                              detail::load_element<std::uint64_t>(row_offsets, row + 1) +
                                  detail::load_element<std::uint64_t>(row_offsets, row));
    }
    std::vector<const BlockView*> by_column;
    by_column.reserve(index.size());
    for (const BlockView& block : index) by_column.push_back(&block);
    std::stable_sort(by_column.begin(), by_column.end(),
                     [](const BlockView* a, const BlockView* b) { return a->col < b->col; });
    for (const BlockView* block : by_column) {
        detail::scatter_block_csr(payload_window(*state_->source, *block, buffer), *block, header, type, row_offsets,
                                  col_indices, values);
    }
    std::memmove(row_offsets + 1, row_offsets, header.rows * sizeof(std::uint64_t));
    detail::store_element(row_offsets, 0, std::uint64_t{0});
    return entries;
}

std::uint64_t Reader::validate(const std::function<void(const Violation&)>& on_violation) {
    State& s = *state_;
    std::uint64_t violations = 0;
    auto report = [&](const Error& error) {
        // A file that cannot be read (or shrank) is not a violation of the format: it ends the validation.
        if (error.code() == ErrorCode::Io) throw error;
        ++violations;
        if (on_violation) on_violation(Violation{error.code(), error.rule(), error.offset(), error.what()});
    };
    detail::ByteBuffer buffer;
    auto check_payload = [&](const BlockView& block) {
        // Only what check_block_payload reads: sparse structure, and dense values where rule 8 needs a check.
        if (block.block_type == BlockType::Empty || block.area() == 0) return;
        if (block.block_type == BlockType::Dense && !detail::needs_declared_check(block, s.header)) return;
        try {
            detail::check_block_payload(payload_window(*s.source, block, buffer), block, s.header);
        } catch (const Error& error) {
            report(error);
        }
    };
    if (s.dialect == Dialect::Daphne) {
        std::vector<BlockView> blocks;
        try {
            blocks = detail::daphne_body_blocks(*s.source, s.header_bytes, s.header);
        } catch (const Error& error) {
            report(error);
            return violations;
        }
        for (const BlockView& block : blocks) check_payload(block);
        return violations;
    }
    PartitionSweep layout;
    std::uint64_t offset = s.header_bytes;
    std::uint64_t index = 0;
    bool layout_complete = true;
    while (offset < s.input_size) {
        BlockView block;
        try {
            block = read_record(*s.source, offset, index);
        } catch (const Error& error) {
            report(error);  // the rest of the body cannot be located
            layout_complete = false;
            break;
        }
        offset += block.encoded_bytes;
        ++index;
        try {
            detail::check_block_bounds(block, s.header);
        } catch (const Error& error) {
            report(error);
            layout_complete = false;  // coverage cannot be judged with a block outside the object
            continue;
        }
        layout.add(rectangle_of(block));
        check_payload(block);
    }
    // Overlaps are found for all blocks at once, after their own checks; each block that overlaps an earlier one is
    // reported once, in file order.
    for (const Overlap& overlap : layout.find_overlaps()) {
        layout_complete = false;
        try {
            throw_overlap(overlap);
        } catch (const Error& error) {
            report(error);
        }
    }
    if (layout_complete) {
        try {
            check_cover(layout, s.header, s.input_size);
        } catch (const Error& error) {
            report(error);
        }
    }
    return violations;
}

}  // namespace dbdf
