// The pipeline of write_dense (analysis_pipeline.hpp) with analyses and writes that record what they see: tiles
// are written once each and in order on the caller's thread, analysed on every thread the caller allows (the
// caller's own included), never further ahead than the bound, and a failure is reported in tile order.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "analysis_pipeline.hpp"

using namespace dbdf::detail;

namespace {

// A flag one thread raises and another waits for, with a bound on the wait so that a pipeline that never raises
// it fails the test instead of hanging it.
class Signal {
public:
    void raise() {
        {
            std::lock_guard lock(mutex_);
            raised_ = true;
        }
        changed_.notify_all();
    }

    bool wait_for_a_while() {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return raised_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool raised_ = false;
};

// The entry count a tile's analysis reports: its index, so that a write sees whose facts it got.
BlockFacts facts_of(std::size_t tile) {
    BlockFacts facts;
    facts.entries = tile;
    return facts;
}

// Facts of a tile whose analysis is the longer part of its work: its CSR payload collected on the way.
BlockFacts analysis_bound_facts_of(std::size_t tile) {
    BlockFacts facts = facts_of(tile);
    facts.csr_payload = std::make_unique<std::byte[]>(1);
    facts.csr_payload_bytes = 1;
    return facts;
}

// Runs `tiles` tiles on `threads` threads with writes slow enough for the analysers to run as far ahead as they
// may, and returns for each tile how far ahead of the next tile to write it was when its analysis began.
std::vector<std::size_t> distances_ahead(std::size_t tiles, unsigned threads,
                                         const std::function<BlockFacts(std::size_t)>& facts) {
    std::atomic<std::size_t> written{0};
    std::vector<std::size_t> ahead(tiles);
    run_analysis_pipeline(
        tiles, threads,
        [&](std::size_t tile, AnalysingThread) {
            ahead[tile] = tile - written.load();
            return facts(tile);
        },
        [&](std::size_t tile, const BlockFacts&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            written.store(tile + 1);
        });
    EXPECT_EQ(written.load(), tiles);
    return ahead;
}

}  // namespace

TEST(ParallelAnalysis, EveryTileIsWrittenOnceInOrderOnTheCallersThreadWithItsOwnFacts) {
    constexpr std::size_t kTiles = 200;
    for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        std::vector<std::atomic<int>> analysed(kTiles);
        std::vector<std::size_t> written;
        const std::thread::id caller = std::this_thread::get_id();
        run_analysis_pipeline(
            kTiles, threads,
            [&](std::size_t tile, AnalysingThread) {
                analysed[tile].fetch_add(1);
                return facts_of(tile);
            },
            [&](std::size_t tile, const BlockFacts& facts) {
                EXPECT_EQ(std::this_thread::get_id(), caller);
                EXPECT_EQ(facts.entries, tile);
                written.push_back(tile);
            });
        ASSERT_EQ(written.size(), kTiles) << threads;
        for (std::size_t tile = 0; tile < kTiles; ++tile) {
            EXPECT_EQ(written[tile], tile) << threads;
            EXPECT_EQ(analysed[tile].load(), 1) << "tile " << tile << ", " << threads << " threads";
        }
    }
}

// Tile 0's analysis does not end before tile 1's has started: only a second analysing thread lets that happen,
// whichever of the two took tile 0.
TEST(ParallelAnalysis, TwoThreadsAnalyseTwoTilesAtOnce) {
    Signal second_started;
    bool overlapped = false;
    run_analysis_pipeline(
        8, 2,
        [&](std::size_t tile, AnalysingThread) {
            if (tile == 1) second_started.raise();
            if (tile == 0) overlapped = second_started.wait_for_a_while();
            return facts_of(tile);
        },
        [](std::size_t, const BlockFacts&) {});
    EXPECT_TRUE(overlapped);
}

// Analyses on another thread wait until the caller's thread has analysed a tile itself: it must do so, since the
// tile it is to write next is never ready before that. Every analysis is told which kind of thread runs it.
TEST(ParallelAnalysis, TheCallersThreadAnalysesWhileItsNextTileIsNotReady) {
    const std::thread::id caller = std::this_thread::get_id();
    Signal caller_analysed;
    bool waited_for_the_caller = true;
    std::mutex threads_mutex;
    std::set<std::thread::id> analysing_threads;
    std::atomic<int> mistold{0};
    run_analysis_pipeline(
        16, 2,
        [&](std::size_t tile, AnalysingThread thread) {
            const bool on_caller = std::this_thread::get_id() == caller;
            if ((thread == AnalysingThread::Writer) != on_caller) mistold.fetch_add(1);
            {
                std::lock_guard lock(threads_mutex);
                analysing_threads.insert(std::this_thread::get_id());
            }
            if (std::this_thread::get_id() == caller) {
                caller_analysed.raise();
            } else if (waited_for_the_caller && !caller_analysed.wait_for_a_while()) {
                waited_for_the_caller = false;  // once is enough: the other tiles do not wait again
            }
            return facts_of(tile);
        },
        [](std::size_t, const BlockFacts&) {});
    EXPECT_TRUE(waited_for_the_caller);
    EXPECT_EQ(analysing_threads.count(caller), 1u);
    EXPECT_EQ(mistold.load(), 0);
}

// Without helpers (one thread, or a single tile) every analysis runs on the writing thread, and says so.
TEST(ParallelAnalysis, WithoutHelpersEveryAnalysisRunsOnTheWritingThread) {
    for (const auto& [tiles, threads] : {std::pair<std::size_t, unsigned>{5, 1}, {1, 4}}) {
        std::vector<AnalysingThread> told;
        run_analysis_pipeline(
            tiles, threads,
            [&](std::size_t tile, AnalysingThread thread) {
                told.push_back(thread);
                return facts_of(tile);
            },
            [](std::size_t, const BlockFacts&) {});
        EXPECT_EQ(told, std::vector<AnalysingThread>(tiles, AnalysingThread::Writer)) << tiles << " tiles";
    }
}

