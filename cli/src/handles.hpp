// RAII owners of dbdf.h handles and the tool's error type. The tool is a plain client of the C interface.
#pragma once

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "dbdf.h"
#include "standard_streams.hpp"
#include "terminal_text.hpp"

namespace dbdf_cli {

// The tool's exit codes, the same for every command (cli/README.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;    // the input is invalid or cannot be served, or a value does not fit
inline constexpr int kExitUsageOrIo = 2;  // a usage error, or a file cannot be opened, written or renamed

// An error to report on stderr with the exit code it leads to, and a hint for a line of its own after it. The
// message is printed with every control character escaped (terminal_text.hpp), line breaks included, since it may
// quote a file's name or contents; so a second line goes in the hint.
class CliError : public std::runtime_error {
public:
    CliError(const std::string& message, int exit_code = kExitUsageOrIo, std::string hint = {})
        : std::runtime_error(message), exit_code_(exit_code), hint_(std::move(hint)) {}
    int exit_code() const { return exit_code_; }
    const std::string& hint() const { return hint_; }

private:
    int exit_code_;
    std::string hint_;
};

// Throws CliError for a failed dbdf call: `context` names the file concerned (and where in it), then the library's
// message. A file dbdf refuses to serve (DBDF_ERR_UNSUPPORTED: a daphne string matrix, dimensions that wrapped)
// counts as invalid input like a malformed one: the command line was fine, the file cannot be used.
inline void check(dbdf_status_t status, const std::string& context) {
    if (status == DBDF_OK || status == DBDF_END_OF_BLOCKS) return;
    const bool invalid_input = status == DBDF_ERR_FORMAT || status == DBDF_ERR_TRUNCATED || status == DBDF_ERR_RANGE ||
                               status == DBDF_ERR_UNSUPPORTED;
    throw CliError(context + ": " + dbdf_last_error_message(), invalid_input ? kExitInvalid : kExitUsageOrIo);
}

struct ReaderFree {
    void operator()(dbdf_reader_t* reader) const { dbdf_reader_free(reader); }
};
struct WriterFree {
    void operator()(dbdf_writer_t* writer) const { dbdf_writer_free(writer); }
};
using Reader = std::unique_ptr<dbdf_reader_t, ReaderFree>;
using Writer = std::unique_ptr<dbdf_writer_t, WriterFree>;

inline Reader open_reader(const std::string& path, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC) {
    dbdf_open_options_t options = DBDF_OPEN_OPTIONS_INIT;
    options.dialect = dialect;
    dbdf_reader_t* reader = nullptr;
    check(dbdf_reader_open_file_with_options(input_to_open(path).c_str(), &options, &reader), path);
    return Reader(reader);
}

// The .dbdf input of a conversion: opened, then its block index built at once. Building the index walks every block
// header and checks the bounds and the partition, as `info` and `validate` do, so a file that breaks a rule is
// reported by that rule (exit 1) before anything sized by what its header claims is allocated or any output created.
inline Reader open_checked_input(const std::string& path, dbdf_dialect_t dialect) {
    Reader reader = open_reader(path, dialect);
    check(dbdf_reader_build_index(reader.get(), nullptr), path);
    return reader;
}

// A file writer in `dialect`; in the daphne dialect it also writes <path>.meta unless write_meta is false.
// `encode_threads` is dbdf_writer_options_t.threads (0: the library's choice).
inline Writer open_writer(const std::string& path, dbdf_dialect_t dialect = DBDF_DIALECT_SPEC, bool write_meta = true,
                          unsigned encode_threads = 0) {
    dbdf_writer_options_t options = DBDF_WRITER_OPTIONS_INIT;
    options.dialect = dialect;
    options.write_meta = write_meta ? 1 : 0;
    options.threads = encode_threads;
    dbdf_writer_t* writer = nullptr;
    check(dbdf_writer_open_file_with_options(output_to_open(path).c_str(), &options, &writer), path);
    return Writer(writer);
}

// --dialect spec|daphne.
inline dbdf_dialect_t parse_dialect(const std::string& name) {
    dbdf_dialect_t dialect = DBDF_DIALECT_SPEC;
    if (dbdf_dialect_from_name(name.c_str(), &dialect) != DBDF_OK) {
        throw CliError("unknown dialect '" + name + "' (spec or daphne)");
    }
    return dialect;
}

inline dbdf_object_info_t object_info(const Reader& reader, const std::string& file) {
    dbdf_object_info_t info{};
    check(dbdf_reader_object_info(reader.get(), &info), file);
    return info;
}

inline dbdf_value_type_t column_type(const Reader& reader, const std::string& file, uint64_t column) {
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    check(dbdf_reader_column_type(reader.get(), column, &type), file);
    return type;
}

inline std::string column_label(const Reader& reader, const std::string& file, uint64_t column) {
    const char* label = nullptr;
    size_t length = 0;
    check(dbdf_reader_column_label(reader.get(), column, &label, &length), file);
    return std::string(label, length);
}

// Says on stderr, after what a command printed or wrote, that a frame's labels are DAPHNE's defaults (col_0,
// col_1, ...) because the file cannot give the real ones (a daphne-dialect frame); says nothing otherwise. Labels
// that are shown or written are never silently made up.
inline void note_unrecoverable_labels(const Reader& reader, const std::string& file) {
    int recoverable = 1;
    check(dbdf_reader_labels_recoverable(reader.get(), &recoverable), file);
    if (recoverable != 0) return;
    std::fflush(stdout);
    std::fprintf(
        stderr,
        "dbdf: %s: note: the frame's labels cannot be recovered from the daphne dialect (DAPHNE's runtime writes "
        "memory bytes instead of the text); the columns are named as DAPHNE names them: col_0, col_1, ...\n",
        terminal_text(file).c_str());
}

inline dbdf_value_type_t parse_value_type(const std::string& name) {
    dbdf_value_type_t type = DBDF_VALUE_NONE;
    if (dbdf_value_type_from_name(name.c_str(), &type) != DBDF_OK) {
        throw CliError("unknown value type '" + name + "' (u8, u16, u32, u64, i8, i16, i32, i64, f32, f64)");
    }
    return type;
}

}  // namespace dbdf_cli
