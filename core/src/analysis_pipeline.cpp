#include "analysis_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <system_error>
#include <thread>
#include <vector>

namespace dbdf::detail {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// What the threads of one pipeline share: which tiles are taken, analysed and written, and how many threads
// analyse. Every change a thread can wait for (a tile analysed or written, one more analyser, a stop) is followed
// by a step of `progress_`, which a thread with nothing to do waits on; so a thread that read `progress_` before
// it found nothing to do cannot miss the change it waits for. (Taking a tile frees nobody, so it takes no step.)
class TileBoard {
public:
    TileBoard(std::size_t tiles, const TileAnalysis& analyse)
        : tiles_(tiles), analyse_(analyse), facts_(tiles), failures_(tiles), analysed_(tiles) {}

    std::size_t tiles() const { return tiles_; }

    // The next tile not yet taken, when it lies within the bound ahead of the next tile to write (one tile while
    // the last one written was bound by its write, see written()) and no analysis has failed so far (the tiles
    // after a failed one are never written); kNone otherwise. A tile taken by one thread just as another's analysis
    // fails is still analysed, and dropped with the rest.
    std::size_t take() {
        const std::size_t ahead = write_bound_.load() ? 1 : ahead_.load();
        const std::size_t limit = std::min(tiles_, emitted_.load() + ahead + 1);
        std::size_t next = taken_.load();
        while (next < limit && !stop_.load()) {
            if (taken_.compare_exchange_weak(next, next + 1)) return next;
        }
        return kNone;
    }

    // Analyses a taken tile; its facts or its exception wait for the writing thread.
    void analyse(std::size_t tile, AnalysingThread thread) {
        try {
            facts_[tile] = analyse_(tile, thread);
        } catch (...) {
            failures_[tile] = std::current_exception();
            stop_.store(true);
        }
        analysed_[tile].store(true, std::memory_order_release);
        step();
    }

    bool analysed(std::size_t tile) const { return analysed_[tile].load(std::memory_order_acquire); }
    const std::exception_ptr& failure(std::size_t tile) const { return failures_[tile]; }
    const BlockFacts& facts(std::size_t tile) const { return facts_[tile]; }

    // After emit: the tile's buffers (BlockFacts::narrowed and the like) go, and one more tile may be taken. A tile
    // that was neither narrowed nor collected as CSR was written from the caller's values as they are (dense, or
    // CSR read from them again): bound by its write, so the next tiles are analysed only one ahead.
    void written(std::size_t tile) {
        write_bound_.store(!facts_[tile].narrowed.storing() && facts_[tile].csr_payload == nullptr);
        facts_[tile] = BlockFacts{};
        emitted_.store(tile + 1);
        step();
    }

    void stop() {
        stop_.store(true);
        step();
    }

    // A helper thread has started: one more tile may be analysed ahead of the writing.
    void add_analyser() {
        ahead_.fetch_add(1);
        step();
    }

    bool stopped() const { return stop_.load(); }
    bool all_taken() const { return taken_.load() >= tiles_; }

    std::uint32_t progress() const { return progress_.load(std::memory_order_acquire); }
    void wait_past(std::uint32_t seen) const { progress_.wait(seen, std::memory_order_acquire); }

private:
    void step() {
        progress_.fetch_add(1, std::memory_order_acq_rel);
        progress_.notify_all();
    }

    const std::size_t tiles_;
    // How many tiles may be analysed ahead of the next one written: one per thread that analyses, the caller's
    // included, counted as they start (fewer than asked for when the system has no more threads to give).
    std::atomic<std::size_t> ahead_{1};
    std::atomic<bool> write_bound_{false};  // whether the last tile written was bound by its write
    const TileAnalysis& analyse_;
    std::vector<BlockFacts> facts_;
    std::vector<std::exception_ptr> failures_;
    std::vector<std::atomic<bool>> analysed_;
    std::atomic<std::size_t> taken_{0};
    std::atomic<std::size_t> emitted_{0};
    std::atomic<bool> stop_{false};
    // 32 bits: the width a futex waits on directly. Waits compare for equality, so wrapping around is harmless.
    std::atomic<std::uint32_t> progress_{0};
};

// A helper thread: analyses the tiles it can take until all are taken or the pipeline stops.
void analyse_tiles(TileBoard& board) {
    while (!board.stopped() && !board.all_taken()) {
        const std::uint32_t seen = board.progress();
        const std::size_t tile = board.take();
        if (tile != kNone) {
            board.analyse(tile, AnalysingThread::Helper);
        } else if (!board.stopped() && !board.all_taken()) {
            board.wait_past(seen);  // the bound ahead is reached: until a tile is written
        }
    }
}

// The caller's thread: writes the tiles in order, analysing one itself whenever the next is not analysed yet.
void write_tiles(TileBoard& board, const std::function<void(std::size_t, const BlockFacts&)>& emit) {
    for (std::size_t i = 0; i < board.tiles(); ++i) {
        while (!board.analysed(i)) {
            const std::uint32_t seen = board.progress();
            if (board.analysed(i)) break;
            const std::size_t tile = board.take();
            if (tile != kNone) {
                board.analyse(tile, AnalysingThread::Writer);
            } else {
                board.wait_past(seen);  // tile i is being analysed on a helper
            }
        }
        if (board.failure(i)) std::rethrow_exception(board.failure(i));
        emit(i, board.facts(i));
        board.written(i);
    }
}

}  // namespace

void run_analysis_pipeline(std::size_t tiles, unsigned threads, const TileAnalysis& analyse,
                           const std::function<void(std::size_t, const BlockFacts&)>& emit) {
    if (threads < 2 || tiles < 2) {
        for (std::size_t i = 0; i < tiles; ++i) emit(i, analyse(i, AnalysingThread::Writer));
        return;
    }
    const std::size_t analysers = std::min<std::size_t>(threads, tiles);
    // As many tiles ahead as there are analysers: each can work on a tile of its own while the next is written.
    // No more, because a tile analysed long before it is written has left the caches by then, and the writer
    // (the kernel's copy of a dense payload, above all) reads it from memory again: with 2 threads, random doubles
    // were written 3 to 5% slower with 3 or 4 tiles ahead than with 2, and 1% non-zeros (bound by their analysis)
    // 20% slower with 1 (bench/RESULTS.md). After a tile written from the caller's values as they are, the bound
    // is one tile (TileBoard::take): its write, the kernel's copy, is the longer part, and it reads values the
    // analysis has just brought into the caches (random doubles about 4% faster than with two ahead). The facts held
    // stay small: a tile's narrowed values are at most half its values' bytes, its CSR payload at most a quarter.
    TileBoard board(tiles, analyse);
    std::vector<std::thread> helpers;
    helpers.reserve(analysers - 1);
    // Joined on every way out, a failure here included.
    const auto join = [&] {
        board.stop();
        for (std::thread& helper : helpers) helper.join();
    };
    try {
        for (std::size_t i = 1; i < analysers; ++i) {
            helpers.emplace_back(analyse_tiles, std::ref(board));
            board.add_analyser();
        }
    } catch (const std::system_error&) {
        // No more threads to be had: the ones started, and the caller's, analyse every tile all the same.
    } catch (...) {
        join();  // no memory for another thread: the ones started stop before the failure is reported
        throw;
    }
    try {
        write_tiles(board, emit);
    } catch (...) {
        join();
        throw;
    }
    join();
}

}  // namespace dbdf::detail
