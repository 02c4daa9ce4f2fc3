/*
 * dbdf.h — the C interface of dbdf, a library for the DAPHNE binary data format (.dbdf).
 *
 * This is the only public C header. It reads top to bottom as the manual:
 *
 *   1. Conventions (status codes, errors, ownership, threading)
 *   2. Version and enum helpers
 *   3. Reading: open, object info, block iteration, block decoding, whole-object reads, index, validation
 *   4. Writing: open, begin, add blocks, tiling helpers, finish, memory output
 *   5. Dialects: reading and writing the layout DAPHNE's runtime really uses
 *   6. Output files: bytes of any format written with the file writer's replacement rules; signal cleanup
 *   7. Arrow C data interface: a reader's object as an ArrowArrayStream, a writer fed from one
 *
 * CONVENTIONS
 *
 * - Every fallible function returns a dbdf_status_t. DBDF_OK (0) is success; DBDF_END_OF_BLOCKS (1) is the
 *   non-error answer of dbdf_reader_next_block() past the last block; every error is negative.
 * - Every function that returns a dbdf_status_t first clears the calling thread's last error. After it fails,
 *   dbdf_last_error_message() describes the failure: what was wrong, where (field, block, byte offset) and, for
 *   format violations, which rule of the format was broken ("rule 12", or "spec layout" for the published
 *   layout). The message belongs to the library and to the calling thread; it stays valid until that thread's
 *   next call of a function returning dbdf_status_t. dbdf_last_error_rule() and dbdf_last_error_offset() give the
 *   rule and the byte offset as numbers, so no caller needs to parse them out of the text. The functions that
 *   return no status (the version and name helpers, the ..._init and ..._free functions, the dbdf_last_error_...
 *   functions themselves) neither clear nor set any of them.
 * - Output values go through out-parameters, the created handle last (named `out`). On failure, out-parameters
 *   are left unchanged unless stated otherwise.
 * - Input buffers are read only during the call; the library never keeps a caller's pointer, except the memory
 *   given to dbdf_reader_open_memory() (see there). Output buffers are provided by the caller together with
 *   their capacity, counted in elements (not bytes) unless the name says `nbytes`. A buffer that is too small
 *   yields DBDF_ERR_BUFFER_TOO_SMALL and nothing is written to it.
 * - Typed arrays (values as void *, indices and row offsets as uint32_t * or uint64_t *), inputs and outputs, need
 *   not be aligned for their element type: a pointer into a packed buffer or a NumPy view at an odd byte offset is
 *   valid. Aligned arrays are read and written in place. A misaligned one is read or written through byte-safe
 *   accesses, or through an aligned copy of one part at a time: a piece of a few MiB for dbdf_reader_read_dense...
 *   and dbdf_reader_read_column, one block for the block calls (dbdf_writer_add_..., dbdf_reader_block_decode_...)
 *   and for each block that dbdf_writer_write_dense, _write_csr and _write_column write (in the daphne dialect a
 *   CSR matrix is one block). Such a copy takes as much memory again as its part. Each function below that takes
 *   such an array says so.
 * - The decoding and whole-object reading functions (dbdf_reader_block_decode_..., dbdf_reader_read_dense...,
 *   dbdf_reader_read_column, dbdf_reader_read_csr) write their output buffers while they decode, without a copy
 *   in between (except the copies of an output not aligned for its type, above). When they fail with
 *   DBDF_ERR_FORMAT or DBDF_ERR_RANGE, the output buffers may hold part of the output: their contents are then
 *   unspecified.
 * - Borrowed pointers returned by the library (payload bytes, labels, memory output) stay valid for the time
 *   stated at each function; never free them.
 * - Free functions accept NULL and do nothing then.
 * - No C++ exception ever crosses this interface; an allocation failure is DBDF_ERR_NOMEM. Functions that
 *   allocate for their work list DBDF_ERR_NOMEM among their statuses. Any other failing call may also report
 *   DBDF_ERR_NOMEM instead of its own status when even its error message cannot be allocated. When a message
 *   cannot be stored, dbdf_last_error_message() returns a short static text saying so, and the status is kept.
 * - Passing NULL where a pointer is required yields DBDF_ERR_INVALID_ARGUMENT (never a crash).
 * - A reader opened on a file reads it as calls need its bytes. Every reader call that reads the file (moving to a
 *   block, the index, decoding, whole-object reads, payloads, validation) may therefore also return DBDF_ERR_IO:
 *   when the file cannot be read, or when it shrank since it was opened ("the file shrank while being read").
 *   The reader stays usable: the call can be repeated, other blocks read, the reader freed.
 *
 * THREADING
 *
 * A handle (reader or writer) must be used by one thread at a time; it may move between threads. Different
 * handles are fully independent and may be used concurrently from different threads, including several readers
 * over the same file or the same memory. The version and name helpers may be called from any thread at any time.
 *
 * ABI STABILITY
 *
 * Enum values are explicit and never renumbered; new values are only added at the end. The plain-data structs
 * dbdf_object_info_t and dbdf_block_info_t are frozen. Options structs start with `struct_size` and are
 * initialised with their ..._INIT macro or ..._init() function, so new fields can be appended later without
 * breaking compiled callers. The shared library's SONAME carries DBDF_VERSION_MAJOR.
 */
#ifndef DBDF_H
#define DBDF_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(DBDF_SHARED_BUILD)
#define DBDF_API __declspec(dllexport)
#elif defined(_WIN32) && defined(DBDF_SHARED)
#define DBDF_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define DBDF_API __attribute__((visibility("default")))
#else
#define DBDF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================================
 * 1. Status codes
 * ========================================================================================================== */

/** Result of every fallible call. Values are frozen; new codes are only added at the end. */
typedef enum dbdf_status {
    DBDF_OK = 0,                    /**< Success. */
    DBDF_END_OF_BLOCKS = 1,         /**< dbdf_reader_next_block(): no more blocks. Not an error. */
    DBDF_ERR_INVALID_ARGUMENT = -1, /**< A NULL pointer, an unknown enum value, a position or shape out of range. */
    DBDF_ERR_CALL_ORDER = -2,       /**< The handle is not in a state that allows this call (e.g. add before begin). */
    DBDF_ERR_BUFFER_TOO_SMALL = -3, /**< A caller buffer cannot hold the output; nothing was written to it. */
    DBDF_ERR_IO = -4,               /**< Opening, mapping, writing, syncing or renaming a file failed. */
    DBDF_ERR_TRUNCATED = -5,        /**< The input ends before a field or payload it announces. */
    DBDF_ERR_FORMAT = -6,           /**< The input breaks the format or one of its rules (the message names it). */
    DBDF_ERR_RANGE = -7,            /**< A value is not exactly representable in the requested or declared type. */
    DBDF_ERR_NOMEM = -8,            /**< Memory allocation failed. */
    DBDF_ERR_UNSUPPORTED = -9,      /**< Valid request that this build cannot serve. */
    /** A bug in dbdf: a C++ exception other than dbdf's own errors and allocation failures reached the interface
     *  (the message names it). Any function returning a status may report it, but only if dbdf breaks its own
     *  design; no input or argument is meant to cause it. Please report it. */
    DBDF_ERR_INTERNAL = -10,
    DBDF_ERR_SINK = -11 /**< A write callback reported failure. */
} dbdf_status_t;

/**
 * Message describing the failure of this thread's last call of a function returning dbdf_status_t, or "" when
 * that call succeeded (or no such call was made). Owned by the library; valid until this thread's next call of a
 * function returning dbdf_status_t. Never NULL.
 */
DBDF_API const char *dbdf_last_error_message(void);

/** What dbdf_last_error_offset() returns when the last failure has no byte offset. */
#define DBDF_NO_OFFSET UINT64_MAX

/**
 * Number of the rule of docs/format-rules.md (1, 2, ...) that this thread's last call of a function returning
 * dbdf_status_t found broken when it failed with DBDF_ERR_TRUNCATED, DBDF_ERR_FORMAT or DBDF_ERR_RANGE: the rule
 * dbdf_last_error_message() names as "(rule N)". 0 when there is no such number: the input breaks the spec's
 * published layout itself (the message says "(spec layout)") or the daphne dialect's ("(daphne dialect)"), the
 * failure has another status (an argument the writer refuses may cite a rule in its message only), or that call
 * succeeded or no such call was made. Cleared and set together with the message, per thread.
 */
DBDF_API int dbdf_last_error_rule(void);

/**
 * Byte offset, counted from the start of the input, at which this thread's last failing call of a function
 * returning dbdf_status_t found the fault: the offending field of a header, block header or payload, or where the
 * input ended too early (the offset dbdf_last_error_message() names as "at byte N"). DBDF_NO_OFFSET when the
 * failure has no place in the input (an argument, the call order, memory, ...), or when that call succeeded or no
 * such call was made. Cleared and set together with the message, per thread.
 */
DBDF_API uint64_t dbdf_last_error_offset(void);

/* ============================================================================================================
 * 2. Version, enums and their names
 * ========================================================================================================== */

#define DBDF_VERSION_MAJOR 0
#define DBDF_VERSION_MINOR 2
#define DBDF_VERSION_PATCH 0
/** Version as one number: major * 10000 + minor * 100 + patch. */
#define DBDF_VERSION_NUMBER (DBDF_VERSION_MAJOR * 10000 + DBDF_VERSION_MINOR * 100 + DBDF_VERSION_PATCH)

/** Version of the library loaded at run time, as DBDF_VERSION_NUMBER computes it. Compare with the macro. */
DBDF_API unsigned dbdf_version(void);
/** Version of the library loaded at run time as "major.minor.patch". Static storage; never NULL. */
DBDF_API const char *dbdf_version_string(void);

