// The per-thread "last error" behind dbdf_last_error_message(), dbdf_last_error_rule() and
// dbdf_last_error_offset().
#pragma once

#include <cstdint>
#include <string_view>

#include "dbdf/error.hpp"

namespace dbdf::capi {

void clear_last_error() noexcept;

// Stores `prefix` followed by `detail` as the thread's last error message, with the rule it names (0 for none)
// and the byte offset (kNoOffset for none). Never throws: when the text cannot be stored (no memory for it), the
// message becomes `fallback`, which must be static text; the rule and the offset are stored all the same.
void set_last_error(std::string_view prefix, std::string_view detail, const char* fallback, int rule = 0,
                    std::uint64_t offset = kNoOffset) noexcept;

}  // namespace dbdf::capi
