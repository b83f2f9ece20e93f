// Cost of handing a batch from reader threads to the trainer through the ordered prefetch queue
// (one acquire/publish/take/release cycle per item), by capacity and number of producers.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "pipeline/prefetch_queue.h"

namespace {

void BM_PrefetchQueueHandOver(benchmark::State& state) {
  const auto capacity = static_cast<std::size_t>(state.range(0));
  const auto producers = static_cast<int>(state.range(1));
  constexpr std::uint64_t kItems = 20000;
  for (auto _ : state) {
    dlbench::pipeline::PrefetchQueue<std::uint64_t> queue(capacity);
    std::atomic<std::uint64_t> next{0};
    std::vector<std::thread> threads;
    for (int p = 0; p < producers; ++p) {
      threads.emplace_back([&] {
        for (;;) {
          const std::uint64_t seq = next.fetch_add(1);
          if (seq >= kItems) return;
          std::uint64_t* slot = queue.acquire(seq);
          if (slot == nullptr) return;
          *slot = seq;
          queue.publish(seq);
        }
      });
    }
    std::uint64_t sum = 0;
    for (std::uint64_t seq = 0; seq < kItems; ++seq) {
      sum += *queue.take(seq);
      queue.release(seq);
    }
    benchmark::DoNotOptimize(sum);
    for (std::thread& t : threads) t.join();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}

BENCHMARK(BM_PrefetchQueueHandOver)
    ->ArgsProduct({{1, 4, 16}, {1, 4}})
    ->ArgNames({"capacity", "producers"})
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
