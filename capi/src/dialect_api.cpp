// Section 5 of dbdf.h: choosing the dialect when opening readers and writers, and what only the daphne dialect
// has to say (labels that could not be recovered, payload layouts).
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "call_guard.hpp"
#include "dbdf.h"
#include "dbdf/dialect.hpp"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;

namespace {

// The dialect field as the int C stored: a value outside the enum must be reported, not loaded as the enum.
dbdf::Dialect dialect_field(const dbdf_dialect_t& field) {
    int code = 0;
    static_assert(sizeof code == sizeof field);
    std::memcpy(&code, &field, sizeof code);
    if (code != DBDF_DIALECT_SPEC && code != DBDF_DIALECT_DAPHNE) {
        throw invalid_argument("dialect " + std::to_string(code) + " is unknown (DBDF_DIALECT_SPEC or DBDF_DIALECT_DAPHNE)");
    }
    return static_cast<dbdf::Dialect>(code);
}

// Fields are read only when the caller's struct is large enough to contain them (older callers).
template <class Options>
bool has_field(const Options& options, std::size_t field_end, const char* what) {
    if (options.struct_size < sizeof(size_t)) {
        throw invalid_argument(std::string(what) + ": struct_size is not set; initialise the options with their _INIT macro");
    }
    return options.struct_size >= field_end;
}

dbdf::Dialect reader_dialect(const dbdf_open_options_t* options) {
    if (options == nullptr) return dbdf::Dialect::Spec;
    if (!has_field(*options, offsetof(dbdf_open_options_t, dialect) + sizeof(options->dialect), "open options")) {
        return dbdf::Dialect::Spec;
    }
    return dialect_field(options->dialect);
}

struct WriterChoice {
    dbdf::Dialect dialect = dbdf::Dialect::Spec;
    bool write_meta = true;
};

WriterChoice writer_choice(const dbdf_writer_options_t* options) {
    WriterChoice choice;
    if (options == nullptr) return choice;
    if (has_field(*options, offsetof(dbdf_writer_options_t, dialect) + sizeof(options->dialect), "writer options")) {
        choice.dialect = dialect_field(options->dialect);
    }
    if (has_field(*options, offsetof(dbdf_writer_options_t, write_meta) + sizeof(options->write_meta), "writer options")) {
        choice.write_meta = options->write_meta != 0;
    }
    return choice;
}

}  // namespace

extern "C" {

const char* dbdf_dialect_name(dbdf_dialect_t dialect) {
    const int code = static_cast<int>(dialect);
    if (code != DBDF_DIALECT_SPEC && code != DBDF_DIALECT_DAPHNE) return "unknown";
    return dbdf::name(static_cast<dbdf::Dialect>(code)).data();
}

dbdf_status_t dbdf_dialect_from_name(const char* name, dbdf_dialect_t* out) {
    return guarded([&] {
        require_pointer(name, "name");
        require_pointer(out, "out");
        const auto dialect = dbdf::parse_dialect(name);
        if (!dialect) throw invalid_argument(std::string("dialect name '") + name + "' is unknown (spec, daphne)");
        *out = static_cast<dbdf_dialect_t>(*dialect);
        return DBDF_OK;
    });
}

void dbdf_open_options_init(dbdf_open_options_t* options) {
    if (options == nullptr) return;
    *options = dbdf_open_options_t DBDF_OPEN_OPTIONS_INIT;
}

dbdf_status_t dbdf_reader_open_file_with_options(const char* path, const dbdf_open_options_t* options,
                                                 dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        const dbdf::Dialect dialect = reader_dialect(options);
        *out = new dbdf_reader{dbdf::Reader::open_file(path, dialect)};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_open_memory_with_options(const void* data, size_t nbytes, const dbdf_open_options_t* options,
                                                   dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (data == nullptr && nbytes > 0) throw invalid_argument("data is NULL but nbytes is not 0");
        const dbdf::Dialect dialect = reader_dialect(options);
        const std::span<const std::byte> input(static_cast<const std::byte*>(data), data == nullptr ? 0 : nbytes);
        *out = new dbdf_reader{dbdf::Reader::open_memory(input, dialect)};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_dialect(const dbdf_reader_t* reader, dbdf_dialect_t* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        *out = static_cast<dbdf_dialect_t>(reader->reader.dialect());
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_labels_recoverable(const dbdf_reader_t* reader, int* out) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        *out = reader->reader.header().labels_recoverable ? 1 : 0;
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_block_payload_layout(const dbdf_reader_t* reader, dbdf_payload_layout_t* out_layout,
                                               uint64_t* out_value_stride) {
    return guarded([&] {
        require_pointer(reader, "reader");
        require_pointer(out_layout, "out_layout");
        const dbdf::BlockView& block = reader->reader.block();
        *out_layout = static_cast<dbdf_payload_layout_t>(block.layout);
        if (out_value_stride != nullptr) {
            *out_value_stride = block.layout == dbdf::PayloadLayout::StridedColumn ? block.value_stride : 0;
        }
        return DBDF_OK;
    });
}

void dbdf_writer_options_init(dbdf_writer_options_t* options) {
    if (options == nullptr) return;
    *options = dbdf_writer_options_t DBDF_WRITER_OPTIONS_INIT;
}

dbdf_status_t dbdf_writer_open_file_with_options(const char* path, const dbdf_writer_options_t* options,
                                                 dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        const WriterChoice choice = writer_choice(options);
        dbdf::WriterDialect dialect{choice.dialect, {}};
        if (choice.dialect == dbdf::Dialect::Daphne && choice.write_meta) dialect.meta_sidecar = std::string(path) + ".meta";
        *out = new dbdf_writer{dbdf::Writer(dbdf::make_file_sink(path), std::move(dialect)), nullptr};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_open_memory_with_options(const dbdf_writer_options_t* options, dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        const WriterChoice choice = writer_choice(options);
        auto sink = std::make_unique<dbdf::MemorySink>();
        dbdf::MemorySink* memory = sink.get();
        *out = new dbdf_writer{dbdf::Writer(std::move(sink), dbdf::WriterDialect{choice.dialect, {}}), memory};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_open_callback_with_options(dbdf_write_fn write, void* context,
                                                     const dbdf_writer_options_t* options, dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (write == nullptr) throw invalid_argument("write is NULL");
        const WriterChoice choice = writer_choice(options);
        auto sink = std::make_unique<dbdf::CallbackSink>([write, context](std::span<const std::byte> bytes) {
            return write(context, bytes.data(), bytes.size()) == 0;
        });
        *out = new dbdf_writer{dbdf::Writer(std::move(sink), dbdf::WriterDialect{choice.dialect, {}}), nullptr};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_dialect(const dbdf_writer_t* writer, dbdf_dialect_t* out) {
    return guarded([&] {
        require_pointer(writer, "writer");
        require_pointer(out, "out");
        *out = static_cast<dbdf_dialect_t>(writer->writer.dialect());
        return DBDF_OK;
    });
}

}  // extern "C"
