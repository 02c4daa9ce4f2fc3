/*
 * dbdf.i — the SWIG interface shared by the Java and C# bindings.
 *
 * It wraps only capi/include/dbdf.h. The opaque handles become classes through %extend:
 *
 *   struct dbdf_reader -> NativeReader   (constructor opens, destructor frees)
 *   struct dbdf_writer -> NativeWriter
 *   dbdf_object_info_t -> NativeObjectInfo, dbdf_block_info_t -> NativeBlockInfo (plain fields)
 *   struct dbdf_swig_violations -> NativeViolations (defined here; read by index, destructor frees)
 *
 * The raw dbdf_reader_* / dbdf_writer_* functions are ignored: only the methods below reach the target
 * language, so no raw pointer or SWIGTYPE_p_ type ever appears there.
 *
 * ERRORS: one hook for every language. Each wrapped method records a failing status with dbdf_swig_check()
 * (or dbdf_swig_fail() for a failure detected here) and returns a neutral value; the status, the rule, the
 * byte offset and a whole copy of the message are kept per thread. Each language part defines one %exception
 * that calls dbdf_swig_reset(), runs the action, and if dbdf_swig_failed() turns dbdf_swig_status(),
 * dbdf_swig_message(), dbdf_swig_rule() and dbdf_swig_offset() into that language's exception before anything is
 * converted back, then calls dbdf_swig_reset() again to free the copy. Methods therefore return plain values (an entry
 * count, a struct, a bool for "is there a next block") and never a status.
 *
 * BUFFERS: every buffer crosses as a (pointer, size) pair whose parameter names are part of this contract;
 * each language part maps these exact groups (to arrays, NIO buffers, spans, ...):
 *
 *   (void *values, size_t values_nbytes)               output values of the value type passed alongside
 *   (const void *values, size_t values_nbytes)         input values of the value type passed alongside
 *   (uint64_t *row_offsets, size_t row_offsets_capacity)         output, elements
 *   (uint32_t *row_indices, size_t row_indices_capacity)         output, elements
 *   (uint32_t *col_indices, size_t col_indices_capacity)         output, elements
 *   (uint64_t *object_col_indices, size_t object_col_indices_capacity)   output, elements
 *   (const uint64_t *row_offsets, size_t row_offsets_count)      input, elements
 *   (const uint32_t *row_indices, size_t row_indices_count)      input, elements
 *   (const uint32_t *col_indices, size_t col_indices_count)      input, elements
 *   (const int32_t *column_type_codes, size_t column_count)      input: frame column value type codes
 *   (const uint32_t *label_lengths, size_t label_count)          input: byte length of each frame label
 *   (const void *label_bytes, size_t label_bytes_nbytes)         input: all frame labels concatenated
 *   (const void *borrowed_data, size_t borrowed_nbytes)          input the reader keeps until it is freed
 *
 * Value buffers are sized in BYTES so that a buffer whose element width does not match the value type can
 * never be overrun; the methods convert to element counts with dbdf_value_type_size(). All pointers are used
 * only during the call, except borrowed_data.
 *
 * Results that are byte strings use two struct types each language maps with an "out" typemap:
 *   dbdf_swig_bytes_t     bytes to copy into a new managed byte array (labels, memory output, violation
 *                         messages)
 *   dbdf_swig_borrowed_t  bytes the library keeps alive until the reader is freed (block payload),
 *                         exposed without copying where the language allows it
 *
 * CALLBACKS: dbdf_reader_validate()'s violations never reach the target language: a C callback here collects
 * them into a NativeViolations, which the language part reads and frees. Byte sources and sinks do: the reader
 * and writer constructors taking a dbdf_swig_callbacks_t open a reader over a read-at source or a writer over a
 * write callback, and each language part maps a parameter named source_callbacks or sink_callbacks from one of its
 * objects to the C functions and context that call into it (Java: a JNI shim calling the object's methods; C#:
 * delegates registered once, with a GCHandle as context). The library calls them only on the thread inside a call
 * on that handle, during that call. The handles over such callbacks are remembered (dbdf_swig_calls_back(): Java
 * must not pin arrays with GetPrimitiveArrayCritical during their calls), and freeing a writer releases its
 * context, which the library never does (it releases a source's context itself).
 *
 * Method names differ from the library's function suffixes on purpose: SWIG names the C helper of method m of
 * struct dbdf_reader "dbdf_reader_m", which must not collide with the library's own dbdf_reader_* functions.
 *
 * RUNNING SWIG: pass -I capi/include and, on LP64 platforms, -DSWIGWORDSIZE64 so that stdint.i declares
 * uint64_t as the C compiler does (unsigned long). The wrapper compiles as C11 or as C++.
 *
 * Layout of this file: common C helpers, then the language part (typemaps and renames must precede the
 * declarations they apply to), then the common declarations.
 */
%module dbdf