/** Data type of an object (format header, byte 1). 0 is reserved by the format and never valid. */
typedef enum dbdf_data_type {
    DBDF_DATA_DENSE = 1, /**< DenseMatrix */
    DBDF_DATA_CSR = 2,   /**< CSRMatrix */
    DBDF_DATA_FRAME = 3, /**< Frame: one value type and label per column */
    /** A single value, read as a 1 x 1 object with one dense block, and written from one (see
     *  dbdf_writer_begin_matrix()). Only in the daphne dialect (section 5): the spec has no such data type. */
    DBDF_DATA_SCALAR = 4
} dbdf_data_type_t;

/** Value type codes of the format (1..10). DBDF_VALUE_NONE (0) is reserved: "no single value type" (frames). */
typedef enum dbdf_value_type {
    DBDF_VALUE_NONE = 0,
    DBDF_VALUE_U8 = 1,
    DBDF_VALUE_U16 = 2,
    DBDF_VALUE_U32 = 3,
    DBDF_VALUE_U64 = 4,
    DBDF_VALUE_I8 = 5,
    DBDF_VALUE_I16 = 6,
    DBDF_VALUE_I32 = 7,
    DBDF_VALUE_I64 = 8,
    DBDF_VALUE_F32 = 9,
    DBDF_VALUE_F64 = 10
} dbdf_value_type_t;

/** How a block is stored. */
typedef enum dbdf_block_type {
    DBDF_BLOCK_EMPTY = 0, /**< all zeros, no payload */
    DBDF_BLOCK_DENSE = 1, /**< row-major values */
    DBDF_BLOCK_CSR = 2,   /**< per-row counts and (column, value) pairs */
    DBDF_BLOCK_COO = 3    /**< (row, [column,] value) triplets */
} dbdf_block_type_t;

/** How the writer encodes a block that is added. */
typedef enum dbdf_encoding {
    /** Smallest exact encoding among empty, dense, CSR and COO, with the narrowest value type into which every
     *  value round-trips bit for bit (-0.0 and NaN payloads survive). The default. */
    DBDF_ENCODING_AUTO = 0,
    /** The block type of the add call (dense for add_dense, ...) and the value type given. */
    DBDF_ENCODING_AS_GIVEN = 1,
    DBDF_ENCODING_DENSE = 2, /**< dense block, value type as given */
    DBDF_ENCODING_CSR = 3,   /**< CSR block, value type as given */
    DBDF_ENCODING_COO = 4    /**< COO block, value type as given */
} dbdf_encoding_t;

/** Lower-case name of a status ("ok", "end_of_blocks", "invalid_argument", ...); "unknown" for other values. */
DBDF_API const char *dbdf_status_name(dbdf_status_t status);
/** Name of a value type ("u8", "u16", ..., "f64"; "none" for 0); "unknown" for other values. */
DBDF_API const char *dbdf_value_type_name(dbdf_value_type_t value_type);
/** Name of a data type ("dense", "csr", "frame", "scalar"); "unknown" for other values. */
DBDF_API const char *dbdf_data_type_name(dbdf_data_type_t data_type);
/** Name of a block type ("empty", "dense", "csr", "coo"); "unknown" for other values. */
DBDF_API const char *dbdf_block_type_name(dbdf_block_type_t block_type);
/** Name of an encoding ("auto", "as-given", "dense", "csr", "coo"); "unknown" for other values. */
DBDF_API const char *dbdf_encoding_name(dbdf_encoding_t encoding);
/** Size in bytes of one value of `value_type`; 0 for DBDF_VALUE_NONE and unknown values. */
DBDF_API size_t dbdf_value_type_size(dbdf_value_type_t value_type);

/**
 * Parse a value type name as printed by dbdf_value_type_name() (also accepts "uint8".."uint64",
 * "int8".."int64", "float32", "float64", "float", "double").
 * Returns DBDF_OK, or DBDF_ERR_INVALID_ARGUMENT (name NULL or unknown, out NULL).
 */
DBDF_API dbdf_status_t dbdf_value_type_from_name(const char *name, dbdf_value_type_t *out);

/* ============================================================================================================
 * 3. Reading
 * ========================================================================================================== */

/** A reader over one .dbdf object. Opaque. */
typedef struct dbdf_reader dbdf_reader_t;

/** What the object header says. Frozen plain-data struct. */
typedef struct dbdf_object_info {
    dbdf_data_type_t data_type;
    dbdf_value_type_t value_type; /**< DBDF_VALUE_NONE for frames: see dbdf_reader_column_type() */
    uint64_t rows;
    uint64_t cols;
    uint64_t header_bytes; /**< size of the object header; the first block starts here */
    uint64_t total_bytes;  /**< size of the whole input */
} dbdf_object_info_t;

/** One block as stored, known without decoding its payload. Frozen plain-data struct. */
typedef struct dbdf_block_info {
    uint64_t index; /**< ordinal of the block in the file, from 0 */
    uint64_t row;   /**< position of the block's first row in the object (rx) */
    uint64_t col;   /**< position of the block's first column in the object (cx) */
    uint32_t rows;  /**< block rows (#r) */
    uint32_t cols;  /**< block columns (#c) */
    dbdf_block_type_t block_type;
    dbdf_value_type_t value_type; /**< stored value type; DBDF_VALUE_NONE for empty blocks (they store no values) */
    uint64_t stored_values;       /**< values in the payload: rows*cols for dense, #nzb for CSR and COO, 0 empty */
    uint64_t offset;              /**< byte offset of the block record (its rx field) in the input */
    uint64_t encoded_bytes;       /**< size of the block record: position pair, block header and payload */
} dbdf_block_info_t;

/**
 * Open the regular file at `path` read-only and parse its object header. The file is read with positioned reads
 * (pread) as blocks are asked for; its size is taken now, so bytes appended later are not read. If the file
 * shrinks while the reader has it open (another process truncates or rewrites it), the call that needs the lost
 * bytes fails with DBDF_ERR_IO ("the file shrank while being read: expected N bytes at byte X, got M") and the
 * process is unharmed; see docs/changing-files.md. Opening never blocks: a FIFO, a device, a directory or a socket
 * is refused with DBDF_ERR_IO ("is not a regular file: a FIFO"). dbdf_open_options_t.memory_map opts into a
 * memory mapping instead.
 * On success *out receives a new reader positioned before the first block; free it with dbdf_reader_free().
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (path or out NULL); DBDF_ERR_IO (cannot open or read it, not a
 * regular file); DBDF_ERR_TRUNCATED or DBDF_ERR_FORMAT (bad header); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_open_file(const char *path, dbdf_reader_t **out);

/**
 * Open `nbytes` bytes of caller memory and parse the object header. The library does not copy them: `data`
 * must stay valid and unchanged until the reader is freed (the one exception to "never keeps a caller's
 * pointer"). On success *out receives a new reader positioned before the first block.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (data NULL with nbytes > 0, out NULL); DBDF_ERR_TRUNCATED or
 * DBDF_ERR_FORMAT (bad header); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_open_memory(const void *data, size_t nbytes, dbdf_reader_t **out);

/** Free a reader, closing (and unmapping) its file. Borrowed pointers obtained from it become invalid. NULL is
 *  ignored. */
DBDF_API void dbdf_reader_free(dbdf_reader_t *reader);

/**
 * Fill *out with the object header's information.
 * Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (NULL argument).
 */
DBDF_API dbdf_status_t dbdf_reader_object_info(const dbdf_reader_t *reader, dbdf_object_info_t *out);

/**
 * Value type of column `column`: for a frame the column's own type, for a matrix the object's value type.
 * Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (NULL argument, column >= cols).
 */
DBDF_API dbdf_status_t dbdf_reader_column_type(const dbdf_reader_t *reader, uint64_t column, dbdf_value_type_t *out);

/**
 * Label of frame column `column`: *out_label points to its bytes as stored (expected UTF-8, not checked),
 * followed by a terminating NUL that is not counted in *out_length (a label may itself contain NUL bytes).
 * Borrowed: valid until the reader is freed. Matrices have no labels.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, column >= cols, object is not a frame).
 */
DBDF_API dbdf_status_t dbdf_reader_column_label(const dbdf_reader_t *reader, uint64_t column, const char **out_label,
                                                size_t *out_length);

/**
 * Move to the next block and describe it in *out (may be NULL). Reads only the block header: the payload is
 * bounds-checked but not decoded, so skipping a block costs nothing. When the last block has been passed, checks
 * that all blocks seen partition the object (rule 1) and returns DBDF_END_OF_BLOCKS.
 * Returns DBDF_OK; DBDF_END_OF_BLOCKS; DBDF_ERR_INVALID_ARGUMENT (reader NULL); DBDF_ERR_TRUNCATED;
 * DBDF_ERR_FORMAT (unknown block or value type, block out of bounds, overlapping or uncovered cells, ...);
 * DBDF_ERR_NOMEM (the blocks seen are recorded to check the partition).
 * After an error the reader stays on the previous block; further calls repeat the error.
 */
DBDF_API dbdf_status_t dbdf_reader_next_block(dbdf_reader_t *reader, dbdf_block_info_t *out);

/**
 * Describe the current block in *out.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument); DBDF_ERR_CALL_ORDER (no current block).
 */
DBDF_API dbdf_status_t dbdf_reader_block_info(const dbdf_reader_t *reader, dbdf_block_info_t *out);

