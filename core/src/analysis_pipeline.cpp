#include "analysis_pipeline.hpp"

#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace dbdf::detail {

void run_analysis_pipeline(std::size_t tiles, unsigned threads, const std::function<BlockFacts(std::size_t)>& analyse,
                           const std::function<void(std::size_t, const BlockFacts&)>& emit) {
    if (threads < 2 || tiles < 2) {
        for (std::size_t i = 0; i < tiles; ++i) emit(i, analyse(i));
        return;
    }
    // The helper keeps at most this many tiles analysed ahead of the ones written.
    constexpr std::size_t kAnalysedAhead = 2;
    std::vector<BlockFacts> facts(tiles);
    std::vector<std::exception_ptr> failures(tiles);
    std::atomic<std::size_t> analysed{0};
    std::atomic<std::size_t> emitted{0};
    std::atomic<bool> stop{false};
    std::thread analyser([&] {
        for (std::size_t i = 0; i < tiles && !stop.load(); ++i) {
            for (std::size_t done = emitted.load(); i > done + kAnalysedAhead && !stop.load(); done = emitted.load()) {
                emitted.wait(done);
            }
            try {
                facts[i] = analyse(i);
            } catch (...) {
                failures[i] = std::current_exception();
            }
            analysed.store(i + 1);
            analysed.notify_one();
            if (failures[i]) return;
        }
    });
    // Joined on every way out, a failure here included.
    const auto join = [&] {
        stop.store(true);
        emitted.store(tiles);
        emitted.notify_one();
        analyser.join();
    };
    try {
        for (std::size_t i = 0; i < tiles; ++i) {
            for (std::size_t ready = analysed.load(); ready <= i; ready = analysed.load()) analysed.wait(ready);
            if (failures[i]) std::rethrow_exception(failures[i]);
            emit(i, facts[i]);
            facts[i] = BlockFacts{};  // its buffers (BlockFacts::low_bytes) go once the tile is written
            emitted.store(i + 1);
            emitted.notify_one();
        }
    } catch (...) {
        join();
        throw;
    }
    join();
}

}  // namespace dbdf::detail
