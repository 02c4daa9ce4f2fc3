// Writing an object block by block. The whole object is never needed in memory: each block is encoded and
// handed to the sink as it is added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "dbdf/dialect.hpp"
#include "dbdf/header.hpp"
#include "dbdf/sink.hpp"
#include "dbdf/types.hpp"

namespace dbdf {

enum class Encoding : std::uint8_t { Auto = 0, AsGiven = 1, Dense = 2, Csr = 3, Coo = 4 };

std::string_view name(Encoding encoding);  // "auto", "as-given", "dense", "csr", "coo"

struct WriteOptions {
    Encoding encoding = Encoding::Auto;
    std::uint32_t block_rows = 0;  // tiling helpers; 0 = automatic
    std::uint32_t block_cols = 0;
};

// Where a block goes in the object and its shape.
struct BlockPlacement {
    std::uint64_t row = 0;
    std::uint64_t col = 0;
    std::uint32_t rows = 0;
    std::uint32_t cols = 0;
};

// Which layout a writer produces. The daphne dialect (DIALECT.md) stores one block covering the object: a matrix
// takes write_dense / write_csr, or one add_* call whose block covers the whole matrix; a frame takes every
// column (write_column, or add_dense of a whole column), kept in memory until finish() interleaves them row by
// row. A dense matrix may also take its block as full-width row bands (add_dense, add_csr, add_coo or add_empty
// of (r, 0, h, cols) where r is the number of rows written so far), each written to the sink as it comes, so the
// matrix is never needed whole in memory; a band out of order is Error(CallOrder), one that is not full-width or
// overlaps written rows Error(InvalidArgument), and finish() before every row is written Error(Format). A CSR
// matrix cannot be written in pieces: its row offsets for every row come before its first column index. Values
// are stored in the object's value type (no narrowing); the encoding option may only name the object's own layout
// (auto, as-given, dense for dense matrices, CSR for CSR matrices); tile sizes do not apply.
// A scalar (begin_matrix(DataType::Scalar, type, 1, 1), daphne dialect only) takes its value as a 1 x 1 matrix
// does (write_dense, or one add_* call of a 1 x 1 block) and is written as DAPHNE's runtime serializes a single
// value: header, value type, value.
struct WriterDialect {
    Dialect dialect = Dialect::Spec;
    // Daphne dialect: finish() writes DaphneDSL's .meta JSON here; empty: none. Its file sink is opened by the
    // constructor (Error(Io) there when it cannot be), and finish() commits the data and the sidecar as a pair:
    // neither target changes until both files are complete, then the data is moved into place and the sidecar
    // right after it. Scalars never get one: the runtime writes no sidecar for them.
    std::filesystem::path meta_sidecar;
    // How the .meta file is committed; the data file's sink has its own setting (make_file_sink).
    FileCommit meta_commit = FileCommit::Atomic;
};

class Writer {
public:
    explicit Writer(std::unique_ptr<ByteSink> sink, WriterDialect dialect = {});
    Writer(Writer&&) noexcept;
    Writer& operator=(Writer&&) noexcept;
    ~Writer();

    // data_type dense or CSR; in the daphne dialect also Scalar with rows = cols = 1 (the spec dialect refuses it
    // with Error(InvalidArgument): the spec has no scalar data type).
    void begin_matrix(DataType data_type, ValueType value_type, std::uint64_t rows, std::uint64_t cols);
    void begin_frame(std::uint64_t rows, std::vector<ValueType> column_types, std::vector<std::string> labels);
    const ObjectHeader& header() const;
    Dialect dialect() const;

    // Typed inputs are host-order arrays of the C++ type of `type`.
    void add_dense(const BlockPlacement& place, ValueType type, const void* values, std::size_t count,
                   std::uint64_t row_stride, const WriteOptions& options);
    void add_csr(const BlockPlacement& place, ValueType type, const std::uint64_t* row_offsets,
                 const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                 const WriteOptions& options);
    void add_coo(const BlockPlacement& place, ValueType type, const std::uint32_t* row_indices,
                 const std::uint32_t* col_indices, const void* values, std::uint64_t entries,
                 const WriteOptions& options);
    void add_empty(const BlockPlacement& place);

    // Tiling helpers (row-major tile order, rule 3).
    void write_dense(ValueType type, const void* values, std::size_t count, std::uint64_t row_stride,
                     const WriteOptions& options);
    void write_csr(ValueType type, const std::uint64_t* row_offsets, const std::uint64_t* col_indices,
                   const void* values, std::uint64_t entries, const WriteOptions& options);
    void write_column(std::uint64_t column, ValueType type, const void* values, std::size_t count,
                      const WriteOptions& options);

    // Threads write_dense uses, the caller's included: all analyse the values of the tiles ahead (the caller's
    // whenever the next tile to write is not analysed yet) while the caller's encodes and writes them in order.
    // 0 (the default): automatic, one per core, at most four, for matrices of 16 MiB or more; one otherwise. More
    // than max(64, the processor count) start only that many.
    void set_encode_threads(unsigned threads);
    unsigned encode_threads() const;

    // Checks the partition (rule 1), flushes and commits the sink.
    void finish();
    bool begun() const;
    bool finished() const;
    bool failed() const;
    std::uint64_t bytes_written() const;
    ByteSink& sink();

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The automatic tile shape for an object of rows x cols values of `type`: blocks of a few MiB.
BlockPlacement default_tile(std::uint64_t rows, std::uint64_t cols, ValueType type);

}  // namespace dbdf
