#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "../handles.hpp"

namespace dbdf_cli {

std::string file_kind(unsigned mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "a file of an unknown kind";
}

InputFile::InputFile(const std::string& path) : path_(path) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It changes nothing for a regular
    // file, and is cleared below all the same, so that reads behave the ordinary way.
    fd_ = ::open(input_to_open(path).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd_ < 0) throw CliError(path + ": cannot open: " + std::strerror(errno));
    struct stat status {};
    if (::fstat(fd_, &status) != 0) {
        const int error = errno;
        ::close(fd_);
        throw CliError(path + ": cannot read its status: " + std::strerror(error));
    }
    if (!S_ISREG(status.st_mode)) {
        ::close(fd_);
        // The data of a pipe (/dev/stdin, a shell's <(...)) can be piped into standard input and named "-" instead.
        const bool pipe = S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode);
        throw CliError(path + ": is " + file_kind(status.st_mode) +
                       ", not a regular file (an input is read twice or by its size, so it must be a regular file" +
                       (pipe ? "; give - to have standard input copied into one)" : ")"));
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
    size_ = static_cast<std::uint64_t>(status.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

void InputFile::check_within(std::uint64_t offset, std::uint64_t count) const {
    if (offset > size_ || count > size_ - offset) {
        throw CliError(fmt::format("{}: {} bytes at offset {} are past the end of the file ({} bytes)", path_, count,
                                   offset, size_),
                       kExitInvalid);
    }
}

}  // namespace dbdf_cli
