#include "mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf::detail {
namespace {

[[noreturn]] void throw_io(const std::filesystem::path& path, const char* action, int error_number) {
    throw Error(ErrorCode::Io, "cannot " + std::string(action) + " '" + path.string() + "': " +
                                   std::strerror(error_number));
}

// Closes the descriptor on every path out of the constructor.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) {
    Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) throw_io(path, "open", errno);
    struct stat status {};
    if (::fstat(file.fd, &status) != 0) throw_io(path, "inspect", errno);
    if (!S_ISREG(status.st_mode)) throw Error(ErrorCode::Io, "'" + path.string() + "' is not a regular file");
    size_ = static_cast<std::size_t>(status.st_size);
    if (size_ == 0) return;  // mmap cannot map nothing; an empty span serves
    data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (data_ == MAP_FAILED) {
        data_ = nullptr;
        throw_io(path, "map", errno);
    }
    ::madvise(data_, size_, MADV_SEQUENTIAL);
}

MappedFile::~MappedFile() {
    if (data_ != nullptr) ::munmap(data_, size_);
}

}  // namespace dbdf::detail
