// The per-thread "last error" behind dbdf_last_error_message().
#pragma once

#include <string_view>

namespace dbdf::capi {

void clear_last_error() noexcept;

// Stores `prefix` followed by `detail` as the thread's last error. Never throws: when the text cannot be stored
// (no memory for it), the message becomes `fallback`, which must be static text.
void set_last_error(std::string_view prefix, std::string_view detail, const char* fallback) noexcept;

}  // namespace dbdf::capi