%{
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbdf.h"

#if defined(__cplusplus)
#define DBDF_SWIG_THREAD_LOCAL thread_local
#elif defined(_MSC_VER)
#define DBDF_SWIG_THREAD_LOCAL __declspec(thread)
#else
#define DBDF_SWIG_THREAD_LOCAL _Thread_local
#endif

/* Failure of the current wrapped call on this thread: its status, the rule and byte offset the library reported
 * (dbdf_last_error_rule / dbdf_last_error_offset) and a copy of the message, since the library's own message only
 * lives until the next dbdf_* call. The copy is as long as the message, never cut: it is allocated when the call
 * fails, and freed by dbdf_swig_reset(), which each language part calls again once the failure has become that
 * language's exception, so no copy outlives its call. */
static DBDF_SWIG_THREAD_LOCAL dbdf_status_t dbdf_swig_current_status = DBDF_OK;
static DBDF_SWIG_THREAD_LOCAL int dbdf_swig_current_rule = 0;
static DBDF_SWIG_THREAD_LOCAL uint64_t dbdf_swig_current_offset = DBDF_NO_OFFSET;
static DBDF_SWIG_THREAD_LOCAL char *dbdf_swig_current_message = NULL;

static void dbdf_swig_reset(void) {
    dbdf_swig_current_status = DBDF_OK;
    dbdf_swig_current_rule = 0;
    dbdf_swig_current_offset = DBDF_NO_OFFSET;
    free(dbdf_swig_current_message);
    dbdf_swig_current_message = NULL;
}

/* Records a failure with the rule and offset it names (0 and DBDF_NO_OFFSET for none). */
static void dbdf_swig_fail_at(dbdf_status_t status, const char *message, int rule, uint64_t offset) {
    size_t length;
    char *copy;
    if (!message) {
        message = "";
    }
    length = strlen(message);
    copy = (char *)malloc(length + 1);
    if (copy) {
        memcpy(copy, message, length + 1);
    }
    free(dbdf_swig_current_message);
    dbdf_swig_current_message = copy; /* NULL when out of memory: dbdf_swig_message() says so */
    dbdf_swig_current_status = status;
    dbdf_swig_current_rule = rule;
    dbdf_swig_current_offset = offset;
}

/* A failure detected by this glue itself: no rule, no place in the input. */
static void dbdf_swig_fail(dbdf_status_t status, const char *message) {
    dbdf_swig_fail_at(status, message, 0, DBDF_NO_OFFSET);
}

/* Records `status` when it is an error; returns true then. DBDF_END_OF_BLOCKS is not an error. */
static bool dbdf_swig_check(dbdf_status_t status) {
    if (status >= 0) {
        return false;
    }
    dbdf_swig_fail_at(status, dbdf_last_error_message(), dbdf_last_error_rule(), dbdf_last_error_offset());
    return true;
}

static bool dbdf_swig_failed(void) { return dbdf_swig_current_status != DBDF_OK; }
static int dbdf_swig_status(void) { return (int)dbdf_swig_current_status; }
static const char *dbdf_swig_message(void) {
    if (dbdf_swig_current_message) {
        return dbdf_swig_current_message;
    }
    return dbdf_swig_current_status == DBDF_OK ? "" : "(the error message could not be copied: out of memory)";
}
static int dbdf_swig_rule(void) { return dbdf_swig_current_rule; }
static uint64_t dbdf_swig_offset(void) { return dbdf_swig_current_offset; }

/* Bytes handed back to the target language: copied (dbdf_swig_bytes_t) or borrowed (dbdf_swig_borrowed_t). */
typedef struct dbdf_swig_bytes {
    const void *data;
    size_t nbytes;
} dbdf_swig_bytes_t;

typedef struct dbdf_swig_borrowed {
    const void *data;
    size_t nbytes;
} dbdf_swig_borrowed_t;

/* Element capacity of a value buffer of `nbytes` bytes; fails (and returns false) for an unknown value type. */
static bool dbdf_swig_value_capacity(dbdf_value_type_t value_type, size_t nbytes, size_t *out_capacity) {
    size_t value_size = dbdf_value_type_size(value_type);
    if (value_size == 0) {
        dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "unknown value type");
        return false;
    }
    *out_capacity = nbytes / value_size;
    return true;
}

/* Write options from the flattened arguments the methods take. */
static dbdf_write_options_t dbdf_swig_options(dbdf_encoding_t encoding, uint32_t block_rows, uint32_t block_cols) {
    dbdf_write_options_t options = DBDF_WRITE_OPTIONS_INIT;
    options.encoding = encoding;
    options.block_rows = block_rows;
    options.block_cols = block_cols;
    return options;
}

/* The C side of a byte source or sink of the target language, filled by the language part's typemap for a
 * parameter named source_callbacks (read_at set) or sink_callbacks (write set). `release` frees `context`. */
typedef struct dbdf_swig_callbacks {
    int64_t (*read_at)(void *context, uint64_t offset, void *destination, size_t length);
    int (*write)(void *context, const void *data, size_t nbytes);
    void *context;
    void (*release)(void *context);
} dbdf_swig_callbacks_t;

static void dbdf_swig_release_callbacks(dbdf_swig_callbacks_t *callbacks) {
    if (callbacks->release) {
        callbacks->release(callbacks->context);
    }
}

/* Readers and writers over a byte source or sink of the target language, with the context to release after
 * freeing (writers: the library never releases a write callback's context). A short list under a spin lock: Java
 * consults it in every call with an array argument (dbdf_swig_calls_back), skipping the lock while it is empty. */
typedef struct dbdf_swig_callback_handle {
    const void *handle;
    void (*release)(void *context);
    void *context;
} dbdf_swig_callback_handle_t;

static atomic_flag dbdf_swig_callback_handles_lock = ATOMIC_FLAG_INIT;
static atomic_size_t dbdf_swig_callback_handle_count = 0;
static dbdf_swig_callback_handle_t *dbdf_swig_callback_handles = NULL;
static size_t dbdf_swig_callback_handle_capacity = 0;

static void dbdf_swig_lock_callback_handles(void) {
    while (atomic_flag_test_and_set_explicit(&dbdf_swig_callback_handles_lock, memory_order_acquire)) {
    }
}

static void dbdf_swig_unlock_callback_handles(void) {
    atomic_flag_clear_explicit(&dbdf_swig_callback_handles_lock, memory_order_release);
}

static bool dbdf_swig_callback_handle_opened(const void *handle, void (*release)(void *), void *context) {
    bool stored = true;
    size_t count;
    dbdf_swig_lock_callback_handles();
    count = atomic_load(&dbdf_swig_callback_handle_count);
    if (count == dbdf_swig_callback_handle_capacity) {
        size_t capacity = dbdf_swig_callback_handle_capacity == 0 ? 8 : dbdf_swig_callback_handle_capacity * 2;
        dbdf_swig_callback_handle_t *grown = (dbdf_swig_callback_handle_t *)realloc(
            dbdf_swig_callback_handles, capacity * sizeof *grown);
        if (grown) {
            dbdf_swig_callback_handles = grown;
            dbdf_swig_callback_handle_capacity = capacity;
        } else {
            stored = false;
        }
    }
    if (stored) {
        dbdf_swig_callback_handles[count].handle = handle;
        dbdf_swig_callback_handles[count].release = release;
        dbdf_swig_callback_handles[count].context = context;
        atomic_store(&dbdf_swig_callback_handle_count, count + 1);
    }
    dbdf_swig_unlock_callback_handles();
    return stored;
}

