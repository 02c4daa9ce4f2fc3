#include "windowed_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "../handles.hpp"

namespace dbdf_cli {

WindowedInput::WindowedInput(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw CliError(path + ": cannot open: " + std::strerror(errno));
    struct stat status {};
    if (::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode)) {
        ::close(fd_);
        throw CliError(path + ": not a regular file");
    }
    size_ = static_cast<std::uint64_t>(status.st_size);
}

WindowedInput::~WindowedInput() { ::close(fd_); }

const std::uint8_t* WindowedInput::bytes(std::uint64_t offset, std::size_t count) {
    if (offset > size_ || count > size_ - offset) {
        throw CliError(fmt::format("{}: {} bytes at offset {} are past the end of the file ({} bytes)", path_, count,
                                   offset, size_),
                       kExitInvalid);
    }
    if (offset >= window_offset_ && offset + count <= window_offset_ + window_.size()) {
        return window_.data() + (offset - window_offset_);
    }
    window_.resize(std::max<std::uint64_t>(count, std::min<std::uint64_t>(kWindowBytes, size_ - offset)));
    window_offset_ = offset;
    for (std::size_t done = 0; done < window_.size();) {
        const ssize_t got =
            ::pread(fd_, window_.data() + done, window_.size() - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            window_.clear();
            throw CliError(fmt::format("{}: read failed at offset {}: {}", path_, offset + done,
                                       got == 0 ? "the file got shorter" : std::strerror(errno)));
        }
        done += static_cast<std::size_t>(got);
    }
    return window_.data();
}

}  // namespace dbdf_cli
