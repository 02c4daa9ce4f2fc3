#include "file_output.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf::detail {

FileOutput::FileOutput(int fd, std::filesystem::path name) : fd_(fd), name_(std::move(name)) {}

void FileOutput::write_all(iovec* pieces, std::size_t count) {
    std::size_t next = 0;
    while (next < count) {
        if (pieces[next].iov_len == 0) {
            ++next;
            continue;
        }
        const ssize_t written = ::writev(fd_, pieces + next, static_cast<int>(count - next));
        if (written < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorCode::Io, "cannot write '" + name_.string() + "': " + std::strerror(errno));
        }
        // Skip what was written: whole pieces, then part of the next.
        auto remaining = static_cast<std::size_t>(written);
        while (next < count && remaining >= pieces[next].iov_len) remaining -= pieces[next++].iov_len;
        if (next < count) {
            pieces[next].iov_base = static_cast<std::byte*>(pieces[next].iov_base) + remaining;
            pieces[next].iov_len -= remaining;
        }
    }
}

void FileOutput::append(std::span<const std::byte> first, std::span<const std::byte> second) {
    std::array<iovec, 2> pieces{iovec{const_cast<std::byte*>(first.data()), first.size()},
                                iovec{const_cast<std::byte*>(second.data()), second.size()}};
    write_all(pieces.data(), pieces.size());
}

}  // namespace dbdf::detail
