#include "dbdf/sink.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "dbdf/error.hpp"

namespace dbdf {
namespace {

[[noreturn]] void throw_io(const std::string& what, const std::filesystem::path& path, int error_number) {
    throw Error(ErrorCode::Io, what + " '" + path.string() + "': " + std::strerror(error_number));
}

// 64 random bits for a temporary file name. getrandom() can fail (old kernels, seccomp); the clock, the process
// id and a counter then still make names that differ between calls, and O_EXCL catches any collision.
std::uint64_t random_name_bits() {
    std::uint64_t bits = 0;
    if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof bits)) return bits;
    static std::atomic<std::uint64_t> counter{0};
    const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    bits = now ^ (static_cast<std::uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    return bits;
}

std::string hex_text(std::uint64_t value) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (std::size_t i = 0; i < text.size(); ++i) text[text.size() - 1 - i] = kDigits[(value >> (4 * i)) & 0xF];
    return text;
}

// Writes to "<dir>/.<name>.<random>.tmp" and renames it over the target on commit. The temporary file lives in
// the target's directory so the rename is atomic (same file system). It is created with mode 0666 so that the
// process umask applies as it would for any new file; changing the umask to compute the mode instead would race
// with other threads creating files.
class FileSink final : public ByteSink {
public:
    explicit FileSink(std::filesystem::path target) : target_(std::move(target)) {
        const std::filesystem::path directory =
            target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
        const std::string prefix = "." + target_.filename().string() + ".";
        constexpr int kAttempts = 100;  // a collision of 64 random bits means something else is wrong
        for (int attempt = 0; attempt < kAttempts && fd_ < 0; ++attempt) {
            std::filesystem::path candidate = directory / (prefix + hex_text(random_name_bits()) + ".tmp");
            fd_ = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ >= 0) {
                temporary_ = std::move(candidate);
            } else if (errno != EEXIST && errno != EINTR) {
                throw_io("cannot create a temporary file next to", target_, errno);
            }
        }
        if (fd_ < 0) throw_io("cannot create a temporary file next to", target_, EEXIST);
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
