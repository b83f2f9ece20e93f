// Cost of deciding which samples a rank reads: one step's batch of sample references from the
// epoch order (Feistel permutations, O(1) per sample for any N), by dataset size N = 1e4 .. 1e8
// and shuffle (off, file_shuffle seed, file_shuffle + sample_shuffle seed). Items are samples:
// items_per_second is the index generation rate a reader pool can draw on.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "config/enums.h"
#include "pipeline/sampler.h"

namespace {

using dlbench::config::Shuffle;
using dlbench::pipeline::Sampler;
using dlbench::pipeline::SampleRef;
using dlbench::pipeline::SamplerOptions;

constexpr std::uint64_t kSamplesPerFile = 4;

SamplerOptions Options(std::uint64_t samples, int shuffle, std::uint64_t batch) {
  SamplerOptions options;
  options.files = samples / kSamplesPerFile;
  options.samples_per_file = kSamplesPerFile;
  options.ranks = 8;
  options.rank = 3;
  options.batch_size = batch;
  options.file_shuffle = shuffle >= 1 ? Shuffle::kSeed : Shuffle::kOff;
  options.sample_shuffle = shuffle >= 2 ? Shuffle::kSeed : Shuffle::kOff;
  return options;
}

void BM_SamplerBatch(benchmark::State& state) {
  const auto samples = static_cast<std::uint64_t>(state.range(0));
  const auto batch = static_cast<std::uint64_t>(state.range(2));
  const Sampler sampler(Options(samples, static_cast<int>(state.range(1)), batch));
  const auto order = sampler.epoch(1);
  std::vector<SampleRef> out(batch);
  std::uint64_t step = 0;
  for (auto _ : state) {
    sampler.batch(order, step, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    if (++step == sampler.steps_per_epoch()) step = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * batch));
}

BENCHMARK(BM_SamplerBatch)
    ->ArgsProduct({{10'000, 1'000'000, 100'000'000}, {0, 1, 2}, {4, 256}})
    ->ArgNames({"N", "shuffle", "batch"});

// The per-epoch set-up (keys of the permutations).
void BM_SamplerEpochOrder(benchmark::State& state) {
  const auto samples = static_cast<std::uint64_t>(state.range(0));
  const Sampler sampler(Options(samples, 2, 4));
  int epoch = 1;
  for (auto _ : state) {
    auto order = sampler.epoch(epoch++);
    benchmark::DoNotOptimize(order);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_SamplerEpochOrder)->Arg(10'000)->Arg(100'000'000)->ArgName("N");

}  // namespace

BENCHMARK_MAIN();
