// Section 6 of dbdf.h: output files of any format over the core's file sink, and the signal-time cleanup.
#include <span>

#include "call_guard.hpp"
#include "dbdf.h"
#include "handles.hpp"

using dbdf::capi::guarded;
using dbdf::capi::invalid_argument;
using dbdf::capi::require_pointer;

namespace {

void require_open(const dbdf_file_output_t* output) {
    if (output->ended) {
        throw dbdf::Error(dbdf::ErrorCode::CallOrder,
                          "the output is committed or its commit failed; only free remains");
    }
}

}  // namespace

extern "C" {

dbdf_status_t dbdf_file_output_open(const char* path, int durable, dbdf_file_output_t** out) {
    return guarded([&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        auto sink = dbdf::make_file_sink(path, durable != 0 ? dbdf::FileCommit::Durable : dbdf::FileCommit::Atomic);
        *out = new dbdf_file_output{std::move(sink)};
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_file_output_write(dbdf_file_output_t* output, const void* data, size_t nbytes) {
    return guarded([&] {
        require_pointer(output, "output");
        if (data == nullptr && nbytes > 0)
            throw invalid_argument("data is NULL but nbytes is " + std::to_string(nbytes));
        require_open(output);
        if (nbytes > 0) output->sink->write(std::span<const std::byte>(static_cast<const std::byte*>(data), nbytes));
        return DBDF_OK;
    });
}

dbdf_status_t dbdf_file_output_commit(dbdf_file_output_t* output) {
    return guarded([&] {
        require_pointer(output, "output");
        require_open(output);
        output->ended = true;
        output->sink->commit();
        return DBDF_OK;
    });
}

void dbdf_file_output_free(dbdf_file_output_t* output) { delete output; }

void dbdf_remove_temporary_files(void) { dbdf::remove_temporary_files(); }

}  // extern "C"
