// Reading an object block by block from a file (positioned reads, or a memory mapping where the caller opts in),
// caller memory or a caller's read-at source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dbdf/block.hpp"
#include "dbdf/dialect.hpp"
#include "dbdf/error.hpp"
#include "dbdf/header.hpp"
#include "dbdf/types.hpp"

namespace dbdf {

namespace detail {
class ByteSource;
}

struct Violation {
    ErrorCode code = ErrorCode::Format;  // Format, Truncated or Range
    int rule = 0;                        // rule number (docs/format-rules.md), 0 for the spec's layout
    std::uint64_t offset = 0;
    std::string message;
};

// A rectangle of the object: rows [row, row + rows), columns [col, col + cols).
struct Window {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
};

// One window of Reader::read_dense_windows(): its values go to `out` as read_dense_window() puts them.
struct DenseWindowRead {
    ValueType type = ValueType::F64;
    Window window;
    void* out = nullptr;
    std::size_t capacity = 0;      // elements
    std::uint64_t row_stride = 0;  // 0: the window's column count
};

// How a file reader gets at the file's bytes (docs/changing-files.md says what each promises when the file changes).
enum class FileAccess : std::uint8_t {
    // pread() into buffers the reader owns (or straight into the caller's output): a file that shrinks while it is
    // read gives Error(Io) "the file shrank while being read", never a signal. The default.
    PositionedReads = 0,
    // A read-only memory mapping, decoded in place. If another process shrinks the file while it is mapped, touching
    // the lost pages raises SIGBUS, which ends the process: only for callers who control the file.
    Map = 1,
};

// A caller's random-access byte source (docs/byte-sources.md).
struct ReadAtSource {
    // Copies bytes of the source from `offset` into `destination` (at most its size, which is never 0) and returns
    // how many it copied: fewer is a short read (asked again for the rest), 0 only at or past the end of the
    // source. It throws to fail; the exception leaves the reader call that needed the bytes as it is. Called only
    // from the thread inside a reader call, never concurrently, unless concurrent_reads is set.
    std::function<std::size_t(std::uint64_t offset, std::span<std::byte> destination)> read_at;
    // Bytes in the source; when unknown it is found by probing (about 2 log2(size) one-byte reads).
    std::optional<std::uint64_t> size;
    // Bytes of the read-ahead window that coalesces small reads; 0 means 64 KiB.
    std::size_t read_ahead = 0;
    // Whether read_at may be called from several threads at once (the reader's decode threads, during a reader
    // call): whole-object reads then fetch and decode payloads on those threads as they do for a file.
    bool concurrent_reads = false;
};

// The largest read-ahead window a source may ask for.
inline constexpr std::size_t kMaxReadAheadBytes = std::size_t{64} << 20;

class Reader {
public:
    // Opens a regular file read-only and parses its header; the file's size is taken now, so bytes appended later
    // are not read. Never blocks on a FIFO: anything but a regular file is Error(Io) naming what it is. Throws
    // Error(Io) when the file cannot be opened or read, and header errors. `dialect` says which layout the file
    // follows; it is never guessed (dialect.hpp). In the daphne dialect the body's single block record and the
    // body's size are checked too (a cut-off body is Error(Truncated) here, whatever the object's shape); the
    // values are not read.
    static Reader open_file(const std::filesystem::path& path, Dialect dialect = Dialect::Spec,
                            FileAccess access = FileAccess::PositionedReads);
    // Reads caller memory without copying; it must outlive the reader.
    static Reader open_memory(std::span<const std::byte> input, Dialect dialect = Dialect::Spec);
    // Reads through the caller's read-at function: the header and the block records it needs, then only the
    // payloads of the blocks decoded, coalescing small reads through the read-ahead window. A source that fails,
    // ends before its declared size or returns more bytes than asked gives Error(Io) naming the byte; the reader
    // stays usable. Whole-object reads decode on the calling thread alone, since read_at is called only there,
    // unless the source allows concurrent reads.
    // Throws Error(InvalidArgument) for a read-ahead above kMaxReadAheadBytes.
    static Reader open_source(ReadAtSource source, Dialect dialect = Dialect::Spec);

