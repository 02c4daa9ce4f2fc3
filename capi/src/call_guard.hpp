// Every exported function body runs inside guarded(): it clears the thread's last error, runs the body and turns
// every exception into a status code plus message. This is the only place exceptions are caught, so none can
// cross the C interface.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "dbdf.h"
#include "dbdf/error.hpp"
#include "error_state.hpp"

namespace dbdf::capi {

// Thrown by argument checks: becomes DBDF_ERR_INVALID_ARGUMENT with the message.
inline Error invalid_argument(const std::string& message) { return Error(ErrorCode::InvalidArgument, message); }

template <class Pointer>
void require_pointer(Pointer* pointer, const char* name) {
    if (pointer == nullptr) throw invalid_argument(std::string(name) + " is NULL");
}

template <class Body>
dbdf_status_t guarded(Body&& body) noexcept {
    clear_last_error();
    try {
        return body();
    } catch (const Error& error) {
        set_last_error(error.what());
        return static_cast<dbdf_status_t>(error.code());
    } catch (const std::bad_alloc&) {
        set_last_error("out of memory");
        return DBDF_ERR_NOMEM;
    } catch (const std::exception& error) {
        set_last_error(std::string("internal error: ") + error.what());
        return DBDF_ERR_INTERNAL;
    } catch (...) {
        set_last_error("internal error: unknown exception");
        return DBDF_ERR_INTERNAL;
    }
}

}  // namespace dbdf::capi
