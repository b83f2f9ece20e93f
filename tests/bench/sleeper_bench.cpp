// How late the emulated accelerator's wait returns (it never returns early; see
// precise_sleep_test.cpp), compared with a plain sleep_for. Counters: mean and max lateness in µs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "pipeline/precise_sleep.h"

namespace {

using Clock = std::chrono::steady_clock;

template <typename Wait>
void MeasureLateness(benchmark::State& state, Wait wait) {
  const double duration = static_cast<double>(state.range(0)) * 1e-6;
  double total_late = 0, max_late = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    wait(duration);
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    const double late = (took - duration) * 1e6;
    total_late += late;
    max_late = std::max(max_late, late);
  }
  state.counters["late_mean_us"] = total_late / static_cast<double>(state.iterations());
  state.counters["late_max_us"] = max_late;
}

void BM_PreciseSleep(benchmark::State& state) {
  MeasureLateness(state, [](double d) { dlbench::pipeline::PreciseSleep(d); });
}

void BM_SleepFor(benchmark::State& state) {
  MeasureLateness(state,
                  [](double d) { std::this_thread::sleep_for(std::chrono::duration<double>(d)); });
}

// Durations in µs: below the spin margin, around a typical preprocess time, a typical step.
BENCHMARK(BM_PreciseSleep)->Arg(50)->Arg(500)->Arg(5000)->Arg(20000)->Iterations(200);
BENCHMARK(BM_SleepFor)->Arg(50)->Arg(500)->Arg(5000)->Arg(20000)->Iterations(200);

}  // namespace

BENCHMARK_MAIN();
