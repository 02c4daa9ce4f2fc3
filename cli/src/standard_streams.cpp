#include "standard_streams.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "handles.hpp"

namespace dbdf_cli {
namespace {

std::string temporary_directory() {
    const char* directory = std::getenv("TMPDIR");
    return directory != nullptr && directory[0] != '\0' ? directory : "/tmp";
}

// An unnamed file in `directory`: O_TMPFILE where the file system has it, else a file made by mkstemp and removed
// at once. Either way nothing of it outlives the process.
int unnamed_file(const std::string& directory) {
#ifdef O_TMPFILE
    const int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
#endif
    std::string name = directory + "/.dbdf-stdin-XXXXXX";
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    const int made = ::mkstemp(buffer.data());
    if (made < 0) {
        throw CliError("-: cannot create a temporary file in " + directory +
                       " for standard input: " + std::strerror(errno));
    }
    ::unlink(buffer.data());
    ::fcntl(made, F_SETFD, FD_CLOEXEC);
    return made;
}

void write_all(int fd, const char* data, std::size_t size, const std::string& directory) {
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            const int error = written < 0 ? errno : ENOSPC;
            throw CliError("-: cannot copy standard input into a temporary file in " + directory + ": " +
                           std::strerror(error) + " (set TMPDIR to a directory with room)");
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
}

// Copies the rest of standard input into an unnamed file; returns its descriptor (kept open until the process ends).
int copy_standard_input() {
    const std::string directory = temporary_directory();
    const int fd = unnamed_file(directory);
    std::vector<char> buffer(std::size_t{1} << 20);
    for (;;) {
        const ssize_t got = ::read(STDIN_FILENO, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            throw CliError(std::string("-: cannot read standard input: ") + std::strerror(error));
        }
        if (got == 0) break;
        try {
            write_all(fd, buffer.data(), static_cast<std::size_t>(got), directory);
        } catch (...) {
            ::close(fd);
            throw;
        }
    }
    return fd;
}

std::string open_standard_input() {
    struct stat status {};
    if (::fstat(STDIN_FILENO, &status) != 0) {
        throw CliError(std::string("-: standard input is not open: ") + std::strerror(errno));
    }
    if (::isatty(STDIN_FILENO) != 0) {
        throw CliError("-: standard input is a terminal; pipe or redirect the data into the tool, or name a file");
    }
    // A regular file read from its start (`dbdf info - < x.dbdf`) is opened again through its descriptor: no copy.
    if (S_ISREG(status.st_mode) && ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
        if (status.st_size == 0) throw CliError("-: standard input is empty");
        return "/dev/fd/0";
    }
    const int fd = copy_standard_input();
    if (::fstat(fd, &status) != 0 || status.st_size == 0) {
        ::close(fd);
        throw CliError("-: standard input is empty");
    }
    return "/dev/fd/" + std::to_string(fd);
}

}  // namespace

std::string input_to_open(const std::string& path) {
    if (!is_standard_stream(path)) return path;
    // Standard input can be read once: the first caller copies it, every later one opens the same copy.
    static std::optional<std::string> opened;
    if (!opened) opened = open_standard_input();
    return *opened;
}

}  // namespace dbdf_cli
