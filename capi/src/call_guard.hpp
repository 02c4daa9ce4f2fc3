// Every exported function body runs inside guarded(): it clears the thread's last error, runs the body and turns
// every exception into a status code plus message. This is the only place exceptions are caught, so none can
// cross the C interface.
#pragma once

#include <cstddef>
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

// An output buffer of `capacity` elements may be NULL only when the capacity is 0.
template <class Element>
void require_buffer(Element* buffer, const char* name, std::size_t capacity) {
    if (buffer == nullptr && capacity > 0) {
        throw invalid_argument(std::string(name) + " is NULL but its capacity is " + std::to_string(capacity));
    }
}

// The handlers below only store text through set_last_error(), which cannot throw: an exception escaping them
// would end the program, since guarded() is noexcept. When a message cannot be stored for lack of memory, a static
// text takes its place and the status is kept.
template <class Body>
dbdf_status_t guarded(Body&& body) noexcept {
    clear_last_error();
    try {
        return body();
    } catch (const Error& error) {
        // Only data errors carry a rule through the interface, as dbdf.h promises (the writer's argument checks
        // cite rules in their text only).
        const bool data_error = error.code() == ErrorCode::Truncated || error.code() == ErrorCode::Format ||
                                error.code() == ErrorCode::Range;
        set_last_error({}, error.what(), "dbdf error (its message could not be stored: out of memory)",
                       data_error ? error.rule() : 0, error.offset());
        return static_cast<dbdf_status_t>(error.code());
    } catch (const std::bad_alloc&) {
        set_last_error({}, "out of memory", "out of memory");
        return DBDF_ERR_NOMEM;
    } catch (const std::exception& error) {
        set_last_error("internal error: ", error.what(), "internal error (its message could not be stored)");
        return DBDF_ERR_INTERNAL;
    } catch (...) {
        set_last_error("internal error: unknown exception", {}, "internal error: unknown exception");
        return DBDF_ERR_INTERNAL;
    }
}

}  // namespace dbdf::capi
