#include "pipeline/reader_pool.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "fake_sample_source.h"
#include "support/expect_error.h"
#include "support/watchdog.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using namespace std::chrono_literals;
using dlbench::test::Watchdog;
using test::FakeSource;

SamplerOptions PoolShape(std::uint64_t files, std::uint64_t spf, std::uint64_t batch) {
  SamplerOptions o;
  o.files = files;
  o.samples_per_file = spf;
  o.batch_size = batch;
  o.sample_shuffle = config::Shuffle::kSeed;
  return o;
}

// Takes every batch of the epoch with a timeout, checking order and content.
std::vector<SampleRef> Drain(ReaderPool& pool, const Sampler& sampler, const EpochOrder& order) {
  std::vector<SampleRef> delivered;
  for (std::uint64_t step = 0; step < pool.steps(); ++step) {
    const Batch* batch = pool.next_for(20s);
    if (batch == nullptr) {
      ADD_FAILURE() << "step " << step << " never arrived";
      return delivered;
    }
    EXPECT_EQ(batch->step, step);
    EXPECT_EQ(batch->samples.size(), sampler.batch_size());
    for (std::uint64_t i = 0; i < batch->samples.size(); ++i) {
      EXPECT_EQ(batch->samples[i], sampler.sample(order, step, i));
      delivered.push_back(batch->samples[i]);
    }
    EXPECT_EQ(batch->samples_read, sampler.batch_size());
    EXPECT_EQ(batch->read_seconds.size(), sampler.batch_size());
    pool.release();
  }
  return delivered;
}

TEST(ReaderPool, DeliversEveryBatchInStepOrderForAnyThreadsAndPrefetch) {
  Watchdog watchdog(60s);
  const Sampler sampler(PoolShape(37, 3, 4));  // 111 samples, 27 steps
  const EpochOrder order = sampler.epoch(1);
  for (int threads : {0, 1, 4}) {
    for (int prefetch : {0, 1, 4}) {
      FakeSource source;
      source.read_delay = 20us;
      ReaderPoolOptions options;
      options.threads = threads;
      options.prefetch = prefetch;
      ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
      const auto delivered = Drain(pool, sampler, order);
      ASSERT_EQ(delivered.size(), 108u) << threads << " threads, prefetch " << prefetch;
      // Each sample read exactly once (no extra batch fetched after the last step).
      auto reads = source.reads();
      auto key = [](const SampleRef& s) { return std::pair(s.file, s.index); };
      std::vector<std::pair<FileIndex, std::uint64_t>> a, b;
      for (const auto& s : reads) a.push_back(key(s));
      for (const auto& s : delivered) b.push_back(key(s));
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      EXPECT_EQ(a, b);
      EXPECT_EQ(std::adjacent_find(b.begin(), b.end()), b.end());
    }
  }
}

TEST(ReaderPool, ReadsOnlyTheRequestedSteps) {
  Watchdog watchdog(30s);
  const Sampler sampler(PoolShape(40, 1, 2));
  const EpochOrder order = sampler.epoch(1);
  FakeSource source;
  ReaderPoolOptions options;
  options.threads = 3;
  options.prefetch = 8;
  ReaderPool pool(source, sampler, order, 5, options);
  EXPECT_EQ(Drain(pool, sampler, order).size(), 10u);
  pool.stop();
  EXPECT_EQ(source.reads().size(), 10u);  // the step cap: nothing read beyond it
  EXPECT_THROW(pool.next(), Error);
}

TEST(ReaderPool, CountsBytesWithOpensPerReadType) {
  Watchdog watchdog(30s);
  SamplerOptions shape = PoolShape(4, 5, 5);
  shape.sample_shuffle = config::Shuffle::kOff;  // a batch = one file
  const Sampler sampler(shape);
  const EpochOrder order = sampler.epoch(1);
  for (config::ReadType type : {config::ReadType::kOnDemand, config::ReadType::kMemory}) {
    FakeSource source;
    ReaderPoolOptions options;
    options.threads = 1;
    options.read_type = type;
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    const bool memory = type == config::ReadType::kMemory;
    for (std::uint64_t step = 0; step < 4; ++step) {
      const Batch* batch = pool.next_for(20s);
      ASSERT_NE(batch, nullptr);
      EXPECT_EQ(batch->bytes_read, 5 * 100 + (memory ? 1 : 5) * 10);
      pool.release();
    }
    EXPECT_EQ(source.opens(), memory ? 4u : 20u);
  }
}

