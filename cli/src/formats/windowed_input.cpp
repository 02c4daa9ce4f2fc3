#include "windowed_input.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "../handles.hpp"

namespace dbdf_cli {

WindowedInput::WindowedInput(const std::string& path) : file_(path) {}

void WindowedInput::read_fully(std::uint64_t offset, std::size_t count, std::uint8_t* destination) {
    for (std::size_t done = 0; done < count;) {
        const ssize_t got =
            ::pread(file_.descriptor(), destination + done, count - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            throw CliError(fmt::format("{}: read failed at offset {}: {}", file_.path(), offset + done,
                                       got == 0 ? "the file got shorter" : std::strerror(errno)));
        }
        done += static_cast<std::size_t>(got);
    }
}

const std::uint8_t* WindowedInput::bytes(std::uint64_t offset, std::size_t count) {
    file_.check_within(offset, count);
    if (offset >= window_offset_ && offset + count <= window_offset_ + window_.size()) {
        return window_.data() + (offset - window_offset_);
    }
    window_.resize(std::max<std::uint64_t>(count, std::min<std::uint64_t>(next_window_bytes_, file_.size() - offset)));
    window_offset_ = offset;
    next_window_bytes_ = std::min(kWindowBytes, 2 * next_window_bytes_);
    try {
        read_fully(offset, window_.size(), window_.data());
    } catch (...) {
        window_.clear();
        throw;
    }
    return window_.data();
}

void WindowedInput::read_into(std::uint64_t offset, std::size_t count, std::uint8_t* destination) {
    file_.check_within(offset, count);
    read_fully(offset, count, destination);
}

}  // namespace dbdf_cli