/**
 * Borrow the current block's payload zero-copy: for a dense block the row-major values (rows*cols values of
 * the block's value type, little-endian); for CSR the per-row records that follow #nzb; for COO the entries
 * that follow #nzb; for an empty block zero bytes (*out_data is then a valid non-NULL pointer).
 * The pointer is not aligned in general. Borrowed, never freed by the caller; how long it stays valid depends on
 * how the reader was opened:
 * - dbdf_reader_open_memory(): it points into the caller's memory, valid as long as that memory and the reader;
 * - a file opened with dbdf_open_options_t.memory_map = 1: it points into the mapping, valid until the reader is
 *   freed (and only while no process shrinks the file: see memory_map);
 * - a file opened otherwise (the default): the payload is read into a buffer the reader owns on the first call
 *   for the block, and the pointer stays valid until the reader moves to another block (dbdf_reader_next_block(),
 *   dbdf_reader_seek_block(), dbdf_reader_rewind()) or is freed. Calls on the same block, whole-object reads and
 *   the index leave it valid. A payload as large as the block is allocated for it.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument); DBDF_ERR_CALL_ORDER (no current block); DBDF_ERR_IO
 * (the file cannot be read, or shrank since it was opened); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_block_payload(const dbdf_reader_t *reader, const void **out_data,
                                                 size_t *out_nbytes);

/**
 * Decode the current block as dense values of `value_type` into `out`, row-major: element (i, j) goes to
 * out[i * row_stride + j]. `row_stride` is in elements; 0 means the block's column count. Cells outside
 * the block's columns in each strided row are not touched. Zeros are filled in for sparse and empty blocks.
 * `capacity` is the number of elements `out` holds; it must be at least (rows - 1) * stride + cols. `out` need not
 * be aligned for `value_type`.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, unknown value type, row_stride < cols);
 * DBDF_ERR_CALL_ORDER (no current block); DBDF_ERR_BUFFER_TOO_SMALL; DBDF_ERR_FORMAT (malformed payload:
 * counts, unsorted or out-of-range indices); DBDF_ERR_RANGE (a value is not exactly representable in
 * `value_type`, or not in the object's declared type, rule 8).
 */
DBDF_API dbdf_status_t dbdf_reader_block_decode_dense(dbdf_reader_t *reader, dbdf_value_type_t value_type, void *out,
                                                      size_t capacity, uint64_t row_stride);

/**
 * Number of entries the current block yields when decoded as CSR or COO (rule 14: the bit-non-zero values of a
 * dense block, every stored entry of a sparse block, none for an empty block). For a dense block this scans the
 * payload. Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_CALL_ORDER (no current block).
 */
DBDF_API dbdf_status_t dbdf_reader_block_count_entries(dbdf_reader_t *reader, uint64_t *out);

/**
 * Decode the current block as CSR with block-local indices: row_offsets[0..rows] (rows + 1 entries, starting at
 * 0), col_indices[k] and values[k] for k < *out_entries. `row_offsets_capacity` counts row_offsets' elements;
 * `capacity` counts the elements of col_indices and of values (each). *out_entries receives the entry count.
 * When a buffer is too small (row_offsets_capacity < rows + 1, or capacity < the entry count), nothing is
 * written to the buffers, *out_entries still receives the entry count (the capacity col_indices and values
 * need) and DBDF_ERR_BUFFER_TOO_SMALL is returned; the message says which buffer is short. The three arrays need
 * not be aligned for their types.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_CALL_ORDER; DBDF_ERR_BUFFER_TOO_SMALL; DBDF_ERR_FORMAT;
 * DBDF_ERR_RANGE (as for dbdf_reader_block_decode_dense).
 */
DBDF_API dbdf_status_t dbdf_reader_block_decode_csr(dbdf_reader_t *reader, dbdf_value_type_t value_type,
                                                    uint64_t *row_offsets, size_t row_offsets_capacity,
                                                    uint32_t *col_indices, void *values, size_t capacity,
                                                    uint64_t *out_entries);

/**
 * Decode the current block as COO triplets with block-local indices, in row-major order. `capacity` counts the
 * elements of each of row_indices, col_indices and values. *out_entries as for dbdf_reader_block_decode_csr. The
 * three arrays need not be aligned for their types.
 * Returns as dbdf_reader_block_decode_csr.
 */
DBDF_API dbdf_status_t dbdf_reader_block_decode_coo(dbdf_reader_t *reader, dbdf_value_type_t value_type,
                                                    uint32_t *row_indices, uint32_t *col_indices, void *values,
                                                    size_t capacity, uint64_t *out_entries);

/**
 * Go back before the first block. Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (reader NULL).
 */
DBDF_API dbdf_status_t dbdf_reader_rewind(dbdf_reader_t *reader);

/**
 * Build the block index by walking all block headers (payloads are skipped, never decoded) and check the
 * layout rules (bounds, partition). *out_blocks (may be NULL) receives the number of blocks. Building twice
 * is free. The current block is unchanged.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_TRUNCATED; DBDF_ERR_FORMAT; DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_build_index(dbdf_reader_t *reader, uint64_t *out_blocks);

/**
 * Describe block `index` (file order) from the index, building the index first if needed.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, index >= number of blocks); errors of
 * dbdf_reader_build_index().
 */
DBDF_API dbdf_status_t dbdf_reader_index_entry(dbdf_reader_t *reader, uint64_t index, dbdf_block_info_t *out);

/**
 * Make block `index` (file order) the current block, building the index first if needed; the next
 * dbdf_reader_next_block() moves to block index + 1.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (reader NULL, index out of range); errors of
 * dbdf_reader_build_index().
 */
DBDF_API dbdf_status_t dbdf_reader_seek_block(dbdf_reader_t *reader, uint64_t index);

/**
 * Read the window of rows [row, row + rows) and columns [col, col + cols) of the object as dense values of
 * `value_type` into `out`, row-major with `row_stride` elements between rows (0: `cols`). Uses the index (built
 * if needed) and decodes only the blocks that intersect the window. `capacity` counts out's elements and must be
 * at least (rows - 1) * stride + cols when rows and cols are non-zero. `out` need not be aligned for
 * `value_type`. The current block is unchanged.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, window outside the object, stride < cols);
 * DBDF_ERR_BUFFER_TOO_SMALL; DBDF_ERR_TRUNCATED; DBDF_ERR_FORMAT; DBDF_ERR_RANGE; DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_read_dense_window(dbdf_reader_t *reader, dbdf_value_type_t value_type, uint64_t row,
                                                     uint64_t col, uint64_t rows, uint64_t cols, void *out,
                                                     size_t capacity, uint64_t row_stride);

/** The whole object as dense values: dbdf_reader_read_dense_window() over all rows and columns (`out` need not be
 *  aligned for `value_type`). Returns as dbdf_reader_read_dense_window(). */
DBDF_API dbdf_status_t dbdf_reader_read_dense(dbdf_reader_t *reader, dbdf_value_type_t value_type, void *out,
                                              size_t capacity, uint64_t row_stride);

/**
 * Read frame (or matrix) column `column` as `rows` values of `value_type` into `out` (`capacity` elements; need
 * not be aligned for `value_type`).
 * Returns as dbdf_reader_read_dense_window().
 */
DBDF_API dbdf_status_t dbdf_reader_read_column(dbdf_reader_t *reader, uint64_t column, dbdf_value_type_t value_type,
                                               void *out, size_t capacity);

/**
 * Number of entries the whole object yields as CSR (sum of dbdf_reader_block_count_entries over all blocks).
 * Returns DBDF_OK or the errors of dbdf_reader_build_index() and of decoding.
 */
DBDF_API dbdf_status_t dbdf_reader_count_entries(dbdf_reader_t *reader, uint64_t *out);

/**
 * Read the whole object as CSR with object-wide indices: row_offsets[0..rows] (rows + 1 entries), then
 * col_indices and values with `capacity` elements each, columns strictly increasing within each row.
 * *out_entries receives the entry count, also with DBDF_ERR_BUFFER_TOO_SMALL (row_offsets_capacity < rows + 1,
 * or capacity < the entry count; nothing is written to the buffers then). The three arrays need not be aligned for
 * their types.
 * Besides the outputs it uses memory proportional to the number of blocks, never to the object's size: the
 * block index (dbdf_reader_build_index()) and a list of the blocks ordered by column. The current block is
 * unchanged.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_BUFFER_TOO_SMALL; DBDF_ERR_TRUNCATED; DBDF_ERR_FORMAT;
 * DBDF_ERR_RANGE; DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_read_csr(dbdf_reader_t *reader, dbdf_value_type_t value_type, uint64_t *row_offsets,
                                            size_t row_offsets_capacity, uint64_t *col_indices, void *values,
                                            size_t capacity, uint64_t *out_entries);

/** One rule violation found by dbdf_reader_validate(). `rule` is the number of the rule in docs/format-rules.md, 0 for
 *  the spec's layout itself; `offset` is the byte offset in the input; `message` is valid during the call only. */
typedef void (*dbdf_violation_fn)(void *context, int rule, uint64_t offset, const char *message);

/**
 * Check every rule of the format strictly: every block header and payload (counts, index order and range,
 * value representability, rule 8), bounds and partition. Each violation is passed to `on_violation` (may be
 * NULL) with `context`; checking goes on after a violation where the layout allows it. *out_violations (may be
 * NULL) receives their number, also when the call fails because of them. The current block is unchanged.
 * Returns DBDF_OK (no violation); DBDF_ERR_FORMAT, DBDF_ERR_TRUNCATED or DBDF_ERR_RANGE (the first violation's
 * kind; dbdf_last_error_message() describes it); DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_reader_validate(dbdf_reader_t *reader, dbdf_violation_fn on_violation, void *context,
                                            uint64_t *out_violations);

/* ============================================================================================================
 * 4. Writing
 * ========================================================================================================== */

/** A writer producing one .dbdf object. Opaque. */
typedef struct dbdf_writer dbdf_writer_t;