/* Called before the handle is freed, while no other handle can have its address: forgets it and returns its
 * entry (release NULL for none), whose context the caller releases once the handle is freed. */
static dbdf_swig_callback_handle_t dbdf_swig_forget_callback_handle(const void *handle) {
    dbdf_swig_callback_handle_t forgotten = {NULL, NULL, NULL};
    size_t count;
    size_t index;
    if (atomic_load(&dbdf_swig_callback_handle_count) == 0) {
        return forgotten;
    }
    dbdf_swig_lock_callback_handles();
    count = atomic_load(&dbdf_swig_callback_handle_count);
    for (index = 0; index < count; ++index) {
        if (dbdf_swig_callback_handles[index].handle == handle) {
            forgotten = dbdf_swig_callback_handles[index];
            dbdf_swig_callback_handles[index] = dbdf_swig_callback_handles[count - 1];
            atomic_store(&dbdf_swig_callback_handle_count, count - 1);
            break;
        }
    }
    dbdf_swig_unlock_callback_handles();
    return forgotten;
}

/* True when a call on `handle` may run target-language code (it reads or writes through its source or sink). */
static inline bool dbdf_swig_calls_back(const void *handle) {
    bool found = false;
    size_t count;
    size_t index;
    if (atomic_load(&dbdf_swig_callback_handle_count) == 0) {
        return false;
    }
    dbdf_swig_lock_callback_handles();
    count = atomic_load(&dbdf_swig_callback_handle_count);
    for (index = 0; index < count && !found; ++index) {
        found = dbdf_swig_callback_handles[index].handle == handle;
    }
    dbdf_swig_unlock_callback_handles();
    return found;
}

/* Open and writer options from the flattened arguments the constructors take. */
static dbdf_open_options_t dbdf_swig_open_options(dbdf_dialect_t dialect, unsigned threads) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    options.threads = threads;
    return options;
}

static dbdf_writer_options_t dbdf_swig_writer_options(dbdf_dialect_t dialect, bool write_meta, bool durable,
                                                      unsigned threads) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = dialect;
    options.write_meta = write_meta ? 1 : 0;
    options.durable = durable ? 1 : 0;
    options.threads = threads;
    return options;
}

static size_t dbdf_swig_min(size_t a, size_t b) { return a < b ? a : b; }

/* Every violation dbdf_reader_validate() reported, in the order reported. The arguments of the callback live only
 * during each call, so the message is copied. */
typedef struct dbdf_swig_violations {
    size_t count;
    size_t capacity;
    int *rules;
    uint64_t *offsets;
    char **messages; /* NULL where the library passed no message */
    /* A violation could not be stored: the list is incomplete and must not be handed out. */
    bool out_of_memory;
} dbdf_swig_violations_t;

static void dbdf_swig_violations_free(dbdf_swig_violations_t *violations) {
    size_t index;
    if (!violations) {
        return;
    }
    for (index = 0; index < violations->count; ++index) {
        free(violations->messages[index]);
    }
    free(violations->rules);
    free(violations->offsets);
    free((void *)violations->messages);
    free(violations);
}

/* Room for one more violation. Each array is replaced as soon as it has grown, so that a failure part way leaves
 * every array valid for the old capacity (and the list freeable). */
static bool dbdf_swig_violations_reserve(dbdf_swig_violations_t *violations) {
    size_t capacity;
    int *rules;
    uint64_t *offsets;
    char **messages;
    if (violations->count < violations->capacity) {
        return true;
    }
    if (violations->capacity > SIZE_MAX / 2 / sizeof *offsets ||
        violations->capacity > SIZE_MAX / 2 / sizeof *messages) {
        return false;
    }
    capacity = violations->capacity == 0 ? 8 : violations->capacity * 2;
    rules = (int *)realloc(violations->rules, capacity * sizeof *rules);
    if (!rules) {
        return false;
    }
    violations->rules = rules;
    offsets = (uint64_t *)realloc(violations->offsets, capacity * sizeof *offsets);
    if (!offsets) {
        return false;
    }
    violations->offsets = offsets;
    messages = (char **)realloc((void *)violations->messages, capacity * sizeof *messages);
    if (!messages) {
        return false;
    }
    violations->messages = messages;
    violations->capacity = capacity;
    return true;
}

/* The dbdf_violation_fn of find_violations(): `context` is the dbdf_swig_violations_t being filled. The library
 * cannot be told to stop, so after a failed allocation the remaining violations are only passed over. */
static void dbdf_swig_collect_violation(void *context, int rule, uint64_t offset, const char *message) {
    dbdf_swig_violations_t *violations = (dbdf_swig_violations_t *)context;
    char *copy = NULL;
    if (violations->out_of_memory) {
        return;
    }
    if (!dbdf_swig_violations_reserve(violations)) {
        violations->out_of_memory = true;
        return;
    }
    if (message) {
        size_t length = strlen(message);
        copy = (char *)malloc(length + 1);
        if (!copy) {
            violations->out_of_memory = true;
            return;
        }
        memcpy(copy, message, length + 1);
    }
    violations->rules[violations->count] = rule;
    violations->offsets[violations->count] = offset;
    violations->messages[violations->count] = copy;
    violations->count++;
}

/* False (and the call fails) for a freed list, which the generated class passes as NULL. */
static bool dbdf_swig_violations_live(const dbdf_swig_violations_t *violations) {
    if (!violations) {
        dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "the violation list is freed");
        return false;
    }
    return true;
}

/* False (and the call fails) when `index` is not one of the collected violations. */
static bool dbdf_swig_violation_exists(const dbdf_swig_violations_t *violations, size_t index) {
    if (!dbdf_swig_violations_live(violations)) {
        return false;
    }
    if (index >= violations->count) {
        dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "violation index out of range");
        return false;
    }
    return true;
}
%}

%include <stdint.i>

