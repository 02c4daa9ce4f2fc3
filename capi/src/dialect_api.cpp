// Section 5 of dbdf.h: choosing the dialect when opening readers and writers, and what only the daphne dialect
// has to say (labels that could not be recovered, payload layouts).
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "call_guard.hpp"
#include "callback_errors.hpp"
#include "conversions.hpp"
#include "dbdf.h"
#include "dbdf/dialect.hpp"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;

namespace {

// Whether the caller's struct is large enough to contain `field` (older callers have a smaller one). Only the
// field's address is computed here; nothing beyond struct_size is read.
template <class Options, class Field>
bool has_field(const Options& options, const Field& field, const char* what) {
    if (options.struct_size < sizeof(size_t)) {
        throw invalid_argument(std::string(what) +
                               ": struct_size is not set; initialise the options with their _INIT macro");
    }
    const auto field_end =
        static_cast<std::size_t>(reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&options)) +
        sizeof(Field);
    return options.struct_size >= field_end;
}

struct ReaderChoice {
    dbdf::Dialect dialect = dbdf::Dialect::Spec;
    unsigned threads = 0;
    dbdf::FileAccess access = dbdf::FileAccess::PositionedReads;
};

ReaderChoice reader_choice(const dbdf_open_options_t* options) {
    ReaderChoice choice;
    if (options == nullptr) return choice;
    if (has_field(*options, options->dialect, "open options"))
        choice.dialect = dbdf::capi::to_dialect(options->dialect);
    if (has_field(*options, options->threads, "open options")) choice.threads = options->threads;
    if (has_field(*options, options->memory_map, "open options")) {
        if (options->memory_map != 0 && options->memory_map != 1) {
            throw invalid_argument("open options: memory_map is " + std::to_string(options->memory_map) +
                                   "; it must be 0 (positioned reads) or 1 (memory mapping)");
        }
        if (options->memory_map == 1) choice.access = dbdf::FileAccess::Map;
    }
    return choice;
}

struct WriterChoice {
    dbdf::Dialect dialect = dbdf::Dialect::Spec;
    bool write_meta = true;
    bool durable = false;
    unsigned threads = 0;

    dbdf::FileCommit commit() const { return durable ? dbdf::FileCommit::Durable : dbdf::FileCommit::Atomic; }
};

WriterChoice writer_choice(const dbdf_writer_options_t* options) {
    WriterChoice choice;
    if (options == nullptr) return choice;
    if (has_field(*options, options->dialect, "writer options"))
        choice.dialect = dbdf::capi::to_dialect(options->dialect);
    if (has_field(*options, options->write_meta, "writer options")) choice.write_meta = options->write_meta != 0;
    if (has_field(*options, options->durable, "writer options")) choice.durable = options->durable != 0;
    if (has_field(*options, options->threads, "writer options")) choice.threads = options->threads;
    return choice;
}

// Calls a source's release exactly once: when the reader built over it is destroyed, or when opening fails.
class SourceRelease {
public:
    SourceRelease(void (*release)(void*), void* context) : release_(release), context_(context) {}
    SourceRelease(const SourceRelease&) = delete;
    SourceRelease& operator=(const SourceRelease&) = delete;
    ~SourceRelease() {
        if (release_ != nullptr) release_(context_);
    }

private:
    void (*release_)(void*);
    void* context_;
};

// Takes over the release of `source` before anything else can fail, so that every failure releases it once.
std::shared_ptr<SourceRelease> own_release(const dbdf_source_t& source) {
    try {
        return std::make_shared<SourceRelease>(source.release, source.context);
    } catch (...) {
        if (source.release != nullptr) source.release(source.context);
        throw;
    }
}