/** Options for adding blocks and for the tiling helpers. Initialise with DBDF_WRITE_OPTIONS_INIT or
 *  dbdf_write_options_init(); NULL wherever options are taken means the defaults. */
typedef struct dbdf_write_options {
    size_t struct_size;       /**< sizeof(dbdf_write_options_t) of the caller's header */
    dbdf_encoding_t encoding; /**< default DBDF_ENCODING_AUTO */
    uint32_t block_rows;      /**< tiling helpers: rows per block; 0 = automatic (blocks of a few MiB) */
    uint32_t block_cols;      /**< tiling helpers: columns per block; 0 = automatic */
} dbdf_write_options_t;

#define DBDF_WRITE_OPTIONS_INIT \
    { sizeof(dbdf_write_options_t), DBDF_ENCODING_AUTO, 0u, 0u }

/** Set *options to the defaults (what DBDF_WRITE_OPTIONS_INIT gives). NULL is ignored. */
DBDF_API void dbdf_write_options_init(dbdf_write_options_t *options);

/**
 * Write to the file at `path`, atomically: bytes go to a temporary file in the same directory, which
 * dbdf_writer_finish() moves over `path` in one step, so readers see the old file or the new one and never a
 * part. Until then an existing file at `path` is untouched; freeing the writer without finishing removes the
 * temporary file. Nothing is synced to the disk, as with most writers (numpy.save, fwrite): after a system crash
 * the new contents may be missing. dbdf_writer_open_file_with_options() with `durable` set syncs them.
 * How `path` is replaced, the same for every output (docs/format-decisions.md, "File output"):
 * - a regular file keeps its permission bits (and its owner and group where the process may set them); its hard
 *   links are split off (they keep the old contents). A new path gets mode 0666 narrowed by the umask.
 * - a symbolic link is followed (through a chain of them): its final target is replaced and the link kept.
 * - a character or block device, a FIFO, or /dev/stdout and other descriptors (/dev/fd/N) are written through as
 *   the bytes come: no temporary file, no rename, no sync of a device; a failed write leaves what it wrote there.
 *   A regular file reached through /dev/stdout (a shell's `> file`, `>> file`) is appended to.
 * - a directory is an error.
 * The temporary file has no name where the file system allows it (O_TMPFILE), so that nothing of it can survive
 * the process; elsewhere it is a hidden file ".NAME.dbdf-HOST-PID-RANDOM.tmp" (shortened to fit the file system's
 * name limit), which dbdf_remove_temporary_files() removes from a signal handler, and which a later write to the
 * same target removes once its process is gone.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument); DBDF_ERR_IO (`path` is a directory, or the temporary
 * file or the device cannot be created or opened); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_writer_open_file(const char *path, dbdf_writer_t **out);

/** Write to a growable memory buffer; see dbdf_writer_memory(). Returns DBDF_OK, DBDF_ERR_INVALID_ARGUMENT
 *  (out NULL) or DBDF_ERR_NOMEM. */
DBDF_API dbdf_status_t dbdf_writer_open_memory(dbdf_writer_t **out);

/** Write callback: consume `nbytes` bytes at `data` (valid during the call only); return 0 on success, anything
 *  else on failure (the writer then fails with DBDF_ERR_SINK, with the message the callback gave to
 *  dbdf_set_callback_error() if it did). */
typedef int (*dbdf_write_fn)(void *context, const void *data, size_t nbytes);

/**
 * Write through `write` (called with `context`, in order, with pieces of the output). Nothing is buffered past
 * dbdf_writer_finish().
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (write or out NULL); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_writer_open_callback(dbdf_write_fn write, void *context, dbdf_writer_t **out);

/** Free a writer. Without a successful dbdf_writer_finish() everything is discarded: a file writer removes its
 *  temporary file and leaves any existing file untouched. NULL is ignored. */
DBDF_API void dbdf_writer_free(dbdf_writer_t *writer);

/**
 * Write the header of a matrix: `data_type` DBDF_DATA_DENSE or DBDF_DATA_CSR, its value type and shape. A writer
 * in the daphne dialect also takes DBDF_DATA_SCALAR with rows = cols = 1: a single value, given afterwards as a
 * 1 x 1 matrix (section 5).
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL writer, frame data type, unknown or NONE value type,
 * DBDF_DATA_SCALAR in the spec dialect, which has no scalar, or a scalar that is not 1 x 1; in the daphne dialect
 * see section 5); DBDF_ERR_CALL_ORDER (already begun); DBDF_ERR_IO or DBDF_ERR_SINK; DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_writer_begin_matrix(dbdf_writer_t *writer, dbdf_data_type_t data_type,
                                                dbdf_value_type_t value_type, uint64_t rows, uint64_t cols);

/**
 * Write the header of a frame with `rows` rows and `cols` columns: column_types[cols] and labels[cols].
 * label_lengths[cols] gives each label's byte length; when it is NULL the labels are NUL-terminated.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument with cols > 0, unknown or NONE value type, a label
 * longer than 65535 bytes, duplicate labels: rule 16; in the daphne dialect a label longer than 32 bytes, which
 * DAPHNE's own reader cannot take, docs/daphne-dialect.md); DBDF_ERR_CALL_ORDER; DBDF_ERR_IO or DBDF_ERR_SINK;
 * DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_writer_begin_frame(dbdf_writer_t *writer, uint64_t rows, uint64_t cols,
                                               const dbdf_value_type_t *column_types, const char *const *labels,
                                               const size_t *label_lengths);

/**
 * Add the block at (row, col) of shape rows x cols from dense row-major values of `value_type`: element (i, j)
 * is values[i * row_stride + j] (`row_stride` in elements, 0 = cols). `count` is the number of elements at
 * `values`, which need not be aligned for `value_type`. Every value must be exactly representable in the object's
 * (column's) value type (rule 8).
 * The block is encoded as `options` say (NULL: automatic) and written at once. In an object with no cells (0 rows
 * or 0 columns) a block without cells is accepted and writes nothing (rule 4).
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, unknown value type, stride < cols, count too small,
 * block outside the object, overlapping an earlier block); DBDF_ERR_CALL_ORDER (not begun, or finished; in the
 * daphne dialect also a row band that skips rows, section 5); DBDF_ERR_RANGE (rule 8); DBDF_ERR_IO or
 * DBDF_ERR_SINK; DBDF_ERR_NOMEM. After an error other than DBDF_ERR_INVALID_ARGUMENT, DBDF_ERR_CALL_ORDER or
 * DBDF_ERR_RANGE the writer is failed: only free remains.
 */
DBDF_API dbdf_status_t dbdf_writer_add_dense(dbdf_writer_t *writer, uint64_t row, uint64_t col, uint32_t rows,
                                             uint32_t cols, dbdf_value_type_t value_type, const void *values,
                                             size_t count, uint64_t row_stride, const dbdf_write_options_t *options);

/**
 * Add a block from block-local CSR arrays: row_offsets[0..rows] (rows + 1 entries, row_offsets[0] == 0,
 * non-decreasing), col_indices[k] < cols strictly increasing within each row, values[k], for
 * k < entries == row_offsets[rows]. Explicit zeros are kept unless automatic encoding drops them. row_offsets is
 * required; col_indices and values may be NULL only when entries is 0. No array need be aligned for its type.
 * Returns as dbdf_writer_add_dense (malformed arrays are DBDF_ERR_INVALID_ARGUMENT).
 */
DBDF_API dbdf_status_t dbdf_writer_add_csr(dbdf_writer_t *writer, uint64_t row, uint64_t col, uint32_t rows,
                                           uint32_t cols, dbdf_value_type_t value_type, const uint64_t *row_offsets,
                                           const uint32_t *col_indices, const void *values, uint64_t entries,
                                           const dbdf_write_options_t *options);

/**
 * Add a block from block-local COO triplets in strictly increasing (row, column) order, `entries` of each; the
 * three arrays may be NULL only when entries is 0. No array need be aligned for its type.
 * Returns as dbdf_writer_add_csr.
 */
DBDF_API dbdf_status_t dbdf_writer_add_coo(dbdf_writer_t *writer, uint64_t row, uint64_t col, uint32_t rows,
                                           uint32_t cols, dbdf_value_type_t value_type, const uint32_t *row_indices,
                                           const uint32_t *col_indices, const void *values, uint64_t entries,
                                           const dbdf_write_options_t *options);

/** Add an empty (all-zero) block. Returns as dbdf_writer_add_dense. */
DBDF_API dbdf_status_t dbdf_writer_add_empty(dbdf_writer_t *writer, uint64_t row, uint64_t col, uint32_t rows,
                                             uint32_t cols);

/**
 * Write the whole matrix from dense row-major values (rows * row_stride elements, `count` available), tiled into
 * blocks of options->block_rows x options->block_cols (0: automatic, blocks of a few MiB), each encoded as
 * options say. `values` need not be aligned for `value_type` (misaligned values are encoded block by block on the
 * calling thread). Only valid right after dbdf_writer_begin_matrix(); dbdf_writer_finish() is still needed.
 * Returns as dbdf_writer_add_dense, and DBDF_ERR_CALL_ORDER when a block has already been added.
 */
DBDF_API dbdf_status_t dbdf_writer_write_dense(dbdf_writer_t *writer, dbdf_value_type_t value_type, const void *values,
                                               size_t count, uint64_t row_stride, const dbdf_write_options_t *options);

/**
 * Write the whole matrix from object-wide CSR arrays (row_offsets[0..rows], col_indices[k] < cols strictly
 * increasing within each row, values), tiled as dbdf_writer_write_dense does. The arrays follow the rules of
 * dbdf_writer_add_csr(), and no array need be aligned for its type. Only valid right after
 * dbdf_writer_begin_matrix().
 * Returns as dbdf_writer_add_csr, and DBDF_ERR_CALL_ORDER when a block has already been added.
 */
