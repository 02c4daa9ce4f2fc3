// The file sink: a temporary file next to the target, moved over it on commit.
#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "dbdf/error.hpp"
#include "dbdf/sink.hpp"
#include "file_output.hpp"

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

// Writes to "<dir>/.<name>.<random>.tmp" and moves it over the target on commit. The temporary file lives in
// the target's directory so the rename is atomic (same file system). It is created with mode 0666 so that the
// process umask applies as it would for any new file; changing the umask to compute the mode instead would race
// with other threads creating files.
class FileSink final : public ByteSink {
public:
    FileSink(std::filesystem::path target, FileCommit commit_mode)
        : target_(std::move(target)), commit_mode_(commit_mode) {
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
        // The destructor, which removes the temporary file, does not run when the constructor throws: an
        // allocation failing here must clean up itself.
        try {
            output_ = std::make_unique<detail::FileOutput>(fd_, temporary_);
        } catch (...) {
            ::close(fd_);
            ::unlink(temporary_.c_str());
            throw;
        }
    }

    ~FileSink() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temporary_.c_str());
    }

    void write(std::span<const std::byte> bytes) override { output_->append({}, bytes); }

    void write_pair(std::span<const std::byte> first, std::span<const std::byte> second) override {
        output_->append(first, second);
    }

    // Preallocates from the current end of the file, keeping its size, so that nothing but the space changes. It is
    // a hint: a file system without fallocate (tmpfs before Linux 3.5, some network file systems) or one that is
    // full just declines it, and the writes then report what is wrong as they would have.
    void reserve(std::uint64_t bytes) override {
        const off_t end = ::lseek(fd_, 0, SEEK_CUR);
        if (end < 0 || bytes == 0 || bytes > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max() - end)) return;
        if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, end, static_cast<off_t>(bytes)) == 0) reserved_ = true;
    }

    void commit() override {
        // Space reserved beyond what was written (automatic encoding wrote less than the plain dense size it
        // reserved) is given back: truncating to the file's own size frees the blocks past its end.
        if (reserved_) {
            const off_t end = ::lseek(fd_, 0, SEEK_CUR);
            if (end < 0 || ::ftruncate(fd_, end) != 0) throw_io("cannot trim the space reserved for", temporary_, errno);
        }
        if (commit_mode_ == FileCommit::Durable && ::fsync(fd_) != 0) throw_io("cannot sync", temporary_, errno);
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw_io("cannot close", temporary_, errno);
        if (commit_mode_ == FileCommit::Durable || !exchange_with_target()) {
            if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
                throw_io("cannot rename the temporary file to", target_, errno);
            }
        }
        committed_ = true;
        if (commit_mode_ == FileCommit::Durable) sync_directory();
    }

private:
    // Swaps the finished file with an existing regular file at the target in one atomic step, then removes the
    // old contents, now under the temporary name. Replacing by rename() costs as much as the data written on
    // ext4: a rename over an existing file makes it start writing the new file back at once (auto_da_alloc), and
    // the old file's blocks are freed on the spot. The swap does neither; the kernel writes the data back later,
    // as it does for any file. Returns false, having changed nothing, when the target is not an existing regular
    // file or the file system cannot swap; rename() serves then.
    bool exchange_with_target() const {
        struct stat target_status {};
        if (::lstat(target_.c_str(), &target_status) != 0 || !S_ISREG(target_status.st_mode)) return false;
        if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0) return false;
        // The new contents are in place; failing to remove the old ones leaves a hidden temporary file behind but
        // does not fail the write.
        ::unlink(temporary_.c_str());
        return true;
    }

    // Makes the rename itself durable.
    void sync_directory() const {
        const std::filesystem::path directory =
            target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
        const int directory_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory_fd >= 0) {
            ::fsync(directory_fd);
            ::close(directory_fd);
        }
    }

    std::filesystem::path target_;
    FileCommit commit_mode_;
    std::filesystem::path temporary_;
    int fd_ = -1;
    std::unique_ptr<detail::FileOutput> output_;
    bool reserved_ = false;  // space was preallocated past the file's end
    bool committed_ = false;
};

}  // namespace

std::unique_ptr<ByteSink> make_file_sink(const std::filesystem::path& target, FileCommit commit_mode) {
    return std::make_unique<FileSink>(target, commit_mode);
}

}  // namespace dbdf
