#include "text_lines.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "../handles.hpp"

namespace dbdf_cli {

namespace {
constexpr std::size_t kBufferBytes = std::size_t{64} << 10;
}

TextLines::TextLines(const std::string& path) : file_(path), buffer_(kBufferBytes) {}

bool TextLines::fill() {
    begin_ = 0;
    end_ = 0;
    while (!at_end_) {
        const ssize_t got = ::read(file_.descriptor(), buffer_.data(), buffer_.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            throw CliError(
                fmt::format("{}: read failed after line {}: {}", path(), line_number_, std::strerror(errno)));
        }
        if (got == 0) {
            at_end_ = true;
            break;
        }
        end_ = static_cast<std::size_t>(got);
        return true;
    }
    return false;
}

bool TextLines::next(std::string& line) {
    line.clear();
    bool extracted = false;
    for (;;) {
        if (begin_ == end_ && !fill()) break;
        const char* first = buffer_.data() + begin_;
        const auto* newline = static_cast<const char*>(std::memchr(first, '\n', end_ - begin_));
        const std::size_t taken = newline != nullptr ? static_cast<std::size_t>(newline - first) : end_ - begin_;
        if (line.size() + taken > kMaxLineBytes) {
            throw CliError(fmt::format("{}:{}: the line is longer than {} bytes, the most a line of a text input may "
                                       "hold",
                                       path(), line_number_ + 1, kMaxLineBytes),
                           kExitInvalid);
        }
        line.append(first, taken);
        extracted = true;
        begin_ += taken;
        if (newline != nullptr) {
            ++begin_;
            ++bytes_read_;
            break;
        }
    }
    if (!extracted) return false;
    ++line_number_;
    bytes_read_ += line.size();
    return true;
}

}  // namespace dbdf_cli