DBDF_API dbdf_status_t dbdf_writer_write_csr(dbdf_writer_t *writer, dbdf_value_type_t value_type,
                                             const uint64_t *row_offsets, const uint64_t *col_indices,
                                             const void *values, uint64_t entries, const dbdf_write_options_t *options);

/**
 * Write frame column `column` from `count` >= rows values of `value_type`, as one block per row range of
 * options->block_rows rows (0: automatic); `values` need not be aligned for `value_type`. Every value must be
 * exactly representable in the column's type.
 * Returns as dbdf_writer_add_dense.
 */
DBDF_API dbdf_status_t dbdf_writer_write_column(dbdf_writer_t *writer, uint64_t column, dbdf_value_type_t value_type,
                                                const void *values, size_t count, const dbdf_write_options_t *options);

/**
 * Finish the object: check that the blocks cover every cell (rule 1), flush, and for a file writer move the
 * temporary file over the target in one atomic step (synced to the disk first only with the `durable` writer
 * option; see dbdf_writer_open_file(), which also says how devices, FIFOs and symbolic links are written).
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (writer NULL); DBDF_ERR_CALL_ORDER (not begun, already finished,
 * failed earlier); DBDF_ERR_FORMAT (cells not covered; the writer stays open so blocks can still be added);
 * DBDF_ERR_IO or DBDF_ERR_SINK (the writer is then failed: only free remains); DBDF_ERR_NOMEM (for instance, a
 * memory writer's buffer cannot grow for the last bytes).
 */
DBDF_API dbdf_status_t dbdf_writer_finish(dbdf_writer_t *writer);

/** Number of bytes written so far (header and blocks). Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT. */
DBDF_API dbdf_status_t dbdf_writer_bytes_written(const dbdf_writer_t *writer, uint64_t *out);

/**
 * Borrow the bytes of a finished memory writer. Valid until the writer is freed.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument); DBDF_ERR_CALL_ORDER (not a memory writer, or
 * not finished).
 */
DBDF_API dbdf_status_t dbdf_writer_memory(const dbdf_writer_t *writer, const void **out_data, size_t *out_nbytes);

/**
 * Copy the bytes of a finished memory writer into out[0..capacity). *out_nbytes receives the size (also when
 * the buffer is too small).
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT; DBDF_ERR_CALL_ORDER; DBDF_ERR_BUFFER_TOO_SMALL.
 */
DBDF_API dbdf_status_t dbdf_writer_copy_memory(const dbdf_writer_t *writer, void *out, size_t capacity,
                                               size_t *out_nbytes);

/* ============================================================================================================
 * 5. Dialects
 *
 * DAPHNE's own runtime does not write what the spec says: it numbers value types differently, stores CSR blocks
 * as three arrays with 64-bit indices, writes frames without a block header and with unrecoverable labels, and
 * has a scalar form. That layout is the daphne dialect (docs/daphne-dialect.md). It is chosen explicitly, when a
 * reader or writer is opened; nothing ever guesses it, and the spec dialect (the default of every function
 * above) never accepts it.
 *
 * Reading the daphne dialect presents the file as blocks like any spec file, so every reading function of
 * section 3 works unchanged:
 * - dense and CSR matrices of the eight numeric types (DAPHNE codes 0..7), 0 x N and 0 x 0 included: one block
 *   at (0, 0) covering the object (a dense matrix with a zero dimension: a zero-area block). Dimensions of 2^32
 *   or more are refused (DBDF_ERR_UNSUPPORTED): the block header holds them as uint32 casts.
 * - frames: one dense block of rows x 1 per column (and per 2^32 - 1 rows), whose values lie a frame row apart
 *   in the file (see dbdf_reader_block_payload_layout()); its dbdf_block_info_t.offset is that of its first
 *   value and encoded_bytes counts its own values' bytes (rows * value size), so the blocks add up to the body. The labels are not in the file (DAPHNE writes memory
 *   bytes instead of the text): they read as "col_0", "col_1", ..., as DAPHNE's own reader names them, and
 *   dbdf_reader_labels_recoverable() says 0.
 * - scalars (DBDF_DATA_SCALAR): one 1 x 1 dense block.
 * - string data (DAPHNE code 8) is refused with DBDF_ERR_UNSUPPORTED: the runtime stores raw in-memory
 *   std::string objects, so the text cannot be recovered. A frame with a string column is refused with
 *   DBDF_ERR_TRUNCATED: the runtime's writer stops at the first string value, leaving the file cut short.
 * Strictness is the spec dialect's: codes, block header, CSR offsets and column indices (in range), and the
 * exact file size are all checked, and nothing may follow the single block. The runtime can store a CSR row's
 * column indices out of order: they are read in column order; a column stored twice in a row is refused
 * (DBDF_ERR_FORMAT). Problems of the body (after the
 * header) are reported, as in the spec dialect, by the first call that needs the blocks (next_block, the index,
 * the whole-object reads, validate) with the statuses listed there, plus DBDF_ERR_UNSUPPORTED for a matrix
 * dimension of 2^32 or more.
 *
 * Writing the daphne dialect produces the runtime's bytes exactly: one block covering the object, in the
 * object's value type (no narrowing; a dense matrix is always a dense block, even all zeros; a CSR matrix always
 * a CSR block, even without entries). Hence:
 * - a matrix takes dbdf_writer_write_dense() or dbdf_writer_write_csr(), or one dbdf_writer_add_*() call whose
 *   block covers the whole matrix. A dense matrix may also take that block as full-width row bands, in order:
 *   dbdf_writer_add_dense() (or _add_csr(), _add_coo(), _add_empty()) at (row, 0) of shape rows x cols, where
 *   `row` is the number of rows written so far and `cols` the matrix's. Each band goes to the output as it comes,
 *   so the matrix is never needed whole in memory, and the bytes are those of one covering call. A band that is
 *   not full-width or overlaps rows already written is DBDF_ERR_INVALID_ARGUMENT, one that skips rows
 *   DBDF_ERR_CALL_ORDER (the writer stays usable after either), and dbdf_writer_finish() before every row is
 *   written DBDF_ERR_FORMAT (the writer stays open for the remaining bands). A CSR matrix cannot be written in
 *   pieces, as its row offsets for every row come before its first column index: any other block than one
 *   covering it is DBDF_ERR_INVALID_ARGUMENT. A matrix with a zero dimension needs no call. The write options'
 *   encoding may be DBDF_ENCODING_AUTO, DBDF_ENCODING_AS_GIVEN, or the object's own layout (DBDF_ENCODING_DENSE
 *   for dense, DBDF_ENCODING_CSR for CSR matrices); block_rows and block_cols are ignored. Values of another
 *   type are converted exactly to the object's (DBDF_ERR_RANGE if one does not fit; the writer stays usable).
 * - a frame takes each column once, by dbdf_writer_write_column() or dbdf_writer_add_dense() of a whole
 *   column; the columns are kept in memory until dbdf_writer_finish() writes the rows interleaved. Labels are
 *   written as their text (DAPHNE's reader skips them).
 * - a scalar: dbdf_writer_begin_matrix(writer, DBDF_DATA_SCALAR, value_type, 1, 1), then its value as a 1 x 1
 *   dense matrix (dbdf_writer_write_dense() of one value, or one dbdf_writer_add_*() call of a 1 x 1 block),
 *   then dbdf_writer_finish(). The output is what DAPHNE's runtime serializes for a single value: the 18-byte
 *   header with data type 4 and #r/#c zero (the runtime leaves them unassigned; its files hold zeros), the value
 *   type and the value, 19 + value size bytes. Any of the eight numeric types.
 * - value types without a DAPHNE code (DBDF_VALUE_U16, DBDF_VALUE_I16) and matrices with a dimension of 2^32 or
 *   more are refused by begin with DBDF_ERR_INVALID_ARGUMENT.
 * - a file writer also writes DaphneDSL's "<path>.meta" JSON sidecar (dbdf_writer_options_t.write_meta),
 *   as DAPHNE writes it: {"numCols":4,"numRows":3,"valueType":"f64"} for dense matrices,
 *   {"numCols":5,"numNonZeros":7,"numRows":6,"valueType":"f64"} for CSR matrices, and
 *   {"numCols":2,"numRows":4,"schema":[{"label":"id","valueType":"si64"},...]} for frames. Value type names:
 *   si8 si32 si64 ui8 ui32 ui64 f32 f64. Scalars get no sidecar: the runtime only serializes them into
 *   buffers and has no file writer for them, so it never writes one and there is no form to follow.
 * ========================================================================================================== */

/** Which byte layout a file follows. */
typedef enum dbdf_dialect {
    DBDF_DIALECT_SPEC = 0,  /**< the published format (the default everywhere) */
    DBDF_DIALECT_DAPHNE = 1 /**< the layout DAPHNE's runtime writes */
} dbdf_dialect_t;

/** Name of a dialect ("spec", "daphne"); "unknown" for other values. Static storage; never NULL. */
DBDF_API const char *dbdf_dialect_name(dbdf_dialect_t dialect);

/**
 * Parse a dialect name as printed by dbdf_dialect_name() ("spec" or "daphne").
 * Returns DBDF_OK, or DBDF_ERR_INVALID_ARGUMENT (name NULL or unknown, out NULL).
 */
DBDF_API dbdf_status_t dbdf_dialect_from_name(const char *name, dbdf_dialect_t *out);

/** Options for opening a reader. Initialise with DBDF_OPEN_OPTIONS_INIT or dbdf_open_options_init(); NULL
 *  wherever options are taken means the defaults. */
