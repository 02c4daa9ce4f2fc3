// The Arrow section of dbdf.h over the core's Arrow stream (dbdf/arrow.hpp).
#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "call_guard.hpp"
#include "dbdf.h"
#include "dbdf/arrow.hpp"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;

namespace {

// The reader handle of a stream that took it over, freed with the last holder; `owned` is set only once the
// stream exists, so that a failed export leaves the handle with the caller.
struct TakenReader {
    dbdf_reader_t* handle = nullptr;
    bool owned = false;
    TakenReader(const TakenReader&) = delete;
    TakenReader& operator=(const TakenReader&) = delete;
    explicit TakenReader(dbdf_reader_t* reader) : handle(reader) {}
    ~TakenReader() {
        if (owned) dbdf_reader_free(handle);
    }
};

// The fields of the caller's options that its struct_size covers; `defaults` for the others.
template <class Options>
Options read_options(const Options* options, Options defaults, const char* init_macro) {
    Options result = defaults;
    if (options == nullptr) return result;
    if (options->struct_size < sizeof(size_t)) {
        throw invalid_argument(std::string("Arrow options: struct_size is not set; initialise with ") + init_macro);
    }
    const std::size_t covered = options->struct_size < sizeof result ? options->struct_size : sizeof result;
    std::memcpy(&result, options, covered);
    result.struct_size = sizeof result;
    return result;
}

}  // namespace

extern "C" {

void dbdf_arrow_export_options_init(dbdf_arrow_export_options_t* options) {
    if (options != nullptr) *options = DBDF_ARROW_EXPORT_OPTIONS_INIT;
}

dbdf_status_t dbdf_reader_export_arrow(dbdf_reader_t* reader, const dbdf_arrow_export_options_t* options,
                                       struct ArrowArrayStream* out) {
    return guarded([&] {
        const dbdf_arrow_export_options_t settings = read_options(
            options, dbdf_arrow_export_options_t DBDF_ARROW_EXPORT_OPTIONS_INIT, "DBDF_ARROW_EXPORT_OPTIONS_INIT");
        dbdf::ArrowExportOptions core_options;
        if (settings.release != nullptr || settings.released != nullptr) {
            // Made first, so that every failure below drops it, calls the hook and sets the flag, as the header
            // promises.
            core_options.keep_alive =
                std::shared_ptr<const void>(nullptr, [release = settings.release, context = settings.release_context,
                                                      released = settings.released](const void*) {
                    if (release != nullptr) release(context);
                    if (released != nullptr) std::atomic_ref<int>(*released).store(1);
                });
        }
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        core_options.dense_layout =
            settings.dense_as_list != 0 ? dbdf::ArrowMatrixLayout::FixedSizeList : dbdf::ArrowMatrixLayout::Columns;
        core_options.sparse_layout =
            settings.csr_as_arrays != 0 ? dbdf::ArrowSparseLayout::Arrays : dbdf::ArrowSparseLayout::Triplets;
        std::shared_ptr<dbdf::Reader> shared_reader;
        std::shared_ptr<TakenReader> taken;
        if (settings.take_reader != 0) {
            taken = std::make_shared<TakenReader>(reader);
            shared_reader = std::shared_ptr<dbdf::Reader>(taken, &reader->reader);
            core_options.zero_copy = true;
        } else {
            // Borrowed: no ownership, and no batch points into the reader, which may be freed before them.
            shared_reader = std::shared_ptr<dbdf::Reader>(std::shared_ptr<dbdf::Reader>(), &reader->reader);
        }
        dbdf::export_arrow_stream(std::move(shared_reader), std::move(core_options), out);
        if (taken) taken->owned = true;
        return DBDF_OK;
    });
}

void dbdf_arrow_import_options_init(dbdf_arrow_import_options_t* options) {
    if (options != nullptr) *options = DBDF_ARROW_IMPORT_OPTIONS_INIT;
}

dbdf_status_t dbdf_writer_import_arrow(dbdf_writer_t* writer, struct ArrowArrayStream* stream, uint64_t rows,
                                       const dbdf_arrow_import_options_t* options) {
    // The stream is released on every path, as the header promises, the argument errors included.
    const dbdf_status_t status = guarded([&] {
        require_pointer(writer, "writer");
        require_pointer(stream, "stream");
        if (stream->release == nullptr) throw invalid_argument("stream is released already");
        const dbdf_arrow_import_options_t settings = read_options(
            options, dbdf_arrow_import_options_t DBDF_ARROW_IMPORT_OPTIONS_INIT, "DBDF_ARROW_IMPORT_OPTIONS_INIT");
        dbdf::ArrowImportOptions core_options;
        core_options.as_matrix = settings.as_matrix != 0;
        core_options.booleans_as_u8 = settings.booleans_as_u8 != 0;
        dbdf::import_arrow_stream(stream, writer->writer, rows, core_options);
        return DBDF_OK;
    });
    if (stream != nullptr && stream->release != nullptr) stream->release(stream);
    return status;
}

}  // extern "C"
