#include "atomic_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "handles.hpp"

namespace dbdf_cli {

// The temporary file is created with mode 0666 under a random name (O_EXCL catches a collision), so the process
// umask decides the output's mode as for any new file; mkstemp would create it 0600 and the rename would keep that.
// Reading the umask to chmod afterwards would mean changing it, which races with anything else creating files.
AtomicOutput::AtomicOutput(const std::string& target) : target_(target) {
    const auto slash = target.rfind('/');
    const std::string directory = slash == std::string::npos ? "." : target.substr(0, slash);
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    std::random_device entropy;
    constexpr int kAttempts = 100;  // a collision of 64 random bits means something else is wrong
    int fd = -1;
    for (int attempt = 0; attempt < kAttempts && fd < 0; ++attempt) {
        const std::string candidate = fmt::format("{}/.{}.{:08x}{:08x}.tmp", directory, name, entropy(), entropy());
        fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            temporary_ = candidate;
        } else if (errno != EEXIST && errno != EINTR) {
            throw CliError(target + ": cannot create a temporary file next to it: " + std::strerror(errno));
        }
    }
    if (fd < 0) throw CliError(target + ": cannot create a temporary file next to it: " + std::strerror(EEXIST));
    file_ = ::fdopen(fd, "wb");
    if (file_ == nullptr) {
        ::close(fd);
        ::unlink(temporary_.c_str());
        throw CliError(target + ": cannot open the temporary file");
    }
}

AtomicOutput::~AtomicOutput() {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) ::unlink(temporary_.c_str());
}

void AtomicOutput::write(const void* data, std::size_t size) {
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        throw CliError(target_ + ": write failed: " + std::strerror(errno));
    }
}

void AtomicOutput::commit() {
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fflush(file) != 0 || ::fsync(::fileno(file)) != 0) {
        std::fclose(file);
        throw CliError(target_ + ": write failed: " + std::strerror(errno));
    }
    if (std::fclose(file) != 0) throw CliError(target_ + ": close failed: " + std::strerror(errno));
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
        throw CliError(target_ + ": cannot rename the temporary file: " + std::strerror(errno));
    }
    committed_ = true;
}

}  // namespace dbdf_cli
