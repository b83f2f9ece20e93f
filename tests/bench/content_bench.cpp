// Throughput of the content generator: generation must not limit how fast files are written
// (target: at least 4 GiB/s per core).
#include <benchmark/benchmark.h>

#include <vector>

#include "dataset/content.h"

namespace {

using dlbench::config::ContentKind;

void Fill(benchmark::State& state, ContentKind kind, dlbench::Bytes offset) {
  const dlbench::dataset::ContentGenerator generator(kind, 2.0, 42);
  std::vector<std::byte> buffer(static_cast<std::size_t>(state.range(0)));
  std::uint64_t file = 0;
  for (auto _ : state) {
    generator.fill(file++, offset, buffer);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void BM_FillRandom(benchmark::State& state) { Fill(state, ContentKind::kRandom, 0); }
void BM_FillRandomUnaligned(benchmark::State& state) { Fill(state, ContentKind::kRandom, 3); }
void BM_FillCompressible(benchmark::State& state) { Fill(state, ContentKind::kCompressible, 0); }
void BM_FillZeros(benchmark::State& state) { Fill(state, ContentKind::kZeros, 0); }

BENCHMARK(BM_FillRandom)->Arg(4 << 10)->Arg(1 << 20)->Arg(16 << 20);
BENCHMARK(BM_FillRandomUnaligned)->Arg(1 << 20);
BENCHMARK(BM_FillCompressible)->Arg(1 << 20);
BENCHMARK(BM_FillZeros)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
