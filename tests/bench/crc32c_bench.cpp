// CRC32C throughput of the SSE4.2 and the portable path, per buffer size.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "util/crc32c.h"

namespace {

std::vector<std::uint8_t> Data(std::size_t n) {
  std::vector<std::uint8_t> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  return data;
}

void BM_Crc32cHardware(benchmark::State& state) {
  const auto data = Data(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(dlbench::crc32c::ExtendHardware(0, data.data(), data.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32cHardware)->Arg(64)->Arg(4096)->Arg(1 << 20);

void BM_Crc32cPortable(benchmark::State& state) {
  const auto data = Data(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(dlbench::crc32c::ExtendPortable(0, data.data(), data.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32cPortable)->Arg(64)->Arg(4096)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
