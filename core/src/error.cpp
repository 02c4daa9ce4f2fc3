#include "dbdf/error.hpp"

#include <string>

namespace dbdf {

void throw_format(ErrorCode code, int rule, std::uint64_t offset, const std::string& what) {
    std::string message = what;
    if (offset != kNoOffset) message += " at byte " + std::to_string(offset);
    message += rule == 0 ? " (spec layout)" : " (rule " + std::to_string(rule) + ")";
    throw Error(code, std::move(message), rule, offset);
}

}  // namespace dbdf