// With slow writes, the analysers run as far ahead as they may: `threads` tiles past the next one to write, and not
// one more, while tiles are bound by their analysis (narrowed or collected as CSR).
TEST(ParallelAnalysis, AnalysisStaysWithinItsBoundAheadOfTheWrites) {
    constexpr std::size_t kTiles = 40;
    for (const unsigned threads : {2u, 3u}) {
        const std::vector<std::size_t> ahead = distances_ahead(kTiles, threads, analysis_bound_facts_of);
        EXPECT_EQ(*std::max_element(ahead.begin(), ahead.end()), threads) << threads << " threads";
    }
}

// A tile written from the caller's values as they are (random doubles: neither narrowed nor collected as CSR) is
// bound by the kernel's copy, which reads those values from the caches only when the tile was analysed just before:
// after such a tile is written the next is analysed only one ahead, and as far as the threads allow again once an
// analysis-bound tile is written.
TEST(ParallelAnalysis, AfterATileWrittenFromTheCallersValuesOnlyTheNextIsAnalysedAhead) {
    constexpr std::size_t kTiles = 60;
    constexpr std::size_t kFirstAnalysisBound = 30;
    for (const unsigned threads : {2u, 3u}) {
        const std::vector<std::size_t> ahead = distances_ahead(kTiles, threads, [](std::size_t tile) {
            return tile < kFirstAnalysisBound ? facts_of(tile) : analysis_bound_facts_of(tile);
        });
        // Past the tiles taken before the first write and up to the first tile taken after an analysis-bound one
        // was written: one ahead.
        EXPECT_EQ(*std::max_element(ahead.begin() + threads + 2, ahead.begin() + kFirstAnalysisBound + 1), 1u)
            << threads << " threads";
        EXPECT_EQ(*std::max_element(ahead.begin() + kFirstAnalysisBound + threads + 2, ahead.end()), threads)
            << threads << " threads";
    }
}

// A failed analysis is reported when its tile's turn to be written comes: the tiles before it are written, none
// after it.
TEST(ParallelAnalysis, AFailedAnalysisIsReportedInTileOrder) {
    constexpr std::size_t kFailing = 9;
    for (const unsigned threads : {1u, 2u, 4u}) {
        std::vector<std::size_t> written;
        try {
            run_analysis_pipeline(
                100, threads,
                [&](std::size_t tile, AnalysingThread) {
                    if (tile == kFailing) throw std::runtime_error("tile " + std::to_string(tile));
                    return facts_of(tile);
                },
                [&](std::size_t tile, const BlockFacts&) { written.push_back(tile); });
            ADD_FAILURE() << "no failure reported with " << threads << " threads";
        } catch (const std::runtime_error& error) {
            EXPECT_EQ(std::string(error.what()), "tile 9");
        }
        EXPECT_EQ(written.size(), kFailing) << threads;
    }
}

// Once an analysis has failed, no tile is taken any more, although the writes of the tiles before the failed one
// move the bound ahead on: the write of the first tile that lets the failing one be taken waits until that
// analysis has failed (and a while longer, for the failing thread to record the failure even on a loaded machine),
// so every later tile would be taken after the failure. Without the stop, the writes up to the failed tile would let
// the analysers take `threads` more.
TEST(ParallelAnalysis, NoTileIsTakenAfterAFailedAnalysis) {
    constexpr std::size_t kFailing = 9;
    for (const unsigned threads : {2u, 4u}) {
        Signal failed;
        std::atomic<std::size_t> last_taken{0};
        std::size_t written = 0;
        EXPECT_THROW(run_analysis_pipeline(
                         100, threads,
                         [&](std::size_t tile, AnalysingThread) {
                             std::size_t seen = last_taken.load();
                             while (tile > seen && !last_taken.compare_exchange_weak(seen, tile)) {}
                             // Analysis-bound tiles, so that the bound ahead is `threads` throughout.
                             if (tile != kFailing) return analysis_bound_facts_of(tile);
                             failed.raise();
                             throw std::runtime_error("tile " + std::to_string(tile));
                         },
                         [&](std::size_t tile, const BlockFacts&) {
                             if (tile == kFailing - threads) {
                                 EXPECT_TRUE(failed.wait_for_a_while()) << threads;
                                 std::this_thread::sleep_for(std::chrono::milliseconds(100));
                             }
                             ++written;
                         }),
                     std::runtime_error);
        EXPECT_EQ(written, kFailing) << threads;
        EXPECT_EQ(last_taken.load(), kFailing) << threads << " threads";
    }
}

// A write that fails comes before the failed analysis of a later tile: the write's error is the one reported, and
// the helpers are stopped and joined before it is.
TEST(ParallelAnalysis, AFailedWriteIsReportedBeforeALaterFailedAnalysis) {
    for (const unsigned threads : {2u, 4u}) {
        std::size_t writes = 0;
        try {
            run_analysis_pipeline(
                100, threads,
                [&](std::size_t tile, AnalysingThread) {
                    if (tile == 6) throw std::runtime_error("analysis of tile 6");
                    return facts_of(tile);
                },
                [&](std::size_t tile, const BlockFacts&) {
                    ++writes;
                    if (tile == 4) throw std::logic_error("write of tile 4");
                });
            ADD_FAILURE() << "no failure reported";
        } catch (const std::logic_error& error) {
            EXPECT_EQ(std::string(error.what()), "write of tile 4");
        }
        EXPECT_EQ(writes, 5u);
    }
}
