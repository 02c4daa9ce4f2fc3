#include "guarded_mapping.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "dbdf.h"

#include "../handles.hpp"

namespace dbdf_cli {
namespace {

// What the SIGBUS handler reads: the mapped window and the message for it, written before the window is published
// and only read by the handler (async-signal-safe: atomics, write, _exit).
std::atomic<std::uintptr_t> guarded_begin{0};
std::atomic<std::uintptr_t> guarded_end{0};
char handler_message[1024];
std::atomic<std::size_t> handler_message_bytes{0};

void report_shrunk_input(int signal_number, siginfo_t* info, void*) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (address >= guarded_begin.load() && address < guarded_end.load()) {
        [[maybe_unused]] const ssize_t written = ::write(2, handler_message, handler_message_bytes.load());
        dbdf_remove_temporary_files();
        ::_exit(kExitInvalid);
    }
    // Not ours: the default action (the process ends with SIGBUS, as without this handler).
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

void install_handler_once() {
    static const bool installed = [] {
        struct sigaction action {};
        action.sa_sigaction = report_shrunk_input;
        ::sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO;
        return ::sigaction(SIGBUS, &action, nullptr) == 0;
    }();
    (void)installed;
}

}  // namespace

GuardedMapping::GuardedMapping(const std::string& path) : file_(path) {
    const std::string message = "dbdf: " + shrink_message() + "\n";
    const std::size_t bytes = std::min(message.size(), sizeof handler_message);
    std::memcpy(handler_message, message.data(), bytes);
    handler_message_bytes.store(bytes);
    install_handler_once();
}

GuardedMapping::~GuardedMapping() { unmap(); }

bool GuardedMapping::shrank() const {
    struct stat status {};
    return ::fstat(file_.descriptor(), &status) == 0 && static_cast<std::uint64_t>(status.st_size) < file_.size();
}

std::string GuardedMapping::shrink_message() const {
    return fmt::format(
        "{}: the input shrank while it was read (it had {} bytes when it was opened); no output was written",
        file_.path(), file_.size());
}

// Maps the pages of [window, window + bytes) (mapped without MAP_POPULATE) on up to four threads, each over its own
// slice. Populating 512 MiB on one thread took 6 ms when the page cache held the file in 2 MiB folios (a file just
// written) and 38 ms in small ones (a file read from disk), on the thread that then waits for it before the first
// write; on two threads 3 and 22 ms. Errors are left to the reads that follow (MADV_POPULATE_READ fails with EFAULT
// where a read would raise SIGBUS: a page lost to a shrinking file, which the handler reports at that read). A kernel
// without MADV_POPULATE_READ (before Linux 5.14) has the pages faulted in by reading a byte of each, on this thread,
// with the window already guarded.
void GuardedMapping::populate_on_threads(std::uint8_t* window, std::size_t bytes) {
    std::atomic<bool> supported{true};
    const auto populate = [&](std::size_t first, std::size_t end) {
#if defined(MADV_POPULATE_READ)
        if (::madvise(window + first, end - first, MADV_POPULATE_READ) == 0 || errno != EINVAL) return;
#endif
        supported.store(false);
    };
    constexpr std::size_t kSliceAlignment = std::size_t{2} << 20;  // whole huge folios in each slice
    const unsigned slices = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    const std::size_t slice = (bytes / slices + kSliceAlignment - 1) / kSliceAlignment * kSliceAlignment;
    std::vector<std::thread> helpers;
    std::size_t on_helpers_from = bytes;  // the slices from here on went to helper threads
    try {
        for (std::size_t first = (bytes - 1) / slice * slice; first >= slice; first -= slice) {
            helpers.emplace_back(populate, first, std::min(bytes, first + slice));
            on_helpers_from = first;
        }
    } catch (const std::system_error&) {
        // No more threads to be had: this thread populates what no helper took.
    }
    populate(0, on_helpers_from);
    for (std::thread& helper : helpers) helper.join();
    if (!supported.load()) {
        volatile std::uint8_t sink = 0;
        for (std::size_t at = 0; at < bytes; at += 4096) sink = sink + window[at];
    }
}

void GuardedMapping::unmap() {
    if (window_ == nullptr) return;
    guarded_begin.store(0);
    guarded_end.store(0);
    ::munmap(window_, window_bytes_);
    window_ = nullptr;
    window_bytes_ = 0;
}

const std::uint8_t* GuardedMapping::bytes(std::uint64_t offset, std::size_t count) {
    file_.check_within(offset, count);
    if (window_ != nullptr && offset >= window_offset_ && offset + count <= window_offset_ + window_bytes_) {
        return window_ + (offset - window_offset_);
    }
    unmap();
    const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = offset / page * page;
    const std::uint64_t end =
        std::min<std::uint64_t>(file_.size(), std::max<std::uint64_t>(offset + count, start + kWindowBytes));
    // The window's pages are mapped from the page cache at once, not one fault per page as they are read.
    const bool on_threads = end - start >= kPopulatedOnThreadsFrom;
    void* mapped = ::mmap(nullptr, end - start, PROT_READ, MAP_SHARED | (on_threads ? 0 : MAP_POPULATE),
                          file_.descriptor(), static_cast<off_t>(start));
    if (mapped == MAP_FAILED) return nullptr;
    window_ = static_cast<std::uint8_t*>(mapped);
    window_bytes_ = end - start;
    window_offset_ = start;
    guarded_begin.store(reinterpret_cast<std::uintptr_t>(window_));
    guarded_end.store(reinterpret_cast<std::uintptr_t>(window_) + window_bytes_);
    // Guarded before it is populated: a page that the file lost meanwhile raises SIGBUS only on a read (the fallback
    // of populate_on_threads reads), and is reported as the shrink it is.
    if (on_threads) populate_on_threads(window_, window_bytes_);
    return window_ + (offset - start);
}

}  // namespace dbdf_cli
