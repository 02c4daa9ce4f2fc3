#include "error_state.hpp"

#include "dbdf.h"

namespace dbdf::capi {

// Per thread, so concurrent handles on different threads never see each other's messages.
thread_local std::string last_error_message;

void clear_last_error() { last_error_message.clear(); }

void set_last_error(std::string message) { last_error_message = std::move(message); }

}  // namespace dbdf::capi

extern "C" const char* dbdf_last_error_message(void) { return dbdf::capi::last_error_message.c_str(); }
