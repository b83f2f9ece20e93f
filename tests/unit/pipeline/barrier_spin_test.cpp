// The step barrier spins only while the trainer is the bottleneck: when the reader threads are
// behind (the next batch is not read yet), a spinning wait would take the CPU they need while the
// trainer waits for them anyway (2 ranks x (trainer + reader) on 2 cores lost 20-30 % of their
// CPU to it at computation_time 0, results/read.md).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "fake_sample_source.h"
#include "pipeline/reader_pool.h"
#include "pipeline/trainer.h"
#include "support/watchdog.h"

namespace dlbench::pipeline {
namespace {

using namespace std::chrono_literals;
using dlbench::test::Watchdog;
using test::FakeSource;

SamplerOptions Shape(std::uint64_t files) {
  SamplerOptions o;
  o.files = files;
  o.batch_size = 1;
  return o;
}

TEST(ReaderPool, BehindWhileTheNextBatchIsNotRead) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(2));
  const EpochOrder order = sampler.epoch(1);
  ReaderOptions options;
  options.threads = 1;

  FakeSource slow;
  slow.read_delay = 500ms;
  ReaderPool slow_pool(slow, sampler, order, 2, options);
  EXPECT_TRUE(slow_pool.behind());  // step 0 takes half a second
  ASSERT_NE(slow_pool.next_for(20s), nullptr);
  slow_pool.release();
  EXPECT_TRUE(slow_pool.behind());  // step 1 was started at the earliest with step 0's end

  FakeSource fast;
  ReaderPool fast_pool(fast, sampler, order, 2, options);
  while (fast_pool.behind()) std::this_thread::sleep_for(1ms);  // step 0 arrives
  ASSERT_NE(fast_pool.next_for(20s), nullptr);
  fast_pool.release();
  ASSERT_NE(fast_pool.next_for(20s), nullptr);
  fast_pool.release();
  EXPECT_FALSE(fast_pool.behind());  // no step left to wait for

  options.threads = 0;  // next() reads on the caller's thread: never waits for others
  ReaderPool inline_pool(slow, sampler, order, 2, options);
  EXPECT_FALSE(inline_pool.behind());
}

// Which `spin` the trainer passes to the barrier at each step.
std::vector<bool> BarrierSpins(FakeSource& source, double computation_seconds) {
  const Sampler sampler(Shape(4));
  TrainerOptions options;
  options.computation_time.mean = computation_seconds;
  options.reader.threads = 1;
  options.reader.prefetch = 4;
  std::vector<bool> spins;
  TrainerHooks hooks;
  hooks.barrier = [&](bool spin) { spins.push_back(spin); };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  return spins;
}

TEST(Trainer, BarrierSpinsOnlyWhenTheNextBatchIsReady) {
  Watchdog watchdog(60s);
  // Reads of 300 ms, no compute: the readers are behind at every step but the last, which has
  // no next batch to wait for.
  FakeSource slow;
  slow.read_delay = 300ms;
  EXPECT_EQ(BarrierSpins(slow, 0), (std::vector<bool>{false, false, false, true}));
  // Instant reads, 200 ms of compute: every next batch is read during the compute.
  FakeSource fast;
  EXPECT_EQ(BarrierSpins(fast, 0.2), (std::vector<bool>{true, true, true, true}));
}

}  // namespace
}  // namespace dlbench::pipeline