typedef struct dbdf_open_options {
    size_t struct_size;     /**< sizeof(dbdf_open_options_t) of the caller's header */
    dbdf_dialect_t dialect; /**< default DBDF_DIALECT_SPEC */
    /** Threads that whole-object reads (dbdf_reader_read_dense(), _read_dense_window(), _read_column()) and the
     *  pulls of an Arrow stream's batches (dbdf_reader_export_arrow()) decode on, the calling thread included; they
     *  are started for the call and joined before it returns. 0 (the default): one per processor the process may
     *  run on (on Linux, its affinity mask: taskset, a container's cpuset), at most 8, for reads of 16 MiB or
     *  more, one for smaller reads. 1: only the calling thread. A count above max(64, the processor count)
     *  starts only that many: every thread holds buffers, so the count cannot grow with the object.
     *  Block-by-block decoding always runs on the calling thread alone. */
    unsigned threads;
    /** How a file is read (ignored when opening memory). 0 (the default): with positioned reads, into buffers of
     *  the reader or straight into the caller's output; a file that shrinks while it is open gives DBDF_ERR_IO.
     *  1: through a read-only memory mapping, decoded in place, which spares dbdf_reader_block_payload() a copy.
     *  RISK: if any process shrinks the file while it is mapped, the next access to the lost pages raises SIGBUS,
     *  which ends the calling process (and a JVM, .NET or Python host with it); the library cannot turn it into an
     *  error. Set it only for files that nothing truncates or rewrites in place while the reader is open. Other
     *  values: DBDF_ERR_INVALID_ARGUMENT. Callers compiled before this field existed get 0. */
    int memory_map;
} dbdf_open_options_t;

#define DBDF_OPEN_OPTIONS_INIT \
    { sizeof(dbdf_open_options_t), DBDF_DIALECT_SPEC, 0u, 0 }

/** Set *options to the defaults (what DBDF_OPEN_OPTIONS_INIT gives). NULL is ignored. */
DBDF_API void dbdf_open_options_init(dbdf_open_options_t *options);

/**
 * dbdf_reader_open_file() reading the dialect `options` names (NULL: the spec dialect).
 * In the daphne dialect the body's single block record and the body's size are checked when opening, so a file
 * whose body is cut off or followed by other bytes is refused here (DBDF_ERR_TRUNCATED, DBDF_ERR_FORMAT), also
 * when its object has no cells; the values are checked when read (or by dbdf_reader_validate()).
 * Returns as dbdf_reader_open_file(), and DBDF_ERR_INVALID_ARGUMENT for options whose struct_size is not set or
 * whose dialect or memory_map is unknown; in the daphne dialect also DBDF_ERR_UNSUPPORTED (string data).
 */
DBDF_API dbdf_status_t dbdf_reader_open_file_with_options(const char *path, const dbdf_open_options_t *options,
                                                          dbdf_reader_t **out);

/**
 * dbdf_reader_open_memory() reading the dialect `options` names (NULL: the spec dialect). The memory rule of
 * dbdf_reader_open_memory() applies. Returns as dbdf_reader_open_file_with_options().
 */
DBDF_API dbdf_status_t dbdf_reader_open_memory_with_options(const void *data, size_t nbytes,
                                                            const dbdf_open_options_t *options, dbdf_reader_t **out);

/* Byte sources: reading from anywhere (remote storage, another container, a socket's bytes) through a read-at
 * callback; docs/byte-sources.md. The write side is dbdf_writer_open_callback(). */

/** Read-at callback of a byte source: copy bytes of the source starting at `offset` into `destination`, at most
 *  `length` (> 0). Returns the number of bytes copied: `length`, or fewer (a short read: the reader asks again for
 *  the rest), 0 only at the end of the source (any offset at or past it); or -1 on failure (the reader call fails
 *  with DBDF_ERR_IO and the message given to dbdf_set_callback_error() during the callback, if any). Called only
 *  during a dbdf_reader_* call on that reader: from the thread inside that call, never concurrently; or, when the
 *  source's flags hold DBDF_SOURCE_CONCURRENT_READS, also from the library's decode threads, several at once. */
typedef int64_t (*dbdf_read_at_fn)(void *context, uint64_t offset, void *destination, size_t length);

/** dbdf_source_t.size of a source whose size is not known: the reader finds it by reading until read_at returns 0
 *  (about 2 log2(size) reads of one byte, doubling then bisecting the offset; never the whole source). */
#define DBDF_SOURCE_SIZE_UNKNOWN UINT64_MAX

/** dbdf_source_t.flags: read_at may be called from several threads at once (it keeps no unguarded state, such as
 *  a shared file position, and its context is safe to use from any thread). Whole-object reads
 *  (dbdf_reader_read_dense(), dbdf_reader_read_dense_window(), dbdf_reader_read_column(), an Arrow stream's
 *  get_next) then fetch and decode payloads on the decode threads that dbdf_open_options_t.threads allows, as they
 *  do for a file; each of those threads calls read_at (and, when it fails, dbdf_set_callback_error()) on itself,
 *  only while the call that started it runs, and is done before that call returns. Without the flag read_at runs
 *  only on the calling thread. */
#define DBDF_SOURCE_CONCURRENT_READS 1u

/** A random-access byte source. Initialise with DBDF_SOURCE_INIT. Fields are only ever appended: a caller built
 *  against an older header (a smaller struct_size, down to the 0.2.0 struct that ends with `release`) gets the
 *  defaults of the fields it does not know. */
typedef struct dbdf_source {
    size_t struct_size;             /**< sizeof(dbdf_source_t) of the caller's header */
    dbdf_read_at_fn read_at;        /**< required */
    void *context;                  /**< passed to read_at and release */
    uint64_t size;                  /**< bytes in the source, or DBDF_SOURCE_SIZE_UNKNOWN */
    size_t read_ahead;              /**< bytes of the read-ahead window that coalesces small reads; 0: 64 KiB; at
                                         most 64 MiB */
    void (*release)(void *context); /**< called exactly once when the reader no longer needs the source; may be NULL */
    uint32_t flags;                 /**< DBDF_SOURCE_CONCURRENT_READS or 0 (the default: calling thread only) */
} dbdf_source_t;

#define DBDF_SOURCE_INIT \
    { sizeof(dbdf_source_t), NULL, NULL, DBDF_SOURCE_SIZE_UNKNOWN, 0, NULL, 0 }

/**
 * Open a reader over `source` (copied; the struct need not outlive the call), in the dialect `options` names
 * (NULL: defaults; memory_map must be 0). The reader fetches the header and the block headers it needs for its
 * index, then only the payloads of blocks it decodes; never the whole source at once. Reads smaller than the
 * read-ahead window go through it, filled only as far as the bytes already asked for pay for it: the bytes fetched
 * never exceed the bytes asked for plus one window. Reads as large as the window go straight to the destination.
 * Whole-object reads (dbdf_reader_read_dense() and the like) decode on the calling thread alone, whatever
 * dbdf_open_options_t.threads says, since read_at is called only from that thread; with
 * DBDF_SOURCE_CONCURRENT_READS in flags they decode on the threads `threads` allows, each fetching its payloads.
 * A failing source (read_at returns -1, 0 before the declared size, or more than `length`) makes the call that
 * needed the bytes fail with DBDF_ERR_IO and a message naming the byte offset; the reader stays where it was, and
 * later calls work or fail the same way.
 * Ownership: whenever source and source->read_at are not NULL, source->release (if set) is called exactly once:
 * before this function returns if it fails, otherwise by dbdf_reader_free().
 * Returns as dbdf_reader_open_file_with_options(); DBDF_ERR_INVALID_ARGUMENT also for source or read_at NULL, a
 * struct_size smaller than the 0.2.0 dbdf_source_t (which ends with `release`), flags other than
 * DBDF_SOURCE_CONCURRENT_READS, a read_ahead above 64 MiB or memory_map set; DBDF_ERR_IO for a failing or short
 * source. A failure of read_at on a decode thread is reported by the call that started it, as on the calling
 * thread.
 */
DBDF_API dbdf_status_t dbdf_reader_open_source(const dbdf_source_t *source, const dbdf_open_options_t *options,
                                               dbdf_reader_t **out);

/** Called by a read or write callback that is about to return failure: the message (copied; NULL clears it) that
 *  the failing dbdf call reports through dbdf_last_error_message(). Per thread. Lets a write callback say "stop"
 *  with a reason: a non-zero return of dbdf_write_fn then fails the writer with DBDF_ERR_SINK and this message.
 *  A message set outside a callback, or by a callback that then succeeds, is dropped by the next callback call. */
DBDF_API void dbdf_set_callback_error(const char *message);

/** The dialect the reader was opened with, in *out. Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (NULL argument). */
DBDF_API dbdf_status_t dbdf_reader_dialect(const dbdf_reader_t *reader, dbdf_dialect_t *out);

/**
 * Whether the labels dbdf_reader_column_label() returns are the file's: *out is 1, or 0 when they could not be
 * recovered and are defaults ("col_0", "col_1", ...: frames in the daphne dialect). 1 for matrices.
 * Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (NULL argument).
 */
DBDF_API dbdf_status_t dbdf_reader_labels_recoverable(const dbdf_reader_t *reader, int *out);

