#include "parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace dbdf::detail {

void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work) {
    const std::size_t workers = std::min<std::size_t>(std::max(threads, 1u), count);
    const std::size_t helpers = workers == 0 ? 0 : workers - 1;
    if (helpers == 0) {
        for (std::size_t i = 0; i < count; ++i) work(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> first_failed{count};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto run = [&] {
        for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
            if (i > first_failed.load()) return;
            try {
                work(i);
            } catch (...) {
                const std::lock_guard lock(failure_mutex);
                if (i < first_failed.load()) {
                    first_failed.store(i);
                    failure = std::current_exception();
                }
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    try {
        for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(run);
    } catch (...) {
        // No thread could be started: the caller's thread does the work alone.
    }
    run();
    for (std::thread& thread : pool) thread.join();
    if (failure) std::rethrow_exception(failure);
}

unsigned usable_processors() {
#if defined(__linux__)
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    // Fails (EINVAL) on a system with more processors than a cpu_set_t holds (1024): the online count serves then.
    if (::sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        const int count = CPU_COUNT(&allowed);
        if (count > 0) return static_cast<unsigned>(count);
    }
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

unsigned most_threads() { return std::max(kMostThreadsAtLeast, usable_processors()); }

unsigned encode_threads(unsigned threads, std::size_t pieces, std::uint64_t work_bytes) {
    if (threads == 0) {
        threads = std::min(decode_threads(0, pieces, work_bytes), kMostAutomaticEncodeThreads);
        if (threads == 1) return 1;  // a small matrix: no processor count to read
    }
    threads = std::min(threads, most_threads());
    return static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(pieces, 1)));
}

unsigned decode_threads(unsigned threads, std::size_t pieces, std::uint64_t work_bytes) {
    // Below this, starting a thread costs more than it saves.
    constexpr std::uint64_t kParallelBytes = std::uint64_t{16} << 20;
    constexpr unsigned kAutomaticMaximum = 8;
    if (pieces < 2) return 1;
    if (threads == 0) {
        if (work_bytes < kParallelBytes) return 1;
        // At most kAutomaticMaximum, below most_threads(): no cap is left to apply.
        return static_cast<unsigned>(
            std::min<std::size_t>(std::clamp(usable_processors(), 1u, kAutomaticMaximum), pieces));
    }
    return static_cast<unsigned>(std::min<std::size_t>(std::min(threads, most_threads()), pieces));
}

}  // namespace dbdf::detail
