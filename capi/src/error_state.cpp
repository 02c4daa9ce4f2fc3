#include "error_state.hpp"

#include <string>

#include "dbdf.h"

namespace dbdf::capi {
namespace {

// Per thread, so concurrent handles on different threads never see each other's messages.
thread_local std::string last_error_message;
// Static text shown instead of last_error_message when the message could not be stored; null otherwise.
thread_local const char* fallback_message = nullptr;
// The rule and the byte offset the message names, as numbers (0 and kNoOffset when it names none).
thread_local int last_error_rule = 0;
thread_local std::uint64_t last_error_offset = kNoOffset;

static_assert(kNoOffset == DBDF_NO_OFFSET, "the core's and the C interface's 'no offset' must be the same value");

}  // namespace

void clear_last_error() noexcept {
    last_error_message.clear();
    fallback_message = nullptr;
    last_error_rule = 0;
    last_error_offset = kNoOffset;
}

void set_last_error(std::string_view prefix, std::string_view detail, const char* fallback, int rule,
                    std::uint64_t offset) noexcept {
    last_error_rule = rule;
    last_error_offset = offset;
    try {
        last_error_message.reserve(prefix.size() + detail.size());
        last_error_message.assign(prefix);
        last_error_message.append(detail);
        fallback_message = nullptr;
    } catch (...) {
        last_error_message.clear();
        fallback_message = fallback;
    }
}

}  // namespace dbdf::capi

extern "C" const char* dbdf_last_error_message(void) {
    using namespace dbdf::capi;
    return fallback_message != nullptr ? fallback_message : last_error_message.c_str();
}

extern "C" int dbdf_last_error_rule(void) { return dbdf::capi::last_error_rule; }

extern "C" uint64_t dbdf_last_error_offset(void) { return dbdf::capi::last_error_offset; }