/** How the bytes of a block's payload (dbdf_reader_block_payload()) are arranged. */
typedef enum dbdf_payload_layout {
    /** As the spec describes the block type (see dbdf_reader_block_payload()). Every block of the spec dialect,
     *  and dense blocks of daphne matrices and scalars. */
    DBDF_PAYLOAD_SPEC = 0,
    /** Daphne CSR: rowOffsets (uint64 x (rows + 1)), then colIdxs (uint64 x stored_values), then the values
     *  (stored_values of the block's value type); all little-endian. */
    DBDF_PAYLOAD_DAPHNE_CSR = 1,
    /** One column of a daphne frame: `rows` values of the block's value type, each `value_stride` bytes after
     *  the previous one (the payload spans (rows - 1) * value_stride + value size bytes, holding other
     *  columns' values in between). */
    DBDF_PAYLOAD_STRIDED_COLUMN = 2
} dbdf_payload_layout_t;

/**
 * The payload layout of the current block in *out_layout and, for DBDF_PAYLOAD_STRIDED_COLUMN, the distance in
 * bytes between consecutive values in *out_value_stride (0 for the other layouts; may be NULL). The decoding
 * functions handle every layout; this matters only to callers of dbdf_reader_block_payload().
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (reader or out_layout NULL); DBDF_ERR_CALL_ORDER (no current block).
 */
DBDF_API dbdf_status_t dbdf_reader_block_payload_layout(const dbdf_reader_t *reader, dbdf_payload_layout_t *out_layout,
                                                        uint64_t *out_value_stride);

/** Options for opening a writer. Initialise with DBDF_WRITER_OPTIONS_INIT or dbdf_writer_options_init(); NULL
 *  wherever options are taken means the defaults. */
typedef struct dbdf_writer_options {
    size_t struct_size;     /**< sizeof(dbdf_writer_options_t) of the caller's header */
    dbdf_dialect_t dialect; /**< default DBDF_DIALECT_SPEC */
    /** Daphne dialect, file writers only: non-zero (the default) writes "<path>.meta" for DaphneDSL's read
     *  kernel. Its file is opened with the writer and committed with the data by dbdf_writer_finish(): neither
     *  file changes until both are complete, then the data is renamed into place and the sidecar right after
     *  it. Ignored in the spec dialect, by memory and callback writers, and when `path` is written through (a
     *  device, a FIFO, /dev/stdout): no sidecar is written then. */
    int write_meta;
    /** File writers only: non-zero makes dbdf_writer_finish() sync the file's data to the disk before moving it
     *  over the target, and the directory after, so the new file survives a system crash (power loss) once
     *  finish returns; it costs a flush of the data to the disk. 0 (the default): the replacement is atomic but
     *  not synced (see dbdf_writer_open_file()). Also applies to the .meta sidecar. */
    int durable;
    /** Threads dbdf_writer_write_dense() uses, the calling thread included; the others are started for the call
     *  and joined before it returns. Every one of them analyses the values of the next block not yet taken (the
     *  calling thread whenever the next block to write is not analysed yet), at most as many blocks ahead of the
     *  writing as there are threads, while the calling thread encodes and writes the blocks in order. 0 (the
     *  default): one per processor the process may run on (on Linux, its affinity mask), at most four, for
     *  matrices of 16 MiB or more; one otherwise. 1: only the calling thread. A count above max(64, the processor
     *  count) starts only that many: every thread holds a tile's facts, so the count cannot grow with the matrix.
     *  The bytes written are the same whatever the count; other calls always run on the calling thread. */
    unsigned threads;
} dbdf_writer_options_t;

#define DBDF_WRITER_OPTIONS_INIT \
    { sizeof(dbdf_writer_options_t), DBDF_DIALECT_SPEC, 1, 0, 0u }

/** Set *options to the defaults (what DBDF_WRITER_OPTIONS_INIT gives). NULL is ignored. */
DBDF_API void dbdf_writer_options_init(dbdf_writer_options_t *options);

/**
 * dbdf_writer_open_file() writing the dialect `options` names (NULL: the defaults). In the daphne dialect with
 * write_meta, "<path>.meta" is opened too (DBDF_ERR_IO here when it cannot be, such as a directory of that name)
 * and dbdf_writer_finish() commits both files together: both are complete before either target changes, then the
 * data file is renamed into place and the sidecar right after it. When finish fails with DBDF_ERR_IO neither target
 * has changed, unless the sidecar's rename itself fails right after the data's (docs/outputs.md).
 * Returns as dbdf_writer_open_file(), and DBDF_ERR_INVALID_ARGUMENT for options whose struct_size is not set or
 * whose dialect is unknown.
 */
DBDF_API dbdf_status_t dbdf_writer_open_file_with_options(const char *path, const dbdf_writer_options_t *options,
                                                          dbdf_writer_t **out);

/** dbdf_writer_open_memory() writing the dialect `options` names (NULL: the defaults).
 *  Returns as dbdf_writer_open_file_with_options() (never DBDF_ERR_IO). */
DBDF_API dbdf_status_t dbdf_writer_open_memory_with_options(const dbdf_writer_options_t *options, dbdf_writer_t **out);

/** dbdf_writer_open_callback() writing the dialect `options` names (NULL: the defaults).
 *  Returns as dbdf_writer_open_file_with_options() (never DBDF_ERR_IO). */
DBDF_API dbdf_status_t dbdf_writer_open_callback_with_options(dbdf_write_fn write, void *context,
                                                              const dbdf_writer_options_t *options,
                                                              dbdf_writer_t **out);

/** The dialect the writer was opened with, in *out. Returns DBDF_OK or DBDF_ERR_INVALID_ARGUMENT (NULL argument). */
DBDF_API dbdf_status_t dbdf_writer_dialect(const dbdf_writer_t *writer, dbdf_dialect_t *out);

/**
 * The block shape a writer of `dialect` chooses for an object of `data_type` holding rows x cols values of
 * `value_type` (for a frame: the type of the column at hand), with `options` (NULL: the defaults): *out_rows x
 * *out_cols. Programs that add blocks one at a time use it to cut an object as the writer's own helpers would:
 * - spec dialect: the tiles of dbdf_writer_write_dense() and dbdf_writer_write_csr() for a matrix (block_rows and
 *   block_cols of `options` where they are not 0, blocks of about 4 MiB of values otherwise); for a frame, the
 *   blocks of dbdf_writer_write_column(): options->block_rows rows (0: automatic), one column wide.
 * - daphne dialect, one block per object: a dense matrix in full-width row bands of about 4 MiB (at least one row),
 *   the pieces in which a writer takes it without holding it whole (section 5); a CSR matrix and a scalar whole; a
 *   frame's column whole (rows x 1). The block sizes of `options` do not apply.
 * Blocks at the right and bottom edges are cut to the object. An object without cells (rows or cols 0) has no
 * blocks: 0 x 0.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (out_rows or out_cols NULL; unknown dialect or data type; value type
 * not one of DBDF_VALUE_U8..DBDF_VALUE_F64; options whose struct_size is not set or whose encoding is unknown;
 * DBDF_DATA_SCALAR in the spec dialect or not 1 x 1; in the daphne dialect, a dimension of 2^32 or more).
 */
DBDF_API dbdf_status_t dbdf_writer_tile_shape(dbdf_dialect_t dialect, dbdf_data_type_t data_type,
                                              dbdf_value_type_t value_type, uint64_t rows, uint64_t cols,
                                              const dbdf_write_options_t *options, uint32_t *out_rows,
                                              uint32_t *out_cols);

/* ============================================================================================================
 * 6. Output files
 *
 * Programs that write other formats next to .dbdf files (the dbdf tool's .npy, .mtx and .csv outputs) can have
 * their files replaced by the same rules as dbdf_writer_open_file(): atomic replacement of regular files and new
 * paths, symbolic links followed, devices and FIFOs written through, permissions kept, temporary files that do
 * not outlive the process. Programs that handle SIGINT or SIGTERM call dbdf_remove_temporary_files() from their
 * handler; the library installs no signal handler.
 * ========================================================================================================== */

/** A file being written (opaque). */
typedef struct dbdf_file_output dbdf_file_output_t;

/**
 * Open `path` for writing, replaced as dbdf_writer_open_file() says: dbdf_file_output_commit() puts the bytes in
 * place (or, for a device, FIFO or descriptor, they go out as they are written). `durable` non-zero syncs the
 * file's data before it replaces the target and the directory after, as the `durable` writer option does. Free
 * the handle with dbdf_file_output_free(); without a successful commit that removes the temporary file and
 * leaves an existing file untouched.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (path or out NULL); DBDF_ERR_IO (`path` is a directory, or the file
 * cannot be created or opened); DBDF_ERR_NOMEM.
 */
DBDF_API dbdf_status_t dbdf_file_output_open(const char *path, int durable, dbdf_file_output_t **out);

/**
 * Append `nbytes` bytes from `data` (read during the call only; may be NULL when nbytes is 0). Each call reaches
 * the kernel: callers writing many small pieces buffer them first.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (output NULL, or data NULL with nbytes > 0); DBDF_ERR_CALL_ORDER
 * (after dbdf_file_output_commit()); DBDF_ERR_IO (the write failed, such as a full disk: the temporary file is
 * removed by free).
 */
DBDF_API dbdf_status_t dbdf_file_output_write(dbdf_file_output_t *output, const void *data, size_t nbytes);

/**
 * Finish the file: move it over the target in one atomic step (synced first when durable), or close the device
 * it was written through. Called once; afterwards only dbdf_file_output_free() remains, whatever it returned.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (output NULL); DBDF_ERR_CALL_ORDER (called again); DBDF_ERR_IO
 * (syncing, closing or renaming failed, or the temporary file was removed by dbdf_remove_temporary_files(); the
 * target is then as it was).
 */
DBDF_API dbdf_status_t dbdf_file_output_commit(dbdf_file_output_t *output);

/** Free an output: without a successful commit, its temporary file is removed and an existing file at its path
 *  is left as it was. NULL is ignored. */
DBDF_API void dbdf_file_output_free(dbdf_file_output_t *output);