TEST(ReaderPool, MemoryModeKeepsAFewFilesOpenPerThread) {
  Watchdog watchdog(30s);
  SamplerOptions shape = PoolShape(3, 4, 12);  // one batch reading files 0,1,2 interleaved
  shape.sample_shuffle = config::Shuffle::kSeed;
  const Sampler sampler(shape);
  const EpochOrder order = sampler.epoch(1);
  FakeSource source;
  ReaderPoolOptions options;
  options.threads = 0;
  options.read_type = config::ReadType::kMemory;
  options.open_files = 3;
  ReaderPool pool(source, sampler, order, 1, options);
  pool.next();
  pool.release();
  EXPECT_EQ(source.opens(), 3u);  // each file opened once
}

TEST(ReaderPool, StreamingOrderHandsEachFileToOneThread) {
  // tf.data order, files of 4 records read 1 or 3 per batch, so files continue across steps.
  // Each file must be streamed (opened) once per epoch whichever thread is free, as tf.data's
  // interleave gives a file to one reader; the reads are slowed so that the other threads are
  // free to take the continuing steps if the pool let them.
  Watchdog watchdog(60s);
  for (std::uint64_t batch : {1u, 3u}) {
    SamplerOptions shape = PoolShape(6, 4, batch);
    shape.order = SampleOrder::kFileMajor;
    shape.file_shuffle = config::Shuffle::kSeed;
    const Sampler sampler(shape);
    const EpochOrder order = sampler.epoch(1);
    FakeSource source;
    source.read_delay = 2ms;
    ReaderPoolOptions options;
    options.threads = 3;
    options.prefetch = 2;
    options.read_type = config::ReadType::kMemory;
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    const std::vector<SampleRef> delivered = Drain(pool, sampler, order);
    EXPECT_EQ(delivered.size(), sampler.steps_per_epoch() * batch);
    EXPECT_EQ(source.opens(), 6u) << "batch " << batch;
  }
}

TEST(ReaderPool, SkipModeCountsCorruptSamplesAndGoesOn) {
  Watchdog watchdog(30s);
  SamplerOptions shape = PoolShape(10, 2, 4);
  shape.sample_shuffle = config::Shuffle::kOff;
  const Sampler sampler(shape);
  const EpochOrder order = sampler.epoch(1);
  for (int threads : {0, 2}) {
    FakeSource source;
    source.corrupt = {{1, 1}, {6, 0}};
    source.missing = {8};  // samples 16, 17: step 4
    ReaderPoolOptions options;
    options.threads = threads;
    options.on_error = config::OnError::kSkip;
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    std::uint64_t failed = 0, read = 0;
    for (std::uint64_t step = 0; step < 5; ++step) {
      const Batch* batch = pool.next_for(20s);
      ASSERT_NE(batch, nullptr);
      failed += batch->samples_failed;
      read += batch->samples_read;
      if (step == 0) {
        EXPECT_NE(batch->first_error.find("file1"), std::string::npos);
      }
      if (step == 2) {
        EXPECT_TRUE(batch->first_error.empty());
      }
      pool.release();
    }
    EXPECT_EQ(failed, 4u);
    EXPECT_EQ(read, 16u);
  }
}

TEST(ReaderPool, FailModeRethrowsAtTheFailingStepAndStopsCleanly) {
  Watchdog watchdog(30s);
  SamplerOptions shape = PoolShape(50, 1, 2);
  shape.sample_shuffle = config::Shuffle::kOff;
  const Sampler sampler(shape);
  const EpochOrder order = sampler.epoch(1);
  for (int threads : {0, 1, 4}) {
    FakeSource source;
    source.corrupt = {{7, 0}};  // step 3
    ReaderPoolOptions options;
    options.threads = threads;
    options.prefetch = 4;
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    for (std::uint64_t step = 0; step < 3; ++step) {
      ASSERT_NE(pool.next_for(20s), nullptr);
      pool.release();
    }
    dlbench::test::ExpectError([&] { pool.next_for(20s); }, ExitCode::kIo, {"file7"});
    pool.stop();  // already stopped; idempotent and joins immediately
    EXPECT_LT(source.reads().size(), 50u);
  }
}

