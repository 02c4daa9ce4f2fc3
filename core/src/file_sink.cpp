// The file sinks: a regular file (or a new path) replaced by renaming a finished temporary file over it, and a
// device, FIFO or descriptor written through. Which one a target gets: output_target.hpp.
#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

#include "dbdf/error.hpp"
#include "dbdf/sink.hpp"
#include "file_output.hpp"
#include "file_sinks.hpp"
#include "output_target.hpp"
#include "temporary_names.hpp"
#include "temporary_registry.hpp"

namespace dbdf {
namespace {

namespace fs = std::filesystem;
using detail::OutputTarget;
using detail::TemporaryKind;

[[noreturn]] void throw_io(const std::string& what, const fs::path& path, int error_number) {
    throw Error(ErrorCode::Io, what + " '" + path.string() + "': " + std::strerror(error_number));
}

std::string descriptor_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// Writes to a temporary file in the target's directory and moves it over the target on publish(). The directory
// is held open, so every step names the same directory even if the process changes its working directory, and the
// rename is atomic (same file system).
//
// The temporary file is unnamed where the file system allows (O_TMPFILE): nothing of it can survive the process,
// whatever kills it. prepare_commit() gives it a short-lived name (linkat) that publish() renames over the target.
// Elsewhere it is named from the start, registered for remove_temporary_files(), and removed on failure. Either
// way it is created with mode 0666 so that the process umask applies as for any new file (changing the umask to
// compute the mode instead would race with other threads creating files); an existing target's mode replaces
// that at commit.
class ReplacingFileSink final : public FileSink {
public:
    ReplacingFileSink(const fs::path& given, const fs::path& target, FileCommit commit_mode, TemporaryKind kind)
        : given_(given), target_(target), commit_mode_(commit_mode) {
        const fs::path directory = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
        target_name_ = target_.filename().string();
        directory_fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory_fd_ < 0) throw_io("cannot create a temporary file next to", given_, errno);
        // The destructor, which closes and removes what was opened, does not run when the constructor throws.
        try {
            // Done before creating ours, so that a disk a killed writer filled has room again.
            detail::remove_stale_temporaries(directory_fd_, target_name_);
            if (kind == TemporaryKind::Unnamed) open_unnamed();
            if (fd_ < 0) open_named();
            output_ = std::make_unique<detail::FileOutput>(fd_, given_);
        } catch (...) {
            release();
            throw;
        }
    }

    ~ReplacingFileSink() override { release(); }

    bool writes_through() const override { return false; }

    // Its temporary file is new: output positions are file offsets.
    bool places_payloads() const override { return true; }

    void write(std::span<const std::byte> bytes) override { output_->append({}, bytes); }

    void write_pair(std::span<const std::byte> first, std::span<const std::byte> second) override {
        output_->append(first, second);
    }