/**
 * Remove the named temporary files of every file writer and file output of this process that has not finished,
 * so that a program ended by a signal leaves none behind. Async-signal-safe: call it from a SIGINT or SIGTERM
 * handler, then let the signal end the process (restore the default action and raise it again). Writers and
 * outputs whose temporary file was removed fail to finish with DBDF_ERR_IO. Unnamed temporary files need no
 * removal: they vanish with the process, whatever ends it. Up to 64 temporary files at once are tracked; beyond
 * that, a leftover is removed by the next write to its target once its process is gone. Neither clears nor sets
 * the last error.
 */
DBDF_API void dbdf_remove_temporary_files(void);

/* ============================================================================================================
 * 7. Arrow C data interface
 *
 * A reader exports its object as an ArrowArrayStream of Arrow's C stream interface, which pyarrow, polars, DuckDB,
 * Arrow Java and arrow-rs import without copying (docs/arrow.md has the mapping tables and the ownership rules):
 * - a frame: one field per column, named by its label (up to a NUL byte in it), typed by its value type;
 * - a dense matrix: one field per matrix column, "c0", "c1", ...; or, with dense_as_list, one field "values", a
 *   fixed-size list ("+w:cols") of each row's values;
 * - a CSR matrix: the fields "row" and "col" (uint64, object-wide indices) and "value", one entry per stored
 *   non-zero (rule 14) in row-major order; or, with csr_as_arrays, a band's CSR arrays (row offsets, columns,
 *   values) as one-row large lists, one batch per row band.
 * Value types map one to one: u8..u64 to Arrow's uint8..uint64 ("C", "S", "I", "L"), i8..i64 to int8..int64
 * ("c", "s", "i", "l"), f32 and f64 to float32 and float64 ("f", "g"). No field is nullable. The top-level
 * schema is a struct ("+s") and each batch a struct array, as the stream interface requires.
 * One batch per row band of blocks (the narrowest run of rows no block crosses), decoded when the consumer pulls
 * it (get_next), never all at once. A band of a frame or dense matrix holding more than 64 MiB of values (a tall
 * block, or an empty block, which costs the file nothing) comes in slices of whole rows of at most 64 MiB (at least
 * one row); a CSR batch holds the band's stored entries, and its length is their number. The stream's get_schema
 * reads only the header, and the first get_next builds
 * the block index. A failure while pulling makes get_next return EINVAL (the file breaks the format), EIO (it
 * cannot be read) or ENOMEM, and get_last_error() gives dbdf's message (rule and byte offset included).
 * The structs are Arrow's own, defined here under Arrow's guard macros so that this header and Arrow's (abi.h,
 * nanoarrow) can be included together.
 * ========================================================================================================== */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/** Options of dbdf_reader_export_arrow(). Initialise with DBDF_ARROW_EXPORT_OPTIONS_INIT or
 *  dbdf_arrow_export_options_init(); NULL means the defaults. */
typedef struct dbdf_arrow_export_options {
    size_t struct_size; /**< sizeof(dbdf_arrow_export_options_t) of the caller's header */
    /** Dense matrices: non-zero gives one fixed-size-list field "values" instead of one field per column. */
    int dense_as_list;
    /** Non-zero: the stream takes the reader over. The caller no longer uses or frees it; it is freed once the
     *  stream and every batch it produced are released, so batches may point into the reader's memory (below).
     *  0 (the default): the stream borrows the reader, which must outlive the stream (not the batches) and must
     *  not be used while the stream is, since pulling a batch moves its block position. */
    int take_reader;
    /** Called exactly once with `release_context` when the stream and every batch it produced have been released
     *  (in whatever order, on whatever thread the consumer releases them), or before dbdf_reader_export_arrow()
     *  returns when it fails. May be NULL. Lets a caller keep memory a reader reads alive as long as batches point
     *  into it. */
    void (*release)(void *release_context);
    void *release_context;
    /** CSR matrices: non-zero gives CSR arrays instead of (row, col, value) triplets: one batch of one row per row
     *  band (or per slice of one, below), whose fields are "row_begin" (uint64, the band's first row),
     *  "row_offsets" (a large list "+L" of uint64: the band's rows + 1 offsets into its entries, from 0), "col"
     *  (a large list of uint64: object-wide column indices) and "value" (a large list of the value type), the
     *  entries row-major, each row's columns increasing. The lists are one-row lists because Arrow's struct arrays
     *  need children of the batch's length. A band whose row offsets would exceed 64 MiB (more than 2^23 - 1
     *  rows) comes in slices of 2^23 - 1 rows. Only read when struct_size covers it; 0 (the default): triplets. */
    int csr_as_arrays;
    /** When not NULL, *released is set to 1 exactly when `release` would be called (after it, when both are
     *  given): once the stream and every batch are released, or before dbdf_reader_export_arrow() returns when it
     *  fails. The store is atomic; *released must stay valid until then. For a caller that cannot run code on the
     *  consumer's thread at the moment of release (an interpreter whose consumer releases the stream while an
     *  exception is pending) and polls it instead. Only read when struct_size covers it; NULL (the default): none. */
    int *released;
} dbdf_arrow_export_options_t;

#define DBDF_ARROW_EXPORT_OPTIONS_INIT \
    { sizeof(dbdf_arrow_export_options_t), 0, 0, NULL, NULL, 0, NULL }

/** Set *options to the defaults (what DBDF_ARROW_EXPORT_OPTIONS_INIT gives). NULL is ignored. */
DBDF_API void dbdf_arrow_export_options_init(dbdf_arrow_export_options_t *options);

/**
 * Fill *out with an ArrowArrayStream over the reader's object (the mapping above). Reads nothing but what the
 * header already gave: the blocks are read as batches are pulled. The stream follows Arrow's release protocol:
 * the consumer releases the stream, each batch and each child array of a batch (moved out or not) once, in any
 * order, from any thread, also after the reader's handle is freed.
 * Buffers: a batch's column points into the reader's memory, without a copy, when the stream owns the reader
 * (take_reader), the reader lends memory (dbdf_reader_open_memory(), or a file opened with memory_map), the host
 * is little-endian, and the column's rows of the band are one dense block of the column's value type, aligned to
 * its value size (a frame's one-column blocks, a matrix's one-column blocks; with dense_as_list, a block spanning
 * the band's full width). Every other column is decoded into a buffer the batch owns. Memory given to
 * dbdf_reader_open_memory() must then stay valid until `release` is called (or the last batch is released).
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (reader or out NULL, options whose struct_size is not set);
 * DBDF_ERR_UNSUPPORTED (a frame or dense matrix of more than 2^24 columns: one list item per column, and a row of it
 * must fit a batch; a frame, or a dense matrix without dense_as_list, of more than 2^16 columns: each such field
 * costs a schema field and a child array in every batch, and a dense matrix's width costs its file nothing); on
 * failure the reader stays the caller's.
 */
DBDF_API dbdf_status_t dbdf_reader_export_arrow(dbdf_reader_t *reader, const dbdf_arrow_export_options_t *options,
                                                struct ArrowArrayStream *out);

/** Options of dbdf_writer_import_arrow(). Initialise with DBDF_ARROW_IMPORT_OPTIONS_INIT or
 *  dbdf_arrow_import_options_init(); NULL means the defaults. */
typedef struct dbdf_arrow_import_options {
    size_t struct_size; /**< sizeof(dbdf_arrow_import_options_t) of the caller's header */
    /** Non-zero: write a dense matrix whose columns are the stream's fields, all of one value type. 0 (the
     *  default): a frame with one column per field, labelled by the field's name. */
    int as_matrix;
    /** Non-zero: Arrow booleans ("b") become u8 columns of 0 and 1. 0 (the default): they are refused. */
    int booleans_as_u8;
} dbdf_arrow_import_options_t;

#define DBDF_ARROW_IMPORT_OPTIONS_INIT \
    { sizeof(dbdf_arrow_import_options_t), 0, 0 }

/** Set *options to the defaults (what DBDF_ARROW_IMPORT_OPTIONS_INIT gives). NULL is ignored. */
DBDF_API void dbdf_arrow_import_options_init(dbdf_arrow_import_options_t *options);

/**
 * Write the record batches of `stream` with `writer` (not yet begun): a frame of `rows` rows (or, with
 * as_matrix, a dense matrix), its header from the stream's schema, then each batch's columns as blocks with
 * automatic encoding (frame columns in blocks of the writer's tile rows, matrix rows in full-width bands of about
 * the tile size), pulling the next batch only once the previous one is written and released: at most one batch
 * is held. Arrow's types map back as section 7's table says; `rows` is the number of rows the stream delivers,
 * which the header needs before the first batch. Does not finish the writer: call dbdf_writer_finish() after it.
 * The stream is always released (also on failure); the writer is failed after any failure but an argument error.
 * Returns DBDF_OK; DBDF_ERR_INVALID_ARGUMENT (NULL argument, struct_size not set); DBDF_ERR_CALL_ORDER (writer
 * already begun); DBDF_ERR_UNSUPPORTED (a field whose Arrow type has no value type: strings, binaries, nested,
 * decimals, temporal types, dictionaries, booleans unless asked, float16; with as_matrix, columns of different
 * types; the message names the column and its type); DBDF_ERR_FORMAT (a null value, which the format cannot
 * hold, or a stream that delivers more or fewer rows than `rows`); DBDF_ERR_IO (the stream's get_schema or
 * get_next failed: the message has the stream's own); the errors of dbdf_writer_add_dense().
 */
DBDF_API dbdf_status_t dbdf_writer_import_arrow(dbdf_writer_t *writer, struct ArrowArrayStream *stream, uint64_t rows,
                                                const dbdf_arrow_import_options_t *options);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DBDF_H */
