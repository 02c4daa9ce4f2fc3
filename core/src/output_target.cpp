#include "output_target.hpp"

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "dbdf/error.hpp"

namespace dbdf::detail {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void throw_io(const std::string& what, const fs::path& path, int error_number) {
    throw Error(ErrorCode::Io, what + " '" + path.string() + "': " + std::strerror(error_number));
}

fs::path directory_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

// A symbolic link in procfs (/proc/self/fd/1, which /dev/stdout and /dev/fd/1 lead to) names an open
// descriptor, not a path: its text is "pipe:[123]", "/tmp/x (deleted)" or a path that may no longer be the file.
bool is_descriptor_link(const fs::path& link) {
    struct statfs file_system {};
    return ::statfs(directory_of(link).c_str(), &file_system) == 0 &&
           static_cast<unsigned long>(file_system.f_type) == PROC_SUPER_MAGIC;
}

fs::path read_link(const fs::path& link) {
    std::vector<char> text(256);
    for (;;) {
        const ssize_t length = ::readlink(link.c_str(), text.data(), text.size());
        if (length < 0) throw_io("cannot read the symbolic link", link, errno);
        if (static_cast<std::size_t>(length) < text.size())
            return fs::path(std::string(text.data(), static_cast<std::size_t>(length)));
        text.resize(text.size() * 2);
    }
}

constexpr int kMaxLinks = 40;  // the kernel's own limit (ELOOP) for one path

}  // namespace

OutputTarget resolve_output_target(const fs::path& given) {
    if (given.empty()) throw Error(ErrorCode::Io, "cannot write to an empty path");
    struct stat followed {};
    const bool exists = ::stat(given.c_str(), &followed) == 0;
    if (!exists && errno != ENOENT) throw_io("cannot write to", given, errno);
    if (exists && S_ISDIR(followed.st_mode)) throw_io("cannot write to", given, EISDIR);
    if (exists && !S_ISREG(followed.st_mode)) return OutputTarget{OutputTarget::Kind::WriteThrough, given, false};
    // A regular file or nothing: follow the links by name to the path that is to be replaced or created (a
    // dangling link creates its target, as a shell's `>` does).
    fs::path current = given;
    for (int links = 0;; ++links) {
        struct stat own {};
        if (::lstat(current.c_str(), &own) != 0) {
            if (errno == ENOENT) break;
            throw_io("cannot write to", current, errno);
        }
        if (!S_ISLNK(own.st_mode)) break;
        if (links == kMaxLinks) throw_io("cannot write to", given, ELOOP);
        if (is_descriptor_link(current)) {
            if (!exists) throw_io("cannot write to", given, ENOENT);
            return OutputTarget{OutputTarget::Kind::WriteThrough, given, true};
        }
        const fs::path text = read_link(current);
        current = text.is_absolute() ? text : directory_of(current) / text;
    }
    return OutputTarget{OutputTarget::Kind::Replace, current, false};
}

}  // namespace dbdf::detail