    Reader(Reader&&) noexcept;
    Reader& operator=(Reader&&) noexcept;
    ~Reader();

    Dialect dialect() const;
    const ObjectHeader& header() const;
    std::uint64_t header_bytes() const;
    std::uint64_t total_bytes() const;
    // Whether payload() lends the input's own memory (caller memory, a mapping), valid as long as the reader.
    bool lends_memory() const;

    // Moves to the next block, reading only its header; payload size is bounds-checked. Returns false after
    // the last block, once the partition of all blocks seen has been checked (rule 1): overlaps are found then,
    // for all blocks at once, and reported as the first block in file order that overlaps an earlier one.
    bool next_block();
    bool has_block() const;
    const BlockView& block() const;  // requires has_block()
    // The current block's payload bytes. Borrowed: from caller memory or a mapping they stay valid as long as the
    // reader; from a file they are read into a buffer of the reader (on the first call for the block) that stays
    // valid until the reader moves to another block (next_block, seek_block, rewind) or is destroyed. Throws
    // Error(Io) when the file shrank.
    std::span<const std::byte> payload() const;

    // Decodes the current block densely into out (elements of `type`): cell (i, j) at out[i*row_stride + j].
    // row_stride 0 means the block's column count. capacity counts elements.
    void decode_dense(ValueType type, void* out, std::size_t capacity, std::uint64_t row_stride);
    // Entries the current block yields as CSR / COO (rule 14).
    std::uint64_t count_entries();
    // Decode as block-local CSR / COO. Returns the entry count; when it exceeds `capacity` nothing is written.
    std::uint64_t decode_csr(ValueType type, std::uint64_t* row_offsets, std::size_t row_offsets_capacity,
                             std::uint32_t* col_indices, void* values, std::size_t capacity);
    std::uint64_t decode_coo(ValueType type, std::uint32_t* row_indices, std::uint32_t* col_indices, void* values,
                             std::size_t capacity);

    void rewind();
    // Walks all block headers (payloads skipped) and checks bounds and partition. Cached.
    const std::vector<BlockView>& build_index();
    void seek_block(std::uint64_t index);

    // Whole-object reads through the index; the iteration position is unchanged.
    void read_dense_window(ValueType type, const Window& window, void* out, std::size_t capacity,
                           std::uint64_t row_stride);
    // Several windows read as one: the pieces of all of them share the decode threads, so that windows too small
    // to split on their own (the columns of a frame's row band) are still decoded in parallel. Every read is
    // checked as read_dense_window() checks it before any value is decoded; no two reads may write the same memory.
    // A failure is the one of the first failing block in file order.
    void read_dense_windows(std::span<const DenseWindowRead> reads);
    std::uint64_t count_entries_total();
    std::uint64_t read_csr(ValueType type, std::uint64_t* row_offsets, std::size_t row_offsets_capacity,
                           std::uint64_t* col_indices, void* values, std::size_t capacity);

    // Threads that whole-object reads (read_dense_window, and so frame columns) decode on, the caller's included.
    // 0 (the default): automatic, one per core for reads of 16 MiB or more, one otherwise. More than max(64, the
    // processor count) start only that many.
    void set_decode_threads(unsigned threads);
    unsigned decode_threads() const;

    // Checks every rule; calls on_violation for each violation found (may be empty). Returns their number. A file
    // that cannot be read or shrank is no violation: Error(Io) is thrown.
    std::uint64_t validate(const std::function<void(const Violation&)>& on_violation);

private:
    struct State;
    explicit Reader(std::unique_ptr<State> state);
    static Reader open_source_state(std::unique_ptr<detail::ByteSource> source, Dialect dialect);
    std::unique_ptr<State> state_;
};

}  // namespace dbdf
