#include "file_output.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf::detail {
namespace {

// The kernel copies written bytes into the page cache with `rep movsb`, and the page cache's address of a byte has
// the low 12 bits of its file offset. When the destination lies 1 to 31 bytes past the source modulo 4096, the
// copy's loads alias (in the low 12 address bits) the stores it has just made, and it runs at under half its speed:
// measured on this project's benchmark machine (AMD EPYC), 0.8 GB/s at distances 1 to 31 against 1.8 to 2.1 GB/s at
// 0 and at 32 to 4095, and 4 MiB written to a new file in 3.2 ms at 29 bytes against 1.5 ms at 45 (bench/RESULTS.md,
// "Random doubles at memory speed"). A NumPy array's values start 16 bytes into a page, and a dense matrix's first
// payload 45 bytes into the file (19 bytes of object header, 26 of record header): its first block falls in that
// window. Staging costs an extra copy, more than a write at a good distance costs, so only the slow window is staged.
constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kAliasingDistance = 31;

}  // namespace

bool FileOutput::staged(std::uint64_t file_offset, const std::byte* source) {
    const std::uintptr_t distance =
        (static_cast<std::uintptr_t>(file_offset) - reinterpret_cast<std::uintptr_t>(source)) % kPage;
    return distance != 0 && distance <= kAliasingDistance;
}

FileOutput::FileOutput(int fd, std::filesystem::path name) : fd_(fd), name_(std::move(name)) {}

FileOutput::~FileOutput() = default;

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

std::size_t FileOutput::staging_shift(std::uint64_t file_offset, const std::byte* buffer) {
    const std::uintptr_t wanted = (static_cast<std::uintptr_t>(file_offset) + kPage - kStagingDistance) % kPage;
    return (wanted - reinterpret_cast<std::uintptr_t>(buffer) % kPage + kPage) % kPage;
}

void FileOutput::append(std::span<const std::byte> first, std::span<const std::byte> second) {
    if (second.size() >= kStagingFrom) {
        // Where the payload lands: the descriptor's position (a pipe or a device has none: -1, never staged).
        const off_t position = ::lseek(fd_, 0, SEEK_CUR);
        const std::uint64_t payload_offset = static_cast<std::uint64_t>(position) + first.size();
        if (position >= 0 && staged(payload_offset, second.data())) {
            append_staged(first, second, payload_offset);
            return;
        }
    }
    std::array<iovec, 2> pieces{iovec{const_cast<std::byte*>(first.data()), first.size()},
                                iovec{const_cast<std::byte*>(second.data()), second.size()}};
    write_all(pieces.data(), pieces.size());
}

// The payload in pieces through a staging buffer placed half a page before the payload's file offset modulo 4096:
// the kernel's copy out of it then runs at a distance of 2048, a multiple of 32, where `rep movsb` is fastest
// (placed_payload.hpp), and ours into it at the payload's distance plus 2048, far from aliasing. Every piece but the
// last is a multiple of 4096 bytes, so one placement serves them all. The buffer stays in the L2 cache, so the
// kernel's copy reads it from there: the extra copy costs less than the aliasing it avoids.
void FileOutput::append_staged(std::span<const std::byte> first, std::span<const std::byte> second,
                               std::uint64_t payload_offset) {
    if (!staging_) staging_.reset(new std::byte[kStagingBytes + kPage]);  // not zeroed: only what is copied is used
    std::byte* const staging = staging_.get() + staging_shift(payload_offset, staging_.get());
    std::span<const std::byte> header = first;
    for (std::size_t done = 0; done < second.size();) {
        const std::size_t piece = std::min(kStagingBytes, second.size() - done);
        std::memcpy(staging, second.data() + done, piece);
        std::array<iovec, 2> pieces{iovec{const_cast<std::byte*>(header.data()), header.size()}, iovec{staging, piece}};
        write_all(pieces.data(), pieces.size());
        header = {};
        done += piece;
    }
}

}  // namespace dbdf::detail