%rename(NativeReader) dbdf_reader;
%rename(NativeWriter) dbdf_writer;
%rename(NativeObjectInfo) dbdf_object_info;
%rename(NativeBlockInfo) dbdf_block_info;
%rename(NativeViolations) dbdf_swig_violations;

/* The language parts: %exception, buffer typemaps, enum style, renames. */
#if defined(SWIGJAVA)
%include "java/dbdf_java.i"
#endif
#if defined(SWIGCSHARP)
%include "csharp/dbdf_csharp.i"
#endif

/* Declared for SWIG only, so that %extend can attach methods: the C definitions stay opaque. Declared after the
 * language part because a class sees the typemaps in force where it is declared. */
struct dbdf_reader {};
struct dbdf_writer {};
/* Only find_violations() makes one; its fields are read through the methods below. */
%nodefaultctor dbdf_swig_violations;
struct dbdf_swig_violations {};

/* Everything in dbdf.h that the classes below wrap, or that takes raw pointers or callbacks. */
%ignore dbdf_last_error_message;
%ignore dbdf_last_error_rule;
%ignore dbdf_last_error_offset;
%ignore DBDF_NO_OFFSET;
%ignore dbdf_value_type_from_name;
%ignore dbdf_write_options;
%ignore dbdf_write_options_t;
%ignore dbdf_write_options_init;
%ignore dbdf_violation_fn;
%ignore dbdf_write_fn;
/* Open and writer options are taken as plain arguments by the constructors below. */
%ignore dbdf_open_options;
%ignore dbdf_open_options_t;
%ignore dbdf_open_options_init;
%ignore dbdf_writer_options;
%ignore dbdf_writer_options_t;
%ignore dbdf_dialect_from_name;
%rename("$ignore", regextarget=1, %$isfunction) "^dbdf_(reader|writer)_";
/* Output files of other formats and the signal-time cleanup serve C programs such as the dbdf tool. */
%rename("$ignore", regextarget=1, %$isfunction) "^dbdf_file_output_";
%ignore dbdf_remove_temporary_files;
/* Byte sources are opened by the constructors taking a dbdf_swig_callbacks_t; dbdf_set_callback_error() stays
 * (NativeDbdf.dbdf_set_callback_error) for callbacks of the target language that report their own message. */
%ignore dbdf_read_at_fn;
%ignore dbdf_source;
%ignore dbdf_source_t;
%ignore DBDF_SOURCE_SIZE_UNKNOWN;
%ignore DBDF_SOURCE_INIT;
/* Sources of Java and C# are read on the calling thread only (docs/byte-sources.md, "Concurrent reads"). */
%ignore DBDF_SOURCE_CONCURRENT_READS;

/* Arrow's C data interface: its structs cross as addresses (export_arrow_stream and import_arrow_stream below), which
 * Arrow's own libraries allocate (Arrow Java's C Data module imports and exports the stream). */
%ignore ArrowSchema;
%ignore ArrowArray;
%ignore ArrowArrayStream;
%ignore dbdf_arrow_export_options;
%ignore dbdf_arrow_export_options_t;
%ignore dbdf_arrow_export_options_init;
%ignore DBDF_ARROW_EXPORT_OPTIONS_INIT;
%ignore dbdf_arrow_import_options;
%ignore dbdf_arrow_import_options_t;
%ignore dbdf_arrow_import_options_init;
%ignore DBDF_ARROW_IMPORT_OPTIONS_INIT;
%ignore ARROW_FLAG_DICTIONARY_ORDERED;
%ignore ARROW_FLAG_NULLABLE;
%ignore ARROW_FLAG_MAP_KEYS_SORTED;
%ignore ARROW_C_DATA_INTERFACE;
%ignore ARROW_C_STREAM_INTERFACE;

/* The info structs are filled by the library; the target language only reads them. */
%immutable dbdf_object_info::data_type;
%immutable dbdf_object_info::value_type;
%immutable dbdf_object_info::rows;
%immutable dbdf_object_info::cols;
%immutable dbdf_object_info::header_bytes;
%immutable dbdf_object_info::total_bytes;
%immutable dbdf_block_info::index;
%immutable dbdf_block_info::row;
%immutable dbdf_block_info::col;
%immutable dbdf_block_info::rows;
%immutable dbdf_block_info::cols;
%immutable dbdf_block_info::block_type;
%immutable dbdf_block_info::value_type;
%immutable dbdf_block_info::stored_values;
%immutable dbdf_block_info::offset;
%immutable dbdf_block_info::encoded_bytes;

#define DBDF_API
%include "dbdf.h"

/* ------------------------------------------------------------------------------------------------------------
 * Reader
 * ---------------------------------------------------------------------------------------------------------- */
