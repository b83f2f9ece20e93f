// The step barrier spins only when it pays (BarrierWait): not when the reader threads are behind
// (the next batch is not read yet), as the trainer waits for them anyway, and not after a barrier
// that outlasted the spin (the last rank is that late again, most likely); a spinning wait takes
// the CPU the readers need (2 ranks x (trainer + reader) on 2 cores lost 20-30 % of their CPU to
// it at computation_time 0, results/read.md); nor, on a node without a spare core, while a
// reader thread is reading (the spin and fast polls would preempt it).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "fake_sample_source.h"
#include "pipeline/reader_pool.h"
#include "pipeline/thread_policy.h"
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
  ReaderPoolOptions options;
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

struct Barriers {
  std::vector<bool> spins;     // whether each step's barrier spun
  std::vector<bool> reading;   // whether a read was in progress when it began
  std::vector<Seconds> waits;  // each step's recorded barrier wait
  // What BarrierWait asks of step i when the next batch is ready: spin unless the previous
  // step's wait outlasted the spin (a preempted trainer may make any wait long, so the tests
  // check this rule rather than fixed values).
  bool spins_when_ready(std::size_t i) const {
    return i == 0 || waits[i - 1] <= BarrierWait::kSpin;
  }
};

// The barrier of step `slow_barrier` (1-based; 0: none) lasts 5 ms.
Barriers RunBarriers(FakeSource& source, double computation_seconds, int slow_barrier = 0,
                     bool spare_core = false, std::uint64_t files = 4) {
  const Sampler sampler(Shape(files));
  TrainerOptions options;
  options.spare_core = spare_core;
  options.computation_time.mean = computation_seconds;
  options.reader.threads = 1;
  options.reader.prefetch = 4;
  Barriers result;
  TrainerHooks hooks;
  hooks.barrier = [&](Seconds spin, Seconds poll) {
    result.spins.push_back(spin > 0);
    result.reading.push_back(source.reading.load() > 0);
    EXPECT_GT(poll, 0.0);
    if (static_cast<int>(result.spins.size()) == slow_barrier) std::this_thread::sleep_for(5ms);
  };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  for (const auto& step : record.epochs.at(0).blocks.at(0).steps)
    result.waits.push_back(step.barrier);
  return result;
}

TEST(Trainer, BarrierSpinsOnlyWhenTheNextBatchIsReady) {
  Watchdog watchdog(60s);
  // Reads of 300 ms, no compute: the readers are behind at every step but the last, which has
  // no next batch to wait for.
  FakeSource slow;
  slow.read_delay = 300ms;
  const Barriers behind = RunBarriers(slow, 0);
  ASSERT_EQ(behind.spins.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_FALSE(behind.spins[i]) << i;
  EXPECT_EQ(behind.spins[3], behind.spins_when_ready(3));
  // Instant reads, 200 ms of compute: every next batch is read during the compute.
  FakeSource fast;
  const Barriers ready = RunBarriers(fast, 0.2);
  ASSERT_EQ(ready.spins.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(ready.spins[i], ready.spins_when_ready(i)) << i;
  EXPECT_TRUE(ready.spins[0]);
}

TEST(Trainer, BarrierDoesNotSpinAfterABarrierThatOutlastedTheSpin) {
  Watchdog watchdog(60s);
  FakeSource fast;  // every next batch is ready at the barrier
  const Barriers ready = RunBarriers(fast, 0.05, /*slow_barrier=*/2);
  ASSERT_EQ(ready.spins.size(), 4u);
  EXPECT_GE(ready.waits[1], 0.005);
  EXPECT_FALSE(ready.spins[2]);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(ready.spins[i], ready.spins_when_ready(i)) << i;
}

// Reads of 40 ms, 60 ms of compute: at each barrier the next batch is read and the reader thread
// is reading a later one. On a full node (the default) the trainer must not spin then: it would
// take the core that read needs; with a spare core it spins as when the readers are idle.
TEST(Trainer, BarrierDoesNotSpinWhileAReaderReadsOnAFullNode) {
  Watchdog watchdog(60s);
  FakeSource source;
  source.read_delay = 40ms;
  const Barriers full = RunBarriers(source, 0.06, 0, /*spare_core=*/false, /*files=*/6);
  ASSERT_EQ(full.spins.size(), 6u);
  int while_reading = 0;
  for (std::size_t i = 0; i < full.spins.size(); ++i) {
    if (!full.reading[i]) continue;
    ++while_reading;
    EXPECT_FALSE(full.spins[i]) << "step " << i << " spun while a reader was reading";
  }
  EXPECT_GE(while_reading, 1);  // else the timing did not make the case (step 0 does)
  const Barriers spare = RunBarriers(source, 0.06, 0, /*spare_core=*/true, /*files=*/6);
  ASSERT_EQ(spare.spins.size(), 6u);
  EXPECT_TRUE(spare.spins[0]);
}

TEST(BarrierWait, SpinsOnlyWhenReadyAndThePreviousWaitWasShort) {
  const BarrierWait behind = BarrierWait::For(true, 0);
  EXPECT_EQ(behind.spin, 0.0);
  EXPECT_EQ(behind.poll, BarrierWait::kPollBehind);
  const BarrierWait after_long = BarrierWait::For(false, 2 * BarrierWait::kSpin);
  EXPECT_EQ(after_long.spin, 0.0);
  EXPECT_EQ(after_long.poll, BarrierWait::kPoll);
  const BarrierWait ready = BarrierWait::For(false, BarrierWait::kSpin);
  EXPECT_EQ(ready.spin, BarrierWait::kSpin);
  EXPECT_EQ(ready.poll, BarrierWait::kPoll);
  const BarrierWait reading = BarrierWait::For(false, 0, /*readers_need_the_cores=*/true);
  EXPECT_EQ(reading.spin, 0.0);
  EXPECT_EQ(reading.poll, BarrierWait::kPollBehind);
}

TEST(BarrierWait, ASpareCoreIsOneCoreForEveryThreadOfTheNodesRanks) {
  EXPECT_FALSE(SpareCoreForTrainer(2, 1, 2));  // 2 readers + 2 trainers on 2 cores
  EXPECT_TRUE(SpareCoreForTrainer(2, 1, 4));
  EXPECT_FALSE(SpareCoreForTrainer(8, 4, 32));
  EXPECT_TRUE(SpareCoreForTrainer(8, 3, 32));
  EXPECT_TRUE(SpareCoreForTrainer(1, 0, 1));  // reads on the trainer thread
  EXPECT_GE(CoresAvailable(), 1);
}

}  // namespace
}  // namespace dlbench::pipeline
