// The message a failing read or write callback leaves with dbdf_set_callback_error(), and the callback wrappers
// that turn a failure into the error of the dbdf call that made the callback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "dbdf.h"

namespace dbdf::capi {

// Forgets the thread's callback message: called before each callback, so that only what the callback itself says
// is reported.
void clear_callback_error() noexcept;

// The message the last callback on this thread gave, prefixed by ": ", or nothing when it gave none.
std::string callback_error_suffix();

// The read function of a dbdf_source_t for the core: -1 and out-of-range returns become Error(Io) naming `offset`.
std::function<std::size_t(std::uint64_t, std::span<std::byte>)> read_function(dbdf_read_at_fn read_at, void* context);

// The write function of a callback sink for the core: a non-zero return becomes Error(Sink) with the callback's
// message.
std::function<bool(std::span<const std::byte>)> write_function(dbdf_write_fn write, void* context);

}  // namespace dbdf::capi
