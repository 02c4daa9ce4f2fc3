#include "byte_source.hpp"

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
    throw Error(ErrorCode::Io,
                "cannot " + std::string(action) + " '" + path.string() + "': " + std::strerror(error_number));
}

const char* kind_of_file(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file of a known kind";
}

// An open file descriptor of a regular file and its size at opening, closed on destruction.
class RegularFile {
public:
    explicit RegularFile(const std::filesystem::path& path) : path_(path) {
        // O_NONBLOCK: opening a FIFO that no process writes to would otherwise wait for a writer forever. It is
        // cleared once the file is known to be regular, where it changes nothing anyway.
        fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd_ < 0) throw_io(path, "open", errno);
        try {
            struct stat status {};
            if (::fstat(fd_, &status) != 0) throw_io(path, "inspect", errno);
            if (!S_ISREG(status.st_mode)) {
                throw Error(ErrorCode::Io, "'" + path.string() +
                                               "' is not a regular file: " + kind_of_file(status.st_mode) +
                                               "; a reader needs a file whose size is known when it opens it");
            }
            const int flags = ::fcntl(fd_, F_GETFL);
            if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) throw_io(path, "configure", errno);
            size_ = static_cast<std::uint64_t>(status.st_size);
        } catch (...) {
            ::close(fd_);
            throw;
        }
    }
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;
    ~RegularFile() { ::close(fd_); }

    int fd() const { return fd_; }
    std::uint64_t size() const { return size_; }
    const std::filesystem::path& path() const { return path_; }

    std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const {
        std::size_t done = 0;
        while (done < destination.size()) {
            const ssize_t got =
                ::pread(fd_, destination.data() + done, destination.size() - done, static_cast<off_t>(offset + done));
            if (got < 0) {
                if (errno == EINTR) continue;
                throw_io(path_, "read", errno);
            }
            if (got == 0) break;  // the file ends here now: it shrank
            done += static_cast<std::size_t>(got);
        }
        return done;
    }

private:
    std::filesystem::path path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::span<const std::byte> input) : input_(input) {}
    std::uint64_t size() const override { return input_.size(); }
    std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const override {
        if (offset >= input_.size()) return 0;
        const std::size_t count = std::min<std::uint64_t>(destination.size(), input_.size() - offset);
        if (count > 0) std::memcpy(destination.data(), input_.data() + offset, count);
        return count;
    }
    const std::byte* lent_memory() const override { return input_.data(); }

private:
    std::span<const std::byte> input_;
};

class FileSource final : public ByteSource {
public:
    explicit FileSource(const std::filesystem::path& path) : file_(path) {}
    std::uint64_t size() const override { return file_.size(); }
    std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const override {
        return file_.read_at(offset, destination);
    }

private:
    RegularFile file_;
};

class MappedSource final : public ByteSource {
public:
    explicit MappedSource(const std::filesystem::path& path) : file_(path) {
        if (file_.size() == 0) return;  // mmap cannot map nothing; no byte is ever lent then
        data_ = ::mmap(nullptr, file_.size(), PROT_READ, MAP_PRIVATE, file_.fd(), 0);
        if (data_ == MAP_FAILED) {
            data_ = nullptr;
            throw_io(path, "map", errno);
        }
        ::madvise(data_, file_.size(), MADV_SEQUENTIAL);
    }
    MappedSource(const MappedSource&) = delete;
    MappedSource& operator=(const MappedSource&) = delete;
    ~MappedSource() override {
        if (data_ != nullptr) ::munmap(data_, file_.size());
    }
    std::uint64_t size() const override { return file_.size(); }
    // pread() rather than the mapping: a few bytes here and there (the records the index reads) cost a system
    // call each this way, where touching the mapping costs a page fault and the mapping of the pages around.
    std::size_t read_at(std::uint64_t offset, std::span<std::byte> destination) const override {
        return file_.read_at(offset, destination);
    }
    const std::byte* lent_memory() const override {
        static constexpr std::byte kNothing{};
        return data_ != nullptr ? static_cast<const std::byte*>(data_) : &kNothing;
    }

private:
    RegularFile file_;
    void* data_ = nullptr;
};

}  // namespace

std::unique_ptr<ByteSource> make_memory_source(std::span<const std::byte> input) {
    return std::make_unique<MemorySource>(input);
}

std::unique_ptr<ByteSource> make_file_source(const std::filesystem::path& path) {
    return std::make_unique<FileSource>(path);
}

std::unique_ptr<ByteSource> make_mapped_source(const std::filesystem::path& path) {
    return std::make_unique<MappedSource>(path);
}

std::byte* ByteBuffer::reserve(std::size_t bytes) {
    if (bytes > capacity_) {
        storage_.reset();  // give the old storage back before taking the larger one
        capacity_ = 0;
        storage_.reset(new std::byte[bytes]);  // default-initialised: no zero-fill of what is overwritten anyway
        capacity_ = bytes;
    }
    return storage_.get();
}

[[noreturn]] void throw_shrank(std::uint64_t offset, std::uint64_t expected, std::uint64_t got) {
    throw Error(ErrorCode::Io,
                "the file shrank while being read: expected " + std::to_string(expected) + " bytes at byte " +
                    std::to_string(offset) + ", got " + std::to_string(got) +
                    " (it was truncated or rewritten after it was opened)",
                0, offset);
}

void read_exactly(const ByteSource& source, std::uint64_t offset, std::span<std::byte> destination) {
    const std::size_t got = source.read_at(offset, destination);
    if (got != destination.size()) throw_shrank(offset, destination.size(), got);
}

ByteWindow fetch(const ByteSource& source, std::uint64_t offset, std::uint64_t bytes, ByteBuffer& buffer) {
    if (const std::byte* memory = source.lent_memory()) return ByteWindow{memory + offset, offset, bytes};
    std::byte* data = buffer.reserve(static_cast<std::size_t>(bytes));
    read_exactly(source, offset, {data, static_cast<std::size_t>(bytes)});
    return ByteWindow{data, offset, bytes};
}

}  // namespace dbdf::detail
