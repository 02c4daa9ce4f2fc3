// The one exception type of the core: a status code, the rule of docs/format-rules.md that was broken (0 when the
// published layout itself is broken or no rule applies) and the byte offset in the input, with a message.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace dbdf {

// Mirrors dbdf_status_t of the C ABI value for value.
enum class ErrorCode : int {
    InvalidArgument = -1,
    CallOrder = -2,
    BufferTooSmall = -3,
    Io = -4,
    Truncated = -5,
    Format = -6,
    Range = -7,
    NoMemory = -8,
    Unsupported = -9,
    Internal = -10,
    Sink = -11,
};

inline constexpr std::uint64_t kNoOffset = std::numeric_limits<std::uint64_t>::max();

class Error : public std::runtime_error {
public:
    Error(ErrorCode code, std::string message, int rule = 0, std::uint64_t offset = kNoOffset)
        : std::runtime_error(std::move(message)), code_(code), rule_(rule), offset_(offset) {}

    ErrorCode code() const noexcept { return code_; }
    int rule() const noexcept { return rule_; }
    std::uint64_t offset() const noexcept { return offset_; }

private:
    ErrorCode code_;
    int rule_;
    std::uint64_t offset_;
};

// A format violation: `what` describes it, the message gets " at byte N (rule R)" appended.
[[noreturn]] void throw_format(ErrorCode code, int rule, std::uint64_t offset, const std::string& what);

}  // namespace dbdf
