#include "file_output.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf::detail {

void FileOutput::append(std::span<const std::byte> first, std::span<const std::byte> second) {
    std::array<iovec, 2> pieces{iovec{const_cast<std::byte*>(first.data()), first.size()},
                                iovec{const_cast<std::byte*>(second.data()), second.size()}};
    std::size_t next = 0;
    while (next < pieces.size()) {
        if (pieces[next].iov_len == 0) {
            ++next;
            continue;
        }
        const ssize_t written = ::writev(fd_, pieces.data() + next, static_cast<int>(pieces.size() - next));
        if (written < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorCode::Io, "cannot write '" + name_.string() + "': " + std::strerror(errno));
        }
        // Skip what was written: whole pieces, then part of the next.
        auto remaining = static_cast<std::size_t>(written);
        while (next < pieces.size() && remaining >= pieces[next].iov_len) remaining -= pieces[next++].iov_len;
        if (next < pieces.size()) {
            pieces[next].iov_base = static_cast<std::byte*>(pieces[next].iov_base) + remaining;
            pieces[next].iov_len -= remaining;
        }
    }
}

}  // namespace dbdf::detail
