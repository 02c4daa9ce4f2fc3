#include "dbdf/sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "dbdf/error.hpp"

namespace dbdf {
namespace {

[[noreturn]] void throw_io(const std::string& what, const std::filesystem::path& path, int error_number) {
    throw Error(ErrorCode::Io, what + " '" + path.string() + "': " + std::strerror(error_number));
}

// Writes to "<dir>/.<name>.<random>.tmp" and renames it over the target on commit. The temporary file lives in
// the target's directory so the rename is atomic (same file system).
class FileSink final : public ByteSink {
public:
    explicit FileSink(std::filesystem::path target) : target_(std::move(target)) {
        const std::filesystem::path directory =
            target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
        std::string pattern = (directory / ("." + target_.filename().string() + ".XXXXXX.tmp")).string();
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        fd_ = ::mkstemps(name.data(), 4);
        if (fd_ < 0) throw_io("cannot create a temporary file next to", target_, errno);
        temporary_ = name.data();
        // mkstemps creates 0600; give the result the permissions a plain creat() would.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd_, 0666 & ~mask);
    }

    ~FileSink() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temporary_.c_str());
    }

    void write(std::span<const std::byte> bytes) override {
        const std::byte* data = bytes.data();
        std::size_t remaining = bytes.size();
        while (remaining > 0) {
            const ssize_t written = ::write(fd_, data, remaining);
            if (written < 0) {
                if (errno == EINTR) continue;
                throw_io("cannot write", temporary_, errno);
            }
            data += written;
            remaining -= static_cast<std::size_t>(written);
        }
    }

    void commit() override {
        if (::fsync(fd_) != 0) throw_io("cannot sync", temporary_, errno);
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw_io("cannot close", temporary_, errno);
        if (::rename(temporary_.c_str(), target_.c_str()) != 0) throw_io("cannot rename the temporary file to", target_, errno);
        committed_ = true;
        // Make the rename itself durable.
        const std::filesystem::path directory =
            target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
        const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory_fd >= 0) {
            ::fsync(directory_fd);
            ::close(directory_fd);
        }
    }

private:
    std::filesystem::path target_;
    std::filesystem::path temporary_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace

std::unique_ptr<ByteSink> make_file_sink(const std::filesystem::path& target) {
    return std::make_unique<FileSink>(target);
}

void MemorySink::write(std::span<const std::byte> bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }

void CallbackSink::write(std::span<const std::byte> bytes) {
    if (!write_(bytes)) throw Error(ErrorCode::Sink, "the write callback reported a failure");
}

}  // namespace dbdf
