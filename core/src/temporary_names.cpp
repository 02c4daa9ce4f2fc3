#include "temporary_names.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>

namespace dbdf::detail {
namespace {

constexpr std::string_view kMarker = ".dbdf-";
constexpr std::string_view kEnding = ".tmp";
constexpr std::size_t kRandomDigits = 16;
constexpr std::size_t kHostDigits = 8;
constexpr std::size_t kPidDigits = 10;  // a pid_t's largest value in decimal
// "." + part + marker + host + "-" + pid + "-" + random + ending fits NAME_MAX with a pid of any length.
constexpr std::size_t kLongestPart =
    NAME_MAX - 1 - kMarker.size() - kHostDigits - 1 - kPidDigits - 1 - kRandomDigits - kEnding.size();
constexpr std::size_t kHashDigits = 8;

std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return hash;
}

std::string hex_text(std::uint64_t value, std::size_t digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(digits, '0');
    for (std::size_t i = 0; i < digits; ++i) text[digits - 1 - i] = kDigits[(value >> (4 * i)) & 0xF];
    return text;
}

// 64 random bits. getrandom() can fail (old kernels, seccomp); the clock, the process id and a counter then still
// make names that differ between calls, and O_EXCL catches any collision.
std::uint64_t random_bits() {
    std::uint64_t bits = 0;
    if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof bits)) return bits;
    static std::atomic<std::uint64_t> counter{0};
    const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return now ^ (static_cast<std::uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
}

// The host's name, hashed: a process id only means something on the host that made it (a directory may be shared
// over the network).
std::string host_tag() {
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
    return hex_text(fnv1a(name), kHostDigits);
}

// The target's name as it appears in its temporary names: whole when it fits, otherwise its start (not cut inside
// a UTF-8 character) and a hash of the whole name, so that two long names with the same start still differ.
std::string name_part(std::string_view target_name) {
    if (target_name.size() <= kLongestPart) return std::string(target_name);
    std::size_t cut = kLongestPart - 1 - kHashDigits;
    while (cut > 0 && (static_cast<unsigned char>(target_name[cut]) & 0xC0) == 0x80) --cut;
    return std::string(target_name.substr(0, cut)) + "~" + hex_text(fnv1a(target_name), kHashDigits);
}

bool all_of(std::string_view text, bool (*accept)(char)) {
    if (text.empty()) return false;
    for (const char c : text) {
        if (!accept(c)) return false;
    }
    return true;
}

bool is_decimal(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_decimal(c) || (c >= 'a' && c <= 'f'); }

// parse_temporary_name with the target's prefix (temporary_prefix_for) already made: a directory's listing checks
// every entry against one prefix, made once, instead of asking for the host's name once per entry (a system call:
// 100000 of them took 0.3 s in a directory of as many files).
bool parse_temporary_name_after(std::string_view name, std::string_view prefix, long* pid) {
    if (name.size() <= prefix.size() + kEnding.size() || name.substr(0, prefix.size()) != prefix ||
        name.substr(name.size() - kEnding.size()) != kEnding) {
        return false;
    }
    const std::string_view rest = name.substr(prefix.size(), name.size() - prefix.size() - kEnding.size());
    const std::size_t dash = rest.find('-');
    if (dash == std::string_view::npos) return false;
    const std::string_view pid_text = rest.substr(0, dash);
    const std::string_view random_text = rest.substr(dash + 1);
    if (pid_text.size() > kPidDigits || !all_of(pid_text, is_decimal) || random_text.size() != kRandomDigits ||
        !all_of(random_text, is_hex)) {
        return false;
    }
    long value = 0;
    for (const char c : pid_text) value = value * 10 + (c - '0');
    if (value > 0x7fffffff) return false;  // no pid_t: kill() would read it as a process group
    *pid = value;
    return true;
}

}  // namespace

std::string temporary_prefix_for(std::string_view target_name) {
    return "." + name_part(target_name) + std::string(kMarker) + host_tag() + "-";
}

std::string temporary_name_for(std::string_view target_name) {
    return temporary_prefix_for(target_name) + std::to_string(::getpid()) + "-" +
           hex_text(random_bits(), kRandomDigits) + std::string(kEnding);
}

bool parse_temporary_name(std::string_view name, std::string_view target_name, long* pid) {
    return parse_temporary_name_after(name, temporary_prefix_for(target_name), pid);
}

void remove_stale_temporaries(int directory_fd, std::string_view target_name) noexcept {
    try {
        // A descriptor of its own: closedir() closes the one it reads through.
        const int listing_fd = ::openat(directory_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (listing_fd < 0) return;
        // Owned, so that an allocation failing below (the prefix the names are checked against) still closes it.
        const std::unique_ptr<DIR, int (*)(DIR*)> directory(::fdopendir(listing_fd), &::closedir);
        if (directory == nullptr) {
            ::close(listing_fd);
            return;
        }
        const uid_t owner = ::geteuid();
        const std::string prefix = temporary_prefix_for(target_name);
        while (const dirent* entry = ::readdir(directory.get())) {
            long pid = 0;
            if (!parse_temporary_name_after(entry->d_name, prefix, &pid) || pid <= 0 || pid == ::getpid()) continue;
            // The maker is gone only when the kernel says there is no such process (EPERM: it exists).
            if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
            struct stat status {};
            if (::fstatat(directory_fd, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(status.st_mode) ||
                status.st_uid != owner) {
                continue;
            }
            ::unlinkat(directory_fd, entry->d_name, 0);
        }
    } catch (...) {
        // Only the names' allocation can throw; a leftover then simply stays.
    }
}

}  // namespace dbdf::detail
