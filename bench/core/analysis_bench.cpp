// The two per-value passes of automatic encoding, each against memcpy of the same bytes in the same run and on
// as many threads: the analysis (which block type and narrowest exact value type a block of values allows) and
// the narrowing copy that stores a block in the type chosen. Rates are bytes of input per second, summed over the
// threads; every thread works on 32 MiB of its own, larger than its share of the last-level cache.
// BM_AnalyzeValueByValue is the per-value analysis that observe_values replaced, kept as the yardstick of the gain.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "bench_data.hpp"
#include "narrowing_copy.hpp"
#include "value_analysis.hpp"

namespace dbdf::bench {
namespace {

constexpr std::size_t kValues = std::size_t{1} << 22;  // 32 MiB of float64 per thread

void BM_MemcpyPerThread(benchmark::State& state) { copy_bytes_each_iteration(state, kValues * sizeof(double)); }
BENCHMARK(BM_MemcpyPerThread)->Threads(1)->Threads(2)->UseRealTime();

// Random doubles close the analysis at the first chunk; small integers (1..100, u8) and 1% of them (CSR) keep it
// open to the end; halves (f32) only need the round-trip test. Integers 0..30000 are u16; 0..10^6 are f32 (floats
// hold every integer up to 2^24, and f32 is the source's kind); odd integers up to +-2^30 are i32.
enum Content { kRandom, kSmallIntegers, kOnePercent, kHalves, kWide, kMillions, kWords };

// Integers drawn uniformly from [low, high], made odd when `odd` (beyond 2^24 an odd integer is not a float).
std::vector<double> integers(std::int64_t low, std::int64_t high, bool odd) {
    std::vector<double> values(kValues);
    std::uint64_t state = 88172645463325252ull;
    const auto span = static_cast<std::uint64_t>(high - low) + 1;
    for (double& value : values) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        const std::int64_t drawn = low + static_cast<std::int64_t>(state % span);
        value = static_cast<double>(odd ? (drawn | 1) : drawn);
    }
    return values;
}

std::vector<double> content(Content kind) {
    switch (kind) {
        case kRandom: return random_doubles(kValues);
        case kSmallIntegers: return sparse_values<double>(kValues, 1.0);
        case kOnePercent: return sparse_values<double>(kValues, 0.01);
        case kHalves: {
            std::vector<double> values = sparse_values<double>(kValues, 1.0);
            for (double& value : values) value += 0.5;
            return values;
        }
        case kWide: return integers(0, 30000, false);
        case kMillions: return integers(0, 1000000, false);
        case kWords: return integers(-(std::int64_t{1} << 30), std::int64_t{1} << 30, true);
    }
    return {};
}

template <class T>
void analyze(benchmark::State& state, const std::vector<T>& values) {
    std::uint64_t nonzero = 0;
    for (auto _ : state) {
        detail::NarrowingAnalysis<T> analysis;
        nonzero = analysis.observe_values(values.data(), values.size());
        benchmark::DoNotOptimize(analysis.feasible());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * values.size() * sizeof(T)));
    state.counters["nonzero"] = static_cast<double>(nonzero);
}

void BM_Analyze_f64_random(benchmark::State& state) { analyze(state, content(kRandom)); }
void BM_Analyze_f64_small_integers(benchmark::State& state) { analyze(state, content(kSmallIntegers)); }
void BM_Analyze_f64_1pct(benchmark::State& state) { analyze(state, content(kOnePercent)); }
void BM_Analyze_f64_halves(benchmark::State& state) { analyze(state, content(kHalves)); }
void BM_Analyze_i64_small_integers(benchmark::State& state) {
    analyze(state, sparse_values<std::int64_t>(kValues, 1.0));
}
void BM_Analyze_i32_small_integers(benchmark::State& state) {
    analyze(state, sparse_values<std::int32_t>(kValues, 1.0));
}
BENCHMARK(BM_Analyze_f64_random)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Analyze_f64_small_integers)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Analyze_f64_1pct)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Analyze_f64_halves)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Analyze_i64_small_integers)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Analyze_i32_small_integers)->Threads(1)->Threads(2)->UseRealTime();

// The analysis as the writer runs it for a block of doubles: it also stores every value in the narrowest type
// that holds the values seen so far, which is the whole payload of a block that narrows to u8 / i8, u16 / i16,
// u32 / i32 or f32 (the narrowing copy fused into the analysis). The buffer is kept from one run to the next, as
// the bytes' buffer was before the wider types were stored.
void analyze_storing(benchmark::State& state, const std::vector<double>& values) {
    detail::NarrowedValues narrowed(values.size(), nullptr);
    for (auto _ : state) {
        narrowed.restart();
        detail::NarrowingAnalysis<double> analysis;
        benchmark::DoNotOptimize(analysis.observe_values(values.data(), values.size(), &narrowed));
        benchmark::DoNotOptimize(narrowed.payload().data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * values.size() * sizeof(double)));
    state.SetLabel(std::string(name(narrowed.type())));
}
void BM_AnalyzeStoringBytes_f64_small_integers(benchmark::State& state) {
    analyze_storing(state, content(kSmallIntegers));
}
BENCHMARK(BM_AnalyzeStoringBytes_f64_small_integers)->Threads(1)->Threads(2)->UseRealTime();

