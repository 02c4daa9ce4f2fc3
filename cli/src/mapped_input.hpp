// A whole input file mapped read-only, so converters can gather any part of it without loading it.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "handles.hpp"

namespace dbdf_cli {

class MappedInput {
public:
    explicit MappedInput(const std::string& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw CliError(path + ": cannot open: " + std::strerror(errno));
        struct stat status {};
        if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
            ::close(fd);
            throw CliError(path + ": not a regular file");
        }
        size_ = static_cast<std::size_t>(status.st_size);
        if (size_ > 0) {
            void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (data == MAP_FAILED) {
                ::close(fd);
                throw CliError(path + ": cannot map: " + std::strerror(errno));
            }
            data_ = static_cast<const std::uint8_t*>(data);
        }
        ::close(fd);
    }
    MappedInput(const MappedInput&) = delete;
    MappedInput& operator=(const MappedInput&) = delete;
    ~MappedInput() {
        if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    }

    const std::uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace dbdf_cli