/* The caller owns the list find_violations() returns (and frees it with the generated delete / Dispose). */
%newobject dbdf_reader::find_violations;
%extend dbdf_reader {
    /* Opens the file at `path` (memory-mapped). */
    dbdf_reader(const char *path) {
        dbdf_reader_t *reader = NULL;
        if (dbdf_swig_check(dbdf_reader_open_file(path, &reader))) {
            return NULL;
        }
        return reader;
    }

    /* Reads caller memory without copying it; the caller keeps it alive and unchanged until the reader is
     * freed. */
    dbdf_reader(const void *borrowed_data, size_t borrowed_nbytes) {
        dbdf_reader_t *reader = NULL;
        if (dbdf_swig_check(dbdf_reader_open_memory(borrowed_data, borrowed_nbytes, &reader))) {
            return NULL;
        }
        return reader;
    }

    /* Opens the file at `path` in `dialect` (DBDF_DIALECT_SPEC or DBDF_DIALECT_DAPHNE); whole-object reads decode
     * on `threads` threads (0: automatic). */
    dbdf_reader(const char *path, dbdf_dialect_t dialect, unsigned threads) {
        dbdf_reader_t *reader = NULL;
        dbdf_open_options_t options = dbdf_swig_open_options(dialect, threads);
        if (dbdf_swig_check(dbdf_reader_open_file_with_options(path, &options, &reader))) {
            return NULL;
        }
        return reader;
    }

    /* Reads caller memory in `dialect` without copying it, decoding whole-object reads on `threads` threads; the
     * memory rule of the two-argument form applies. */
    dbdf_reader(const void *borrowed_data, size_t borrowed_nbytes, dbdf_dialect_t dialect, unsigned threads) {
        dbdf_reader_t *reader = NULL;
        dbdf_open_options_t options = dbdf_swig_open_options(dialect, threads);
        if (dbdf_swig_check(dbdf_reader_open_memory_with_options(borrowed_data, borrowed_nbytes, &options, &reader))) {
            return NULL;
        }
        return reader;
    }

    /* Reads through the target language's source (see CALLBACKS above): `size` bytes, or until the source ends
     * when `size` is negative; `read_ahead` bytes of read-ahead window (0: the library's default). The library
     * releases the source's context, also when opening fails. Last parameter, so that no later argument's
     * conversion can fail after the context was made. `size` is a long long, not an int64_t, which SWIG's Java and
     * C# typemaps would take as a 32-bit int on LP64 platforms. */
    dbdf_reader(long long size, size_t read_ahead, dbdf_dialect_t dialect, unsigned threads,
                dbdf_swig_callbacks_t source_callbacks) {
        dbdf_reader_t *reader = NULL;
        dbdf_open_options_t options = dbdf_swig_open_options(dialect, threads);
        dbdf_source_t source = DBDF_SOURCE_INIT;
        source.read_at = source_callbacks.read_at;
        source.context = source_callbacks.context;
        source.release = source_callbacks.release;
        source.size = size < 0 ? DBDF_SOURCE_SIZE_UNKNOWN : (uint64_t)size;
        source.read_ahead = read_ahead;
        if (dbdf_swig_check(dbdf_reader_open_source(&source, &options, &reader))) {
            return NULL;
        }
        if (!dbdf_swig_callback_handle_opened(reader, NULL, NULL)) {
            dbdf_reader_free(reader);
            dbdf_swig_fail(DBDF_ERR_NOMEM, "out of memory");
            return NULL;
        }
        return reader;
    }

    /* Forgotten before it is freed: a handle opened later at the same address must not find this one's entry. The
     * library releases a source's context itself. */
    ~dbdf_reader() {
        dbdf_swig_forget_callback_handle($self);
        dbdf_reader_free($self);
    }

    /* Named apart from the C functions: %extend methods become functions dbdf_reader_<name>. */
    dbdf_dialect_t opened_dialect() {
        dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
        dbdf_swig_check(dbdf_reader_dialect($self, &dialect));
        return dialect;
    }

    /* False when the labels are defaults (col_0, col_1, ...) because the file's could not be recovered. */
    bool labels_are_recoverable() {
        int recoverable = 1;
        dbdf_swig_check(dbdf_reader_labels_recoverable($self, &recoverable));
        return recoverable != 0;
    }

    dbdf_object_info_t info() {
        dbdf_object_info_t info;
        memset(&info, 0, sizeof info);
        dbdf_swig_check(dbdf_reader_object_info($self, &info));
        return info;
    }

    dbdf_value_type_t value_type_of_column(uint64_t column) {
        dbdf_value_type_t value_type = DBDF_VALUE_NONE;
        dbdf_swig_check(dbdf_reader_column_type($self, column, &value_type));
        return value_type;
    }

    /* The label's bytes as stored (expected UTF-8). */
    dbdf_swig_bytes_t label_of_column(uint64_t column) {
        dbdf_swig_bytes_t label = {NULL, 0};
        const char *data = NULL;
        size_t length = 0;
        if (!dbdf_swig_check(dbdf_reader_column_label($self, column, &data, &length))) {
            label.data = data;
            label.nbytes = length;
        }
        return label;
    }

    /* Moves to the next block and describes it in `out`; false past the last block. */
    bool move_next(dbdf_block_info_t *out) {
        dbdf_status_t status = dbdf_reader_next_block($self, out);
        dbdf_swig_check(status);
        return status == DBDF_OK;
    }

    void current_block(dbdf_block_info_t *out) { dbdf_swig_check(dbdf_reader_block_info($self, out)); }

    /* The current block's payload as stored, borrowed until the reader is freed. */
    dbdf_swig_borrowed_t payload() {
        dbdf_swig_borrowed_t payload = {NULL, 0};
        const void *data = NULL;
        size_t nbytes = 0;
        if (!dbdf_swig_check(dbdf_reader_block_payload($self, &data, &nbytes))) {
            payload.data = data;
            payload.nbytes = nbytes;
        }
        return payload;
    }

    void decode_dense(dbdf_value_type_t value_type, void *values, size_t values_nbytes,
                            uint64_t row_stride) {
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_block_decode_dense($self, value_type, values, capacity, row_stride));
        }
    }

    uint64_t block_entries() {
        uint64_t entries = 0;
        dbdf_swig_check(dbdf_reader_block_count_entries($self, &entries));
        return entries;
    }

    /* Returns the number of entries decoded. */
    uint64_t decode_csr(dbdf_value_type_t value_type, uint64_t *row_offsets, size_t row_offsets_capacity,
                              uint32_t *col_indices, size_t col_indices_capacity, void *values,
                              size_t values_nbytes) {
        uint64_t entries = 0;
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_block_decode_csr($self, value_type, row_offsets, row_offsets_capacity,
                                                         col_indices, values,
                                                         dbdf_swig_min(capacity, col_indices_capacity),
                                                         &entries));
        }
        return entries;
    }

    /* Returns the number of entries decoded. */
    uint64_t decode_coo(dbdf_value_type_t value_type, uint32_t *row_indices, size_t row_indices_capacity,
                              uint32_t *col_indices, size_t col_indices_capacity, void *values,
                              size_t values_nbytes) {
        uint64_t entries = 0;
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            capacity = dbdf_swig_min(capacity, dbdf_swig_min(row_indices_capacity, col_indices_capacity));
            dbdf_swig_check(dbdf_reader_block_decode_coo($self, value_type, row_indices, col_indices, values,
                                                         capacity, &entries));
        }
        return entries;
    }

    void rewind_blocks() { dbdf_swig_check(dbdf_reader_rewind($self)); }

    /* Returns the number of blocks. */
    uint64_t index_blocks() {
        uint64_t blocks = 0;
        dbdf_swig_check(dbdf_reader_build_index($self, &blocks));
        return blocks;
    }

    void indexed_block(uint64_t index, dbdf_block_info_t *out) {
        dbdf_swig_check(dbdf_reader_index_entry($self, index, out));
    }

    void seek(uint64_t index) { dbdf_swig_check(dbdf_reader_seek_block($self, index)); }

    void read_window(dbdf_value_type_t value_type, uint64_t row, uint64_t col, uint64_t rows, uint64_t cols,
                           void *values, size_t values_nbytes, uint64_t row_stride) {
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_read_dense_window($self, value_type, row, col, rows, cols, values, capacity,
                                                          row_stride));
        }
    }

    void read_all(dbdf_value_type_t value_type, void *values, size_t values_nbytes, uint64_t row_stride) {
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_read_dense($self, value_type, values, capacity, row_stride));
        }
    }

    void read_column_values(uint64_t column, dbdf_value_type_t value_type, void *values, size_t values_nbytes) {
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_read_column($self, column, value_type, values, capacity));
        }
    }

    uint64_t object_entries() {
        uint64_t entries = 0;
        dbdf_swig_check(dbdf_reader_count_entries($self, &entries));
        return entries;
    }

    /* Object-wide CSR; returns the number of entries. */
    uint64_t read_all_csr(dbdf_value_type_t value_type, uint64_t *row_offsets, size_t row_offsets_capacity,
                      uint64_t *object_col_indices, size_t object_col_indices_capacity, void *values,
                      size_t values_nbytes) {
        uint64_t entries = 0;
        size_t capacity = 0;
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &capacity)) {
            dbdf_swig_check(dbdf_reader_read_csr($self, value_type, row_offsets, row_offsets_capacity,
                                                 object_col_indices, values,
                                                 dbdf_swig_min(capacity, object_col_indices_capacity), &entries));
        }
        return entries;
    }

    /* Checks every rule strictly; fails with the first violation's status and message. */
    void check_rules() { dbdf_swig_check(dbdf_reader_validate($self, NULL, NULL, NULL)); }

    /* Checks every rule strictly and returns every violation (none for a valid object). The library reports
     * violations by failing with the first one's status (format, truncated, range); that is the expected outcome
     * here and not an error. Any other failure is: NULL is returned and the language part raises it. */
    struct dbdf_swig_violations *find_violations() {
        dbdf_status_t status;
        bool reported;
        dbdf_swig_violations_t *violations = (dbdf_swig_violations_t *)calloc(1, sizeof *violations);
        if (!violations) {
            dbdf_swig_fail(DBDF_ERR_NOMEM, "find_violations: out of memory");
            return NULL;
        }
        status = dbdf_reader_validate($self, dbdf_swig_collect_violation, violations, NULL);
        if (violations->out_of_memory) {
            dbdf_swig_violations_free(violations);
            dbdf_swig_fail(DBDF_ERR_NOMEM, "find_violations: out of memory while collecting violations");
            return NULL;
        }
        reported = violations->count > 0 && (status == DBDF_ERR_FORMAT || status == DBDF_ERR_TRUNCATED ||
                                             status == DBDF_ERR_RANGE);
        if (!reported && dbdf_swig_check(status)) {
            dbdf_swig_violations_free(violations);
            return NULL;
        }
        return violations;
    }

    /* Arrow (section 7): fills the caller's struct ArrowArrayStream, given by its address (Arrow Java's
     * ArrowArrayStream.memoryAddress(), a C# IntPtr's value), with a stream that borrows this reader
     * (take_reader = 0): the language part keeps the reader alive until the stream is released. */
    void export_arrow_stream(long long stream_address, bool dense_as_list) {
        dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
        if (stream_address == 0) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "the ArrowArrayStream address is 0");
            return;
        }
        options.dense_as_list = dense_as_list ? 1 : 0;
        dbdf_swig_check(dbdf_reader_export_arrow($self, &options, (struct ArrowArrayStream *)(intptr_t)stream_address));
    }
}

