// The per-thread "last error" behind dbdf_last_error_message().
#pragma once

#include <string>

namespace dbdf::capi {

void clear_last_error();
void set_last_error(std::string message);

}  // namespace dbdf::capi