    // Preallocates from the current end of the file, keeping its size, so that nothing but the space changes. It is
    // a hint: a file system without fallocate (tmpfs before Linux 3.5, some network file systems) or one that is
    // full just declines it, and the writes then report what is wrong as they would have.
    void reserve(std::uint64_t bytes) override {
        const off_t end = ::lseek(fd_, 0, SEEK_CUR);
        if (end < 0 || bytes == 0 || bytes > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max() - end))
            return;
        if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, end, static_cast<off_t>(bytes)) == 0) reserved_ = true;
    }

    void prepare_commit() override {
        if (fd_ < 0) throw Error(ErrorCode::Io, "the output '" + given_.string() + "' is already committed");
        // Space reserved beyond what was written (automatic encoding wrote less than the plain dense size it
        // reserved) is given back: truncating to the file's own size frees the blocks past its end.
        if (reserved_) {
            const off_t end = ::lseek(fd_, 0, SEEK_CUR);
            if (end < 0 || ::ftruncate(fd_, end) != 0) throw_io("cannot trim the space reserved for", given_, errno);
        }
        take_over_existing_permissions();
        if (commit_mode_ == FileCommit::Durable && ::fsync(fd_) != 0) throw_io("cannot sync", given_, errno);
        if (temporary_.empty()) name_unnamed();
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw_io("cannot close", given_, errno);
    }

    void publish() override {
        if (fd_ >= 0 || temporary_.empty() || published_) {
            throw Error(ErrorCode::Io, "the output '" + given_.string() + "' is not ready to be moved into place");
        }
        // The target was checked when the sink was opened; a device node or directory put there since must not be
        // replaced by a regular file either.
        struct stat existing {};
        const bool exists = ::fstatat(directory_fd_, target_name_.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
        if (exists && !S_ISREG(existing.st_mode) && !S_ISLNK(existing.st_mode)) {
            throw Error(ErrorCode::Io, "cannot replace '" + target_.string() + "': it is no longer a regular file");
        }
        const bool exchanged =
            commit_mode_ == FileCommit::Atomic && exists && S_ISREG(existing.st_mode) && exchange_with_target();
        if (!exchanged && ::renameat(directory_fd_, temporary_.c_str(), directory_fd_, target_name_.c_str()) != 0) {
            throw_io("cannot rename the temporary file to", target_, errno);
        }
        published_ = true;
        detail::unregister_temporary(registry_slot_);
        registry_slot_ = -1;
        // Makes the rename itself durable.
        if (commit_mode_ == FileCommit::Durable) ::fsync(directory_fd_);
    }

private:
    // O_TMPFILE; leaves fd_ at -1 when the file system lacks it (EOPNOTSUPP; EISDIR or EINVAL from kernels older
    // than 3.11) or when /proc, through which prepare_commit() links it, is not there.
    void open_unnamed() {
        fd_ = ::openat(directory_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
        if (fd_ < 0) {
            if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return;
            throw_io("cannot create a temporary file next to", given_, errno);
        }
        if (::access(descriptor_path(fd_).c_str(), F_OK) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }

    void open_named() {
        constexpr int kAttempts = 100;  // a collision of 64 random bits means something else is wrong
        for (int attempt = 0; attempt < kAttempts && fd_ < 0; ++attempt) {
            std::string candidate = detail::temporary_name_for(target_name_);
            // Registered first: a signal right after the file appears must find it.
            registry_slot_ = detail::register_temporary(directory_fd_, candidate.c_str());
            fd_ = ::openat(directory_fd_, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ >= 0) {
                temporary_ = std::move(candidate);
                return;
            }
            const int error = errno;
            detail::unregister_temporary(registry_slot_);
            registry_slot_ = -1;
            if (error != EEXIST && error != EINTR) throw_io("cannot create a temporary file next to", given_, error);
        }
        throw_io("cannot create a temporary file next to", given_, EEXIST);
    }

    // Links the unnamed file into the directory under a temporary name. Through /proc/self/fd, which needs no
    // privilege, else AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH.
    void name_unnamed() {
        for (;;) {
            std::string candidate = detail::temporary_name_for(target_name_);
            registry_slot_ = detail::register_temporary(directory_fd_, candidate.c_str());
            if (::linkat(AT_FDCWD, descriptor_path(fd_).c_str(), directory_fd_, candidate.c_str(), AT_SYMLINK_FOLLOW) ==
                    0 ||
                ::linkat(fd_, "", directory_fd_, candidate.c_str(), AT_EMPTY_PATH) == 0) {
                temporary_ = std::move(candidate);
                return;
            }
            const int error = errno;
            detail::unregister_temporary(registry_slot_);
            registry_slot_ = -1;
            if (error != EEXIST) throw_io("cannot name the temporary file for", given_, error);
        }
    }

    // The replaced file's permission bits, and its owner and group where the process may set them (root, or a
    // group the user is in), pass to the new file. Set-user-ID and set-group-ID bits are kept only with the owner
    // and group they were given for. A new path keeps the mode it was created with.
    void take_over_existing_permissions() {
        struct stat existing {};
        if (::fstatat(directory_fd_, target_name_.c_str(), &existing, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(existing.st_mode)) {
            return;
        }
        struct stat ours {};
        if (::fstat(fd_, &ours) != 0) throw_io("cannot read the mode of the temporary file for", given_, errno);
        mode_t mode = existing.st_mode & 07777;
        if ((ours.st_uid != existing.st_uid || ours.st_gid != existing.st_gid) &&
            ::fchown(fd_, existing.st_uid, existing.st_gid) != 0) {
            mode &= ~static_cast<mode_t>(S_ISUID | S_ISGID);
        }
        // Also after a successful fchown, which clears the set-ID bits.
        if (::fchmod(fd_, mode) != 0) throw_io("cannot set the mode of the temporary file for", given_, errno);
    }

    // Swaps the finished file with the existing regular file at the target in one atomic step, then removes the
    // old contents, now under the temporary name. Replacing by rename() costs as much as the data written on
    // ext4: a rename over an existing file makes it start writing the new file back at once (auto_da_alloc), and
    // the old file's blocks are freed on the spot. The swap does neither; the kernel writes the data back later,
    // as it does for any file. Returns false, having changed nothing, when the file system cannot swap.
    bool exchange_with_target() const {
        if (::renameat2(directory_fd_, temporary_.c_str(), directory_fd_, target_name_.c_str(), RENAME_EXCHANGE) != 0) {
            return false;
        }
        // The new contents are in place; failing to remove the old ones leaves a hidden temporary file behind (the
        // next write to this target removes it) but does not fail the write.
        ::unlinkat(directory_fd_, temporary_.c_str(), 0);
        return true;
    }

    void release() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        if (!published_ && !temporary_.empty() && directory_fd_ >= 0) ::unlinkat(directory_fd_, temporary_.c_str(), 0);
        // After the unlink, so that a signal in between still finds the name.
        detail::unregister_temporary(registry_slot_);
        registry_slot_ = -1;
        if (directory_fd_ >= 0) ::close(directory_fd_);
        directory_fd_ = -1;
    }

    fs::path given_;   // the path as the caller named it, for messages
    fs::path target_;  // the final path after symbolic links: what is replaced
    std::string target_name_;
    FileCommit commit_mode_;
    int directory_fd_ = -1;
    int fd_ = -1;
    std::string temporary_;  // the temporary file's name in the directory; empty while it is unnamed
    int registry_slot_ = -1;
    std::unique_ptr<detail::FileOutput> output_;
    bool reserved_ = false;  // space was preallocated past the file's end
    bool published_ = false;
};

// Writes a device, FIFO or descriptor as the bytes come. There is no temporary file to rename: renaming over a
// device node would replace it (/dev/null by a regular file), and over /dev/stdout would detach the output from
// the pipe or terminal the caller set up. Devices, pipes and terminals are not synced (fsync does not apply to
// them); a regular file behind a descriptor is, when durable.
class WriteThroughSink final : public FileSink {
public:
    WriteThroughSink(const fs::path& path, bool append, FileCommit commit_mode)
        : path_(path), commit_mode_(commit_mode) {
        fd_ = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0));
        if (fd_ < 0) throw_io("cannot open", path_, errno);
        try {
            output_ = std::make_unique<detail::FileOutput>(fd_, path_);
        } catch (...) {
            ::close(fd_);
            throw;
        }
    }

    ~WriteThroughSink() override {
        if (fd_ >= 0) ::close(fd_);
    }

    bool writes_through() const override { return true; }

    void write(std::span<const std::byte> bytes) override { output_->append({}, bytes); }

    void write_pair(std::span<const std::byte> first, std::span<const std::byte> second) override {
        output_->append(first, second);
    }

    void prepare_commit() override {
        if (fd_ < 0) throw Error(ErrorCode::Io, "the output '" + path_.string() + "' is already committed");
        struct stat status {};
        if (commit_mode_ == FileCommit::Durable && ::fstat(fd_, &status) == 0 && S_ISREG(status.st_mode) &&
            ::fsync(fd_) != 0) {
            throw_io("cannot sync", path_, errno);
        }
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw_io("cannot close", path_, errno);
    }

private:
    fs::path path_;
    FileCommit commit_mode_;
    int fd_ = -1;
    std::unique_ptr<detail::FileOutput> output_;
};

}  // namespace

namespace detail {

std::unique_ptr<FileSink> make_file_sink(const fs::path& target, FileCommit commit_mode, TemporaryKind temporary_kind) {
    const OutputTarget resolved = resolve_output_target(target);
    if (resolved.kind == OutputTarget::Kind::WriteThrough) {
        return std::make_unique<WriteThroughSink>(resolved.path, resolved.append, commit_mode);
    }
    return std::make_unique<ReplacingFileSink>(target, resolved.path, commit_mode, temporary_kind);
}

}  // namespace detail

std::unique_ptr<FileSink> make_file_sink(const fs::path& target, FileCommit commit_mode) {
    return detail::make_file_sink(target, commit_mode, TemporaryKind::Unnamed);
}

}  // namespace dbdf