/* ------------------------------------------------------------------------------------------------------------
 * Violations: what find_violations() collected, read by index
 * ---------------------------------------------------------------------------------------------------------- */
%extend dbdf_swig_violations {
    ~dbdf_swig_violations() { dbdf_swig_violations_free($self); }

    size_t count() { return dbdf_swig_violations_live($self) ? $self->count : 0; }

    /* the number of the rule in docs/format-rules.md; 0 for the spec's layout itself. */
    int rule(size_t index) { return dbdf_swig_violation_exists($self, index) ? $self->rules[index] : 0; }

    /* Byte offset in the input. */
    uint64_t offset(size_t index) {
        return dbdf_swig_violation_exists($self, index) ? $self->offsets[index] : 0;
    }

    /* The library's message as its bytes (expected UTF-8); empty where it passed none. */
    dbdf_swig_bytes_t message_bytes(size_t index) {
        dbdf_swig_bytes_t message = {NULL, 0};
        if (dbdf_swig_violation_exists($self, index) && $self->messages[index]) {
            message.data = $self->messages[index];
            message.nbytes = strlen($self->messages[index]);
        }
        return message;
    }
}

#if defined(SWIGJAVA)
%inline %{
/* Arrow (section 7) for memory a reader reads in place: a second native reader over the same bytes, exported with
 * take_reader, so that batches may point into those bytes (docs/arrow.md, "Zero copy"). `keep_alive` (filled by
 * the language part from the object owning the bytes) is released once the stream and every batch it produced are
 * released, or here when anything fails. Last parameter, so that no later conversion can fail after it was made. */
void dbdf_swig_export_arrow_lending(const void *borrowed_data, size_t borrowed_nbytes, dbdf_dialect_t dialect,
                                    unsigned threads, long long stream_address, bool dense_as_list,
                                    dbdf_swig_callbacks_t keep_alive) {
    dbdf_reader_t *reader = NULL;
    dbdf_open_options_t open_options = dbdf_swig_open_options(dialect, threads);
    dbdf_arrow_export_options_t options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    if (stream_address == 0) {
        dbdf_swig_release_callbacks(&keep_alive);
        dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "the ArrowArrayStream address is 0");
        return;
    }
    if (dbdf_swig_check(dbdf_reader_open_memory_with_options(borrowed_data, borrowed_nbytes, &open_options, &reader))) {
        dbdf_swig_release_callbacks(&keep_alive);
        return;
    }
    options.dense_as_list = dense_as_list ? 1 : 0;
    options.take_reader = 1;
    options.release = keep_alive.release;
    options.release_context = keep_alive.context;
    /* On failure the export has called `release` already and the reader is still ours. */
    if (dbdf_swig_check(dbdf_reader_export_arrow(reader, &options, (struct ArrowArrayStream *)(intptr_t)stream_address))) {
        dbdf_reader_free(reader);
    }
}
%}
#endif