TEST(ReaderPool, InternalErrorsAreNeverSkipped) {
  Watchdog watchdog(30s);
  const Sampler sampler(PoolShape(4, 1, 1));
  const EpochOrder order = sampler.epoch(1);
  FakeSource source;
  source.throw_internal = true;
  for (FileIndex f = 0; f < 4; ++f) source.corrupt.insert({f, 0});
  ReaderPoolOptions options;
  options.threads = 2;
  options.on_error = config::OnError::kSkip;
  ReaderPool pool(source, sampler, order, 4, options);
  dlbench::test::ExpectError([&] { pool.next_for(20s); }, ExitCode::kInternal);
}

TEST(ReaderPool, DestroyingAPoolMidEpochJoinsItsThreads) {
  Watchdog watchdog(30s);
  const Sampler sampler(PoolShape(200, 1, 2));
  const EpochOrder order = sampler.epoch(1);
  FakeSource source;
  source.read_delay = 100us;
  ReaderPoolOptions options;
  options.threads = 4;
  {
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    ASSERT_NE(pool.next_for(20s), nullptr);
    pool.release();
  }
  EXPECT_LT(source.reads().size(), 200u);
}

// Pools lent the run's reader threads (one per epoch, as the trainer makes them) read on those
// threads only, also after a pool was destroyed mid-epoch.
TEST(ReaderPool, PoolsSharingTheRunsReaderThreadsReadOnThemAlone) {
  Watchdog watchdog(60s);
  const Sampler sampler(PoolShape(24, 1, 2));
  FakeSource source;
  ReaderPoolOptions options;
  options.threads = 3;
  ReaderThreads threads(3);
  for (int epoch = 1; epoch <= 4; ++epoch) {
    const EpochOrder order = sampler.epoch(epoch);
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options, nullptr, &threads);
    if (epoch == 2) {  // abandoned after one batch
      ASSERT_NE(pool.next_for(20s), nullptr);
      pool.release();
      continue;
    }
    EXPECT_EQ(Drain(pool, sampler, order).size(), 24u) << "epoch " << epoch;
  }
  EXPECT_LE(source.read_threads().size(), 3u);
  EXPECT_EQ(source.read_threads().count(gettid()), 0u);
}

TEST(ReaderPool, PreprocessTimeIsSpentPerSample) {
  Watchdog watchdog(30s);
  const Sampler sampler(PoolShape(4, 1, 4));
  const EpochOrder order = sampler.epoch(1);
  FakeSource source;
  ReaderPoolOptions options;
  options.threads = 1;
  options.preprocess_time.mean = 0.002;
  ReaderPool pool(source, sampler, order, 1, options);
  const Batch* batch = pool.next_for(20s);
  ASSERT_NE(batch, nullptr);
  for (Seconds s : batch->read_seconds) EXPECT_GE(s, 0.002);
}

TEST(ReaderPool, ReaderThreadsRunUnderTheConfiguredPolicy) {
  if (sched_getscheduler(0) != SCHED_OTHER) GTEST_SKIP() << "test runner is not SCHED_OTHER";
  Watchdog watchdog(60s);
  const Sampler sampler(PoolShape(8, 1, 2));
  const EpochOrder order = sampler.epoch(1);
  for (const auto& [policy, expected] : {std::pair{config::ThreadPolicy::kBatch, SCHED_BATCH},
                                         std::pair{config::ThreadPolicy::kNormal, SCHED_OTHER}}) {
    FakeSource source;
    ReaderPoolOptions options;
    options.threads = 2;
    options.thread_policy = policy;
    ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
    Drain(pool, sampler, order);
    EXPECT_EQ(source.read_policies(), std::set<int>{expected}) << config::ToString(policy);
  }
  // The inline reader (read_threads 0) reads on the trainer's thread and leaves it alone.
  FakeSource source;
  ReaderPoolOptions options;
  options.threads = 0;
  ReaderPool pool(source, sampler, order, sampler.steps_per_epoch(), options);
  Drain(pool, sampler, order);
  EXPECT_EQ(source.read_policies(), std::set<int>{SCHED_OTHER});
}

TEST(ReaderPool, StepsBeyondTheSamplerAreAnInternalError) {
  const Sampler sampler(PoolShape(4, 1, 1));
  FakeSource source;
  ReaderPoolOptions options;
  EXPECT_THROW(ReaderPool(source, sampler, sampler.epoch(1), 5, options), Error);
}

}  // namespace
}  // namespace dlbench::pipeline
