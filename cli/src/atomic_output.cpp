#include "atomic_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "handles.hpp"

namespace dbdf_cli {

AtomicOutput::AtomicOutput(const std::string& target) : target_(target) {
    const auto slash = target.rfind('/');
    const std::string directory = slash == std::string::npos ? "." : target.substr(0, slash);
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    std::string pattern = directory + "/." + name + ".XXXXXX.tmp";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int fd = ::mkstemps(buffer.data(), 4);
    if (fd < 0) throw CliError(target + ": cannot create a temporary file: " + std::strerror(errno));
    temporary_ = buffer.data();
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