/* ------------------------------------------------------------------------------------------------------------
 * Writer
 * ---------------------------------------------------------------------------------------------------------- */
%extend dbdf_writer {
    /* Writes the file at `path` atomically (temporary file renamed by finish). */
    dbdf_writer(const char *path) {
        dbdf_writer_t *writer = NULL;
        if (dbdf_swig_check(dbdf_writer_open_file(path, &writer))) {
            return NULL;
        }
        return writer;
    }

    /* Writes to a growable memory buffer; see memory(). */
    dbdf_writer() {
        dbdf_writer_t *writer = NULL;
        if (dbdf_swig_check(dbdf_writer_open_memory(&writer))) {
            return NULL;
        }
        return writer;
    }

    /* Writes the file at `path` in `dialect`; in the daphne dialect with write_meta, finish also writes
     * `path`.meta. With `durable`, finish syncs the file (and the .meta) and the directory. write_dense uses
     * `threads` threads (0: automatic). */
    dbdf_writer(const char *path, dbdf_dialect_t dialect, bool write_meta, bool durable, unsigned threads) {
        dbdf_writer_t *writer = NULL;
        dbdf_writer_options_t options = dbdf_swig_writer_options(dialect, write_meta, durable, threads);
        if (dbdf_swig_check(dbdf_writer_open_file_with_options(path, &options, &writer))) {
            return NULL;
        }
        return writer;
    }

    /* Writes to a growable memory buffer in `dialect`, write_dense on `threads` threads; see memory(). write_meta
     * and durable concern files only. */
    dbdf_writer(dbdf_dialect_t dialect, unsigned threads) {
        dbdf_writer_t *writer = NULL;
        dbdf_writer_options_t options = dbdf_swig_writer_options(dialect, true, false, threads);
        if (dbdf_swig_check(dbdf_writer_open_memory_with_options(&options, &writer))) {
            return NULL;
        }
        return writer;
    }

    /* Writes through the target language's sink (see CALLBACKS above) in `dialect`, write_dense on `threads`
     * threads. The sink's context is released when the writer is freed, or here if opening fails. */
    dbdf_writer(dbdf_dialect_t dialect, unsigned threads, dbdf_swig_callbacks_t sink_callbacks) {
        dbdf_writer_t *writer = NULL;
        dbdf_writer_options_t options = dbdf_swig_writer_options(dialect, true, false, threads);
        if (dbdf_swig_check(dbdf_writer_open_callback_with_options(sink_callbacks.write, sink_callbacks.context,
                                                                   &options, &writer))) {
            dbdf_swig_release_callbacks(&sink_callbacks);
            return NULL;
        }
        if (!dbdf_swig_callback_handle_opened(writer, sink_callbacks.release, sink_callbacks.context)) {
            dbdf_writer_free(writer);
            dbdf_swig_release_callbacks(&sink_callbacks);
            dbdf_swig_fail(DBDF_ERR_NOMEM, "out of memory");
            return NULL;
        }
        return writer;
    }

    /* Forgotten before it is freed (see ~dbdf_reader); the sink's context is released once the writer is gone. */
    ~dbdf_writer() {
        dbdf_swig_callback_handle_t forgotten = dbdf_swig_forget_callback_handle($self);
        dbdf_writer_free($self);
        if (forgotten.release) {
            forgotten.release(forgotten.context);
        }
    }

    dbdf_dialect_t opened_dialect() {
        dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
        dbdf_swig_check(dbdf_writer_dialect($self, &dialect));
        return dialect;
    }

    void start_matrix(dbdf_data_type_t data_type, dbdf_value_type_t value_type, uint64_t rows, uint64_t cols) {
        dbdf_swig_check(dbdf_writer_begin_matrix($self, data_type, value_type, rows, cols));
    }

    /* Frame header: one value type code and one label per column; the labels are concatenated in label_bytes
     * with their byte lengths in label_lengths. */
    void start_frame(uint64_t rows, const int32_t *column_type_codes, size_t column_count,
                     const uint32_t *label_lengths, size_t label_count, const void *label_bytes,
                     size_t label_bytes_nbytes) {
        const char *label_base = (const char *)label_bytes;
        dbdf_value_type_t *column_types = NULL;
        const char **labels = NULL;
        size_t *lengths = NULL;
        size_t label_offset = 0;
        size_t column = 0;
        if (label_count != column_count) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "start_frame: need exactly one label per column");
            return;
        }
        for (column = 0; column < column_count; ++column) {
            if (label_lengths[column] > label_bytes_nbytes - label_offset) {
                dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "start_frame: label lengths exceed the label bytes");
                return;
            }
            label_offset += label_lengths[column];
        }
        if (column_count > 0) {
            column_types = (dbdf_value_type_t *)calloc(column_count, sizeof *column_types);
            labels = (const char **)calloc(column_count, sizeof *labels);
            lengths = (size_t *)calloc(column_count, sizeof *lengths);
            if (!column_types || !labels || !lengths) {
                free(column_types);
                free((void *)labels);
                free(lengths);
                dbdf_swig_fail(DBDF_ERR_NOMEM, "start_frame: out of memory");
                return;
            }
        }
        label_offset = 0;
        for (column = 0; column < column_count; ++column) {
            column_types[column] = (dbdf_value_type_t)column_type_codes[column];
            /* A zero-length label still needs a valid pointer. */
            labels[column] = label_base ? label_base + label_offset : "";
            lengths[column] = label_lengths[column];
            label_offset += label_lengths[column];
        }
        dbdf_swig_check(dbdf_writer_begin_frame($self, rows, column_count, column_types, labels, lengths));
        free(column_types);
        free((void *)labels);
        free(lengths);
    }

    void put_dense(uint64_t row, uint64_t col, uint32_t rows, uint32_t cols, dbdf_value_type_t value_type,
                   const void *values, size_t values_nbytes, uint64_t row_stride, dbdf_encoding_t encoding) {
        size_t count = 0;
        dbdf_write_options_t options = dbdf_swig_options(encoding, 0, 0);
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &count)) {
            dbdf_swig_check(dbdf_writer_add_dense($self, row, col, rows, cols, value_type, values, count,
                                                  row_stride, &options));
        }
    }

    /* Block-local CSR; the entry count is row_offsets[rows], checked against every array's length. */
    void put_csr(uint64_t row, uint64_t col, uint32_t rows, uint32_t cols, dbdf_value_type_t value_type,
                 const uint64_t *row_offsets, size_t row_offsets_count, const uint32_t *col_indices,
                 size_t col_indices_count, const void *values, size_t values_nbytes, dbdf_encoding_t encoding) {
        size_t count = 0;
        uint64_t entries = 0;
        dbdf_write_options_t options = dbdf_swig_options(encoding, 0, 0);
        if (!dbdf_swig_value_capacity(value_type, values_nbytes, &count)) {
            return;
        }
        if (row_offsets_count < (size_t)rows + 1) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "put_csr: row_offsets needs rows + 1 elements");
            return;
        }
        entries = row_offsets[rows];
        if (entries > col_indices_count || entries > count) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT,
                           "put_csr: row_offsets[rows] exceeds the length of col_indices or values");
            return;
        }
        dbdf_swig_check(dbdf_writer_add_csr($self, row, col, rows, cols, value_type, row_offsets, col_indices,
                                            values, entries, &options));
    }

    /* Block-local COO triplets; `entries` is checked against every array's length. */
    void put_coo(uint64_t row, uint64_t col, uint32_t rows, uint32_t cols, dbdf_value_type_t value_type,
                 const uint32_t *row_indices, size_t row_indices_count, const uint32_t *col_indices,
                 size_t col_indices_count, const void *values, size_t values_nbytes, uint64_t entries,
                 dbdf_encoding_t encoding) {
        size_t count = 0;
        dbdf_write_options_t options = dbdf_swig_options(encoding, 0, 0);
        if (!dbdf_swig_value_capacity(value_type, values_nbytes, &count)) {
            return;
        }
        if (entries > row_indices_count || entries > col_indices_count || entries > count) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT,
                           "put_coo: entries exceeds the length of row_indices, col_indices or values");
            return;
        }
        dbdf_swig_check(dbdf_writer_add_coo($self, row, col, rows, cols, value_type, row_indices, col_indices,
                                            values, entries, &options));
    }

    void put_empty(uint64_t row, uint64_t col, uint32_t rows, uint32_t cols) {
        dbdf_swig_check(dbdf_writer_add_empty($self, row, col, rows, cols));
    }

    /* The whole matrix from dense row-major values, tiled into block_rows x block_cols blocks (0: automatic). */
    void write_dense_tiled(dbdf_value_type_t value_type, const void *values, size_t values_nbytes, uint64_t row_stride,
                     dbdf_encoding_t encoding, uint32_t block_rows, uint32_t block_cols) {
        size_t count = 0;
        dbdf_write_options_t options = dbdf_swig_options(encoding, block_rows, block_cols);
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &count)) {
            dbdf_swig_check(dbdf_writer_write_dense($self, value_type, values, count, row_stride, &options));
        }
    }

    /* One frame column, as blocks of block_rows rows (0: automatic). */
    void write_column_values(uint64_t column, dbdf_value_type_t value_type, const void *values, size_t values_nbytes,
                      dbdf_encoding_t encoding, uint32_t block_rows) {
        size_t count = 0;
        dbdf_write_options_t options = dbdf_swig_options(encoding, block_rows, 0);
        if (dbdf_swig_value_capacity(value_type, values_nbytes, &count)) {
            dbdf_swig_check(dbdf_writer_write_column($self, column, value_type, values, count, &options));
        }
    }

    void finish_object() { dbdf_swig_check(dbdf_writer_finish($self)); }

    uint64_t written_bytes() {
        uint64_t nbytes = 0;
        dbdf_swig_check(dbdf_writer_bytes_written($self, &nbytes));
        return nbytes;
    }

    /* The finished output of a memory writer, copied by the language part. */
    dbdf_swig_bytes_t output_bytes() {
        dbdf_swig_bytes_t bytes = {NULL, 0};
        const void *data = NULL;
        size_t nbytes = 0;
        if (!dbdf_swig_check(dbdf_writer_memory($self, &data, &nbytes))) {
            bytes.data = data;
            bytes.nbytes = nbytes;
        }
        return bytes;
    }

    /* Arrow (section 7): writes the batches of the struct ArrowArrayStream at `stream_address` (see
     * export_arrow_stream), which is released on every path, as a frame of `rows` rows or, with as_matrix, a dense
     * matrix. Does not finish the writer. */
    void import_arrow_stream(long long stream_address, uint64_t rows, bool as_matrix, bool booleans_as_u8) {
        dbdf_arrow_import_options_t options = DBDF_ARROW_IMPORT_OPTIONS_INIT;
        if (stream_address == 0) {
            dbdf_swig_fail(DBDF_ERR_INVALID_ARGUMENT, "the ArrowArrayStream address is 0");
            return;
        }
        options.as_matrix = as_matrix ? 1 : 0;
        options.booleans_as_u8 = booleans_as_u8 ? 1 : 0;
        dbdf_swig_check(dbdf_writer_import_arrow($self, (struct ArrowArrayStream *)(intptr_t)stream_address, rows,
                                                 &options));
    }
}
