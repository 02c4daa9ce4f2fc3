// The Arrow section of dbdf.h over the core's Arrow stream (dbdf/arrow.hpp).
#include <cstring>
#include <memory>

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

// The fields of the caller's options that its struct_size covers.
dbdf_arrow_export_options_t read_options(const dbdf_arrow_export_options_t* options) {
    dbdf_arrow_export_options_t result = DBDF_ARROW_EXPORT_OPTIONS_INIT;
    if (options == nullptr) return result;
    if (options->struct_size < sizeof(size_t)) {
        throw invalid_argument("Arrow export options: struct_size is not set; initialise with "
                               "DBDF_ARROW_EXPORT_OPTIONS_INIT");
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
        const dbdf_arrow_export_options_t settings = read_options(options);
        dbdf::ArrowExportOptions core_options;
        if (settings.release != nullptr) {
            // Made first, so that every failure below drops it and calls the hook, as the header promises.
            core_options.keep_alive = std::shared_ptr<const void>(
                nullptr, [release = settings.release, context = settings.release_context](const void*) {
                    release(context);
                });
        }
        require_pointer(reader, "reader");
        require_pointer(out, "out");
        core_options.dense_layout =
            settings.dense_as_list != 0 ? dbdf::ArrowMatrixLayout::FixedSizeList : dbdf::ArrowMatrixLayout::Columns;
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

}  // extern "C"
