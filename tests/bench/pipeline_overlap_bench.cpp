// End-to-end check of the overlap between reading and emulated compute, with a synthetic slow
// reader instead of storage: each batch takes `read_ms` to read on one thread, each step
// `compute_ms` of compute. Steady state: with threads = 0 a step lasts read + compute; with
// T ≥ 1 threads it lasts max(compute, read / T), so AU = compute / that. The counters give the
// measured AU next to the analytic one (a timing check, so it lives here, not in ctest).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "metrics/au.h"
#include "pipeline/sampler.h"
#include "pipeline/trainer.h"

namespace {

using namespace dlbench;

class SlowSource final : public pipeline::SampleSource {
 public:
  explicit SlowSource(std::chrono::microseconds delay) : delay_(delay) {}
  std::unique_ptr<pipeline::SampleFile> open(FileIndex) override {
    return std::make_unique<File>(delay_);
  }

 private:
  class File final : public pipeline::SampleFile {
   public:
    explicit File(std::chrono::microseconds delay) : delay_(delay) {}
    Bytes sample_bytes() const override { return 1; }
    Bytes open_bytes() const override { return 0; }
    Bytes read(std::uint64_t, std::span<std::byte>) override {
      std::this_thread::sleep_for(delay_);
      return 1;
    }

   private:
    std::chrono::microseconds delay_;
  };
  std::chrono::microseconds delay_;
};

void BM_Overlap(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const double read_ms = 30, compute_ms = 20;
  constexpr std::uint64_t kSteps = 20;
  pipeline::SamplerOptions so;
  so.files = kSteps;
  so.batch_size = 1;
  const pipeline::Sampler sampler(so);
  double au = 0;
  for (auto _ : state) {
    SlowSource source(std::chrono::microseconds(static_cast<int>(read_ms * 1000)));
    pipeline::TrainerOptions options;
    options.computation_time.mean = compute_ms / 1000;
    options.reader.threads = threads;
    options.reader.prefetch = 1;
    pipeline::Trainer trainer(source, sampler, nullptr, nullptr, options);
    metrics::RankRecord record;
    trainer.run(record);
    au = metrics::EpochAuPercent(record.epochs.at(0), kSteps, metrics::Exclusion{});
  }
  const double step_ms =
      threads == 0 ? read_ms + compute_ms : std::max(compute_ms, read_ms / threads);
  state.counters["au_percent"] = au;
  state.counters["au_analytic_percent"] = 100 * compute_ms / step_ms;
}

BENCHMARK(BM_Overlap)->Arg(0)->Arg(1)->Arg(2)->ArgName("threads")->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