dbdf::Reader open_caller_source(const dbdf_source_t& source, std::shared_ptr<SourceRelease> release,
                                const dbdf_open_options_t* options) {
    // The 0.2.0 struct ended with `release`; later fields are read only when the caller's struct has them.
    constexpr std::size_t first_struct_size = offsetof(dbdf_source_t, release) + sizeof(source.release);
    if (source.struct_size < first_struct_size) {
        throw invalid_argument("source: struct_size is " + std::to_string(source.struct_size) + ", smaller than " +
                               std::to_string(first_struct_size) + "; initialise it with DBDF_SOURCE_INIT");
    }
    const std::uint32_t flags = has_field(source, source.flags, "source") ? source.flags : 0;
    if ((flags & ~DBDF_SOURCE_CONCURRENT_READS) != 0) {
        throw invalid_argument("source: flags " + std::to_string(flags) +
                               " hold bits other than DBDF_SOURCE_CONCURRENT_READS (1)");
    }
    const ReaderChoice choice = reader_choice(options);
    if (choice.access != dbdf::FileAccess::PositionedReads) {
        throw invalid_argument("open options: memory_map must be 0 for a byte source");
    }
    dbdf::ReadAtSource core_source;
    // The reader keeps the read function, and with it the release, for as long as it lives.
    core_source.read_at = [read = dbdf::capi::read_function(source.read_at, source.context),
                           owner = std::move(release)](std::uint64_t offset, std::span<std::byte> destination) {
        return read(offset, destination);
    };
    if (source.size != DBDF_SOURCE_SIZE_UNKNOWN) core_source.size = source.size;
    core_source.read_ahead = source.read_ahead;
    core_source.concurrent_reads = (flags & DBDF_SOURCE_CONCURRENT_READS) != 0;
    dbdf::Reader reader = dbdf::Reader::open_source(std::move(core_source), choice.dialect);
    reader.set_decode_threads(choice.threads);
    return reader;
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
        const ReaderChoice choice = reader_choice(options);
        *out = new dbdf_reader{dbdf::Reader::open_file(path, choice.dialect, choice.access)};
        (*out)->reader.set_decode_threads(choice.threads);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_open_memory_with_options(const void* data, size_t nbytes, const dbdf_open_options_t* options,
                                                   dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (data == nullptr && nbytes > 0) throw invalid_argument("data is NULL but nbytes is not 0");
        const ReaderChoice choice = reader_choice(options);
        const std::span<const std::byte> input(static_cast<const std::byte*>(data), data == nullptr ? 0 : nbytes);
        *out = new dbdf_reader{dbdf::Reader::open_memory(input, choice.dialect)};
        (*out)->reader.set_decode_threads(choice.threads);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_reader_open_source(const dbdf_source_t* source, const dbdf_open_options_t* options,
                                      dbdf_reader_t** out) {
    return guarded([&] {
        require_pointer(source, "source");
        require_pointer(source->read_at, "source->read_at");
        auto release = own_release(*source);
        require_pointer(out, "out");
        *out = new dbdf_reader{open_caller_source(*source, std::move(release), options)};
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
        auto sink = dbdf::make_file_sink(path, choice.commit());
        dbdf::WriterDialect dialect{choice.dialect, {}, choice.commit()};
        // A device, FIFO or /dev/stdout gets no sidecar: "/dev/null.meta" would be a new file in /dev.
        if (choice.dialect == dbdf::Dialect::Daphne && choice.write_meta && !sink->writes_through()) {
            dialect.meta_sidecar = std::string(path) + ".meta";
        }
        *out = new dbdf_writer{dbdf::Writer(std::move(sink), std::move(dialect)), nullptr};
        (*out)->writer.set_encode_threads(choice.threads);
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
        (*out)->writer.set_encode_threads(choice.threads);
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_writer_open_callback_with_options(dbdf_write_fn write, void* context,
                                                     const dbdf_writer_options_t* options, dbdf_writer_t** out) {
    return guarded([&] {
        require_pointer(out, "out");
        if (write == nullptr) throw invalid_argument("write is NULL");
        const WriterChoice choice = writer_choice(options);
        auto sink = std::make_unique<dbdf::CallbackSink>(dbdf::capi::write_function(write, context));
        *out = new dbdf_writer{dbdf::Writer(std::move(sink), dbdf::WriterDialect{choice.dialect, {}}), nullptr};
        (*out)->writer.set_encode_threads(choice.threads);
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
