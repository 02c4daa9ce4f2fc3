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

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_io(path, "open", errno);
    try {
        struct stat status {};
        if (::fstat(fd_, &status) != 0) throw_io(path, "inspect", errno);
        if (!S_ISREG(status.st_mode)) throw Error(ErrorCode::Io, "'" + path.string() + "' is not a regular file");
        size_ = static_cast<std::size_t>(status.st_size);
        if (size_ == 0) return;  // mmap cannot map nothing; an empty span serves
        data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
        if (data_ == MAP_FAILED) {
            data_ = nullptr;
            throw_io(path, "map", errno);
        }
        ::madvise(data_, size_, MADV_SEQUENTIAL);
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

MappedFile::~MappedFile() {
    if (data_ != nullptr) ::munmap(data_, size_);
    if (fd_ >= 0) ::close(fd_);
}

std::size_t MappedFile::read_at(std::uint64_t offset, std::span<std::byte> out) const {
    std::size_t done = 0;
    while (done < out.size() && offset + done < size_) {
        const ssize_t got = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            throw_io(path_, "read", errno);
        }
        if (got == 0) break;  // the file shrank under the mapping
        done += static_cast<std::size_t>(got);
    }
    return done;
}

}  // namespace dbdf::detail