// The same for blocks stored in two or four bytes a value; the analysis alone of the same values beside them. Before
// the wider stores, such a block cost the analysis plus the narrowing copy (BM_Narrow_f64_to_*).
void BM_AnalyzeStoring_f64_wide_u16(benchmark::State& state) { analyze_storing(state, content(kWide)); }
void BM_AnalyzeStoring_f64_millions_f32(benchmark::State& state) { analyze_storing(state, content(kMillions)); }
void BM_AnalyzeStoring_f64_words_i32(benchmark::State& state) { analyze_storing(state, content(kWords)); }
void BM_AnalyzeStoring_f64_halves_f32(benchmark::State& state) { analyze_storing(state, content(kHalves)); }
void BM_Analyze_f64_wide_u16(benchmark::State& state) { analyze(state, content(kWide)); }
void BM_Analyze_f64_millions_f32(benchmark::State& state) { analyze(state, content(kMillions)); }
void BM_Analyze_f64_words_i32(benchmark::State& state) { analyze(state, content(kWords)); }
BENCHMARK(BM_AnalyzeStoring_f64_wide_u16)->Threads(1)->UseRealTime();
BENCHMARK(BM_AnalyzeStoring_f64_millions_f32)->Threads(1)->UseRealTime();
BENCHMARK(BM_AnalyzeStoring_f64_words_i32)->Threads(1)->UseRealTime();
BENCHMARK(BM_AnalyzeStoring_f64_halves_f32)->Threads(1)->UseRealTime();
BENCHMARK(BM_Analyze_f64_wide_u16)->Threads(1)->UseRealTime();
BENCHMARK(BM_Analyze_f64_millions_f32)->Threads(1)->UseRealTime();
BENCHMARK(BM_Analyze_f64_words_i32)->Threads(1)->UseRealTime();

void BM_AnalyzeValueByValue_f64_small_integers(benchmark::State& state) {
    const std::vector<double> values = content(kSmallIntegers);
    for (auto _ : state) {
        detail::NarrowingAnalysis<double> analysis;
        for (double value : values) {
            if (!detail::is_bit_zero_value(value)) analysis.observe(value);
        }
        benchmark::DoNotOptimize(analysis.feasible());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * values.size() * sizeof(double)));
}
BENCHMARK(BM_AnalyzeValueByValue_f64_small_integers)->Threads(1)->UseRealTime();

// Values of T that every E holds (1..100), stored as E.
template <class E, class T>
void narrow(benchmark::State& state) {
    const std::vector<T> values = sparse_values<T>(kValues, 1.0);
    std::vector<std::byte> stored(kValues * sizeof(E));
    for (auto _ : state) {
        detail::store_converted<E>(values.data(), values.size(), stored.data());
        benchmark::DoNotOptimize(stored.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * values.size() * sizeof(T)));
}

void BM_Narrow_f64_to_u8(benchmark::State& state) { narrow<std::uint8_t, double>(state); }
void BM_Narrow_f64_to_i8(benchmark::State& state) { narrow<std::int8_t, double>(state); }
void BM_Narrow_f64_to_i16(benchmark::State& state) { narrow<std::int16_t, double>(state); }
void BM_Narrow_f64_to_i32(benchmark::State& state) { narrow<std::int32_t, double>(state); }
void BM_Narrow_f64_to_f32(benchmark::State& state) { narrow<float, double>(state); }
void BM_Narrow_i64_to_i32(benchmark::State& state) { narrow<std::int32_t, std::int64_t>(state); }
void BM_Narrow_i64_to_u8(benchmark::State& state) { narrow<std::uint8_t, std::int64_t>(state); }
void BM_Narrow_i32_to_i16(benchmark::State& state) { narrow<std::int16_t, std::int32_t>(state); }
void BM_Narrow_u16_to_u8(benchmark::State& state) { narrow<std::uint8_t, std::uint16_t>(state); }
BENCHMARK(BM_Narrow_f64_to_u8)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Narrow_f64_to_i8)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_f64_to_i16)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_f64_to_i32)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_f64_to_f32)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_i64_to_i32)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_i64_to_u8)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_i32_to_i16)->Threads(1)->UseRealTime();
BENCHMARK(BM_Narrow_u16_to_u8)->Threads(1)->UseRealTime();

}  // namespace
}  // namespace dbdf::bench

BENCHMARK_MAIN();
