#include "pipeline/trainer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fake_sample_source.h"
#include "metrics/clock.h"
#include "support/expect_error.h"
#include "support/watchdog.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using namespace std::chrono_literals;
using dlbench::test::Watchdog;
using test::FakeSource;

SamplerOptions Shape(std::uint64_t files, std::uint64_t spf, std::uint64_t batch, int ranks = 1,
                     Rank rank = 0) {
  SamplerOptions o;
  o.files = files;
  o.samples_per_file = spf;
  o.batch_size = batch;
  o.ranks = ranks;
  o.rank = rank;
  o.file_shuffle = config::Shuffle::kSeed;
  o.sample_shuffle = config::Shuffle::kSeed;
  return o;
}

TrainerOptions Options(int epochs) {
  TrainerOptions o;
  o.epochs = epochs;
  o.computation_time.mean = 0.0005;
  o.nominal_sample_bytes = 64;
  return o;
}

TEST(Trainer, DeliversEverySampleOncePerEpochInStepOrder) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(23, 3, 4, 2, 1));  // 69 samples, 34 per rank, 8 steps
  for (int threads : {0, 1, 4}) {
    for (int prefetch : {0, 1, 4}) {
      FakeSource source;
      TrainerOptions options = Options(2);
      options.reader.threads = threads;
      options.reader.prefetch = prefetch;
      std::vector<std::vector<SampleRef>> seen(3);
      int current_epoch = 0;
      TrainerHooks hooks;
      hooks.before_epoch = [&](int epoch) { current_epoch = epoch; };
      hooks.on_batch = [&](const Batch& b) {
        for (const SampleRef& s : b.samples)
          seen[static_cast<std::size_t>(current_epoch)].push_back(s);
      };
      Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
      metrics::RankRecord record;
      trainer.run(record);
      ASSERT_EQ(record.epochs.size(), 2u);
      for (int epoch = 1; epoch <= 2; ++epoch) {
        std::vector<SampleRef> expected;
        const EpochOrder order = sampler.epoch(epoch);
        for (std::uint64_t s = 0; s < 8; ++s)
          for (std::uint64_t i = 0; i < 4; ++i) expected.push_back(sampler.sample(order, s, i));
        EXPECT_EQ(seen[static_cast<std::size_t>(epoch)], expected)
            << threads << " threads, prefetch " << prefetch << ", epoch " << epoch;
        const metrics::EpochRecord& e = record.epochs[static_cast<std::size_t>(epoch - 1)];
        EXPECT_EQ(e.number, epoch);
        ASSERT_EQ(e.blocks.size(), 1u);
        EXPECT_EQ(e.blocks[0].steps.size(), 8u);
        EXPECT_FALSE(e.eval.has_value());
      }
      EXPECT_NE(seen[1], seen[2]);            // shuffled differently each epoch
      EXPECT_EQ(source.reads().size(), 64u);  // nothing read beyond the last step
      EXPECT_EQ(trainer.totals().samples_read, 64u);
      EXPECT_EQ(trainer.totals().bytes_read, 64u * 100 + 64u * 10);  // on_demand: an open each
    }
  }
}

TEST(Trainer, StepRecordsFollowTheTimeline) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(10, 1, 2));
  FakeSource source;
  TrainerOptions options = Options(1);
  options.computation_time.mean = 0.002;
  options.reader.threads = 1;
  int barriers = 0;
  TrainerHooks hooks;
  hooks.barrier = [&](Seconds, Seconds) { ++barriers; };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(barriers, 5);
  const metrics::EpochRecord& epoch = record.epochs.at(0);
  const metrics::BlockRecord& block = epoch.blocks.at(0);
  ASSERT_EQ(block.steps.size(), 5u);
  EXPECT_LE(epoch.start, block.start);
  EXPECT_EQ(block.steps.front().start, block.start);
  EXPECT_EQ(block.steps.back().end, block.end);
  EXPECT_LE(block.end, epoch.end);
  for (std::size_t i = 0; i < block.steps.size(); ++i) {
    const metrics::StepRecord& s = block.steps[i];
    if (i > 0) {
      EXPECT_EQ(s.start, block.steps[i - 1].end);
    }
    EXPECT_GE(s.load, 0);
    EXPECT_GE(s.compute, 0.002);  // the emulated compute never returns early
    EXPECT_GE(s.barrier, 0);
    EXPECT_GE(s.end - s.start, s.load + s.compute + s.barrier - 1e-9);
    EXPECT_EQ(s.samples, 2u);
    EXPECT_EQ(s.read_bytes, 2u * 110);
    EXPECT_EQ(s.nominal_bytes, 2u * 64);
  }
}

TEST(Trainer, HostBookkeepingOverlapsTheComputeAndNoTimeFallsBetweenSteps) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(8, 1, 2));
  FakeSource source;
  TrainerOptions options = Options(1);  // origin 0: the records' times are metrics::Now()
  options.computation_time.mean = 0.005;
  options.reader.threads = 1;
  std::vector<std::pair<Seconds, Seconds>> host_work;  // start, end of each on_batch call
  TrainerHooks hooks;
  // 1 ms of host work per batch (latency records, tracing): the accelerator computes meanwhile.
  hooks.on_batch = [&](const Batch&) {
    const Seconds begin = metrics::Now();
    std::this_thread::sleep_for(1ms);
    host_work.emplace_back(begin, metrics::Now());
  };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  const auto& steps = record.epochs.at(0).blocks.at(0).steps;
  ASSERT_EQ(host_work.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const metrics::StepRecord& s = steps[i];
    EXPECT_DOUBLE_EQ(s.compute_asked, 0.005);
    EXPECT_GE(s.overshoot(), 0.0);
    // Every instant of the step is load, compute or barrier: nothing is left unaccounted (the
    // host work used to sit between load and compute, in neither).
    EXPECT_NEAR(s.end - s.start, s.load + s.compute + s.barrier, 1e-9);
    // The host work ran inside the compute window, which starts at the batch's delivery.
    const Seconds delivered = s.start + s.load;
    EXPECT_GE(host_work[i].first, delivered - 1e-9);
    EXPECT_LE(host_work[i].second, delivered + s.compute + 1e-9);
  }
}

// The reader threads persist over the run, as DLIO's loader workers: every epoch's and every
// evaluation's reads come from the same reader.read_threads threads.
TEST(Trainer, EveryEpochAndEvaluationReadsOnTheSameThreads) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(12, 1, 2));
  const Sampler eval_sampler(Shape(6, 1, 2));
  FakeSource source, eval_source;
  TrainerOptions options = Options(4);
  options.computation_time.mean = 0;
  options.reader.threads = 2;
  options.evaluation = true;
  options.eval_time.mean = 0;
  Trainer trainer(source, sampler, &eval_source, &eval_sampler, options);
  metrics::RankRecord record;
  trainer.run(record);
  std::set<pid_t> threads = source.read_threads();
  const std::set<pid_t> eval_threads = eval_source.read_threads();
  threads.insert(eval_threads.begin(), eval_threads.end());
  EXPECT_LE(threads.size(), 2u);
  EXPECT_EQ(source.reads().size(), 4u * 12);
  EXPECT_EQ(eval_source.reads().size(), 4u * 6);
}

TEST(Trainer, NoBarrierWhenStepBarrierIsOff) {
  const Sampler sampler(Shape(4, 1, 1));
  FakeSource source;
  TrainerOptions options = Options(1);
  options.step_barrier = false;
  int barriers = 0;
  TrainerHooks hooks;
  hooks.barrier = [&](Seconds, Seconds) { ++barriers; };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(barriers, 0);
  for (const auto& s : record.epochs[0].blocks[0].steps) EXPECT_EQ(s.barrier, 0);
}

TEST(Trainer, ReadsOverlapTheComputeOfThePreviousStep) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(6, 1, 2));
  for (int prefetch : {0, 1}) {
    FakeSource source;
    TrainerOptions options = Options(1);
    options.reader.threads = 1;
    options.reader.prefetch = prefetch;
    bool overlapped = true;
    std::uint64_t steps = 0;
    TrainerHooks hooks;
    // At the barrier of step k (after its batch was released), the reader thread must be able
    // to read batch k+1 without the trainer asking for it.
    hooks.barrier = [&](Seconds, Seconds) {
      ++steps;
      if (steps >= 3) return;
      const auto deadline = std::chrono::steady_clock::now() + 10s;
      while (source.reads().size() < 2 * (steps + 1)) {
        if (std::chrono::steady_clock::now() > deadline) {
          overlapped = false;
          return;
        }
        std::this_thread::sleep_for(100us);
      }
    };
    Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
    metrics::RankRecord record;
    trainer.run(record);
    EXPECT_TRUE(overlapped) << "prefetch " << prefetch;
  }
}

TEST(Trainer, ReadThreadsZeroReadsOnlyWhenAsked) {
  const Sampler sampler(Shape(6, 1, 2));
  FakeSource source;
  TrainerOptions options = Options(1);
  options.reader.threads = 0;
  std::vector<std::size_t> reads_at_barrier;
  TrainerHooks hooks;
  hooks.barrier = [&](Seconds, Seconds) { reads_at_barrier.push_back(source.reads().size()); };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(reads_at_barrier, (std::vector<std::size_t>{2, 4, 6}));
}

TEST(Trainer, PauseSplitsBlocksAndKeepsTheHookOutsideThem) {
  Watchdog watchdog(60s);
  const Sampler sampler(Shape(7, 1, 1));
  FakeSource source;
  TrainerOptions options = Options(2);
  options.reader.threads = 2;
  std::vector<std::string> events;
  TrainerHooks hooks;
  hooks.pause_after_step = [](int, std::uint64_t done) { return done == 3 || done == 7; };
  hooks.between_blocks = [&](int epoch, std::uint64_t done) {
    events.push_back("ckpt " + std::to_string(epoch) + ":" + std::to_string(done));
    std::this_thread::sleep_for(5ms);
  };
  hooks.before_epoch = [&](int epoch) { events.push_back("before " + std::to_string(epoch)); };
  hooks.after_epoch = [&](int epoch) { events.push_back("after " + std::to_string(epoch)); };
  Trainer trainer(source, sampler, nullptr, nullptr, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(events, (std::vector<std::string>{"before 1", "ckpt 1:3", "ckpt 1:7", "after 1",
                                              "before 2", "ckpt 2:3", "ckpt 2:7", "after 2"}));
  for (const metrics::EpochRecord& epoch : record.epochs) {
    ASSERT_EQ(epoch.blocks.size(), 2u);  // no empty block after the pause at the last step
    EXPECT_EQ(epoch.blocks[0].number, 1);
    EXPECT_EQ(epoch.blocks[1].number, 2);
    EXPECT_EQ(epoch.blocks[0].steps.size(), 3u);
    EXPECT_EQ(epoch.blocks[1].steps.size(), 4u);
    EXPECT_GE(epoch.blocks[1].start - epoch.blocks[0].end, 0.005);  // the checkpoint is outside
    EXPECT_EQ(epoch.blocks[1].steps.front().start, epoch.blocks[1].start);
  }
  EXPECT_EQ(source.reads().size(), 14u);
}

TEST(Trainer, EvaluationRunsOnItsScheduleWithItsOwnBatches) {
  Watchdog watchdog(60s);
  const Sampler train(Shape(8, 1, 2));
  SamplerOptions eval_shape = Shape(3, 2, 3);
  eval_shape.files_key = "dataset.num_files_eval";
  const Sampler eval(eval_shape);  // 6 samples, 2 steps of 3
  FakeSource train_source, eval_source;
  TrainerOptions options = Options(5);
  options.evaluation = true;
  options.eval_after_epoch = 2;
  options.epochs_between_evals = 2;
  options.eval_time.mean = 0.001;
  int barriers = 0;
  TrainerHooks hooks;
  hooks.barrier = [&](Seconds, Seconds) { ++barriers; };
  Trainer trainer(train_source, train, &eval_source, &eval, options, hooks);
  metrics::RankRecord record;
  trainer.run(record);
  ASSERT_EQ(record.epochs.size(), 5u);
  for (int e = 1; e <= 5; ++e) {
    const auto& epoch = record.epochs[static_cast<std::size_t>(e - 1)];
    EXPECT_EQ(epoch.eval.has_value(), e == 2 || e == 4) << "epoch " << e;
    if (epoch.eval) {
      ASSERT_EQ(epoch.eval->steps.size(), 2u);
      for (const auto& s : epoch.eval->steps) {
        EXPECT_EQ(s.samples, 3u);
        EXPECT_GE(s.compute, 0.001);
        EXPECT_EQ(s.barrier, 0);
      }
      EXPECT_GE(epoch.eval->start, epoch.end);
    }
  }
  EXPECT_EQ(barriers, 5 * 4);  // training steps only
  EXPECT_EQ(eval_source.reads().size(), 12u);
  EXPECT_TRUE(trainer.evaluates_after(4));
  EXPECT_FALSE(trainer.evaluates_after(3));
}

TEST(Trainer, StepCapStopsReadingExactlyAtTheCap) {
  Watchdog watchdog(60s);
  SamplerOptions shape = Shape(100, 1, 2);
  shape.step_cap = 3;
  const Sampler sampler(shape);
  FakeSource source;
  TrainerOptions options = Options(2);
  options.reader.threads = 4;
  options.reader.prefetch = 8;
  Trainer trainer(source, sampler, nullptr, nullptr, options);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(record.epochs[0].blocks[0].steps.size(), 3u);
  EXPECT_EQ(source.reads().size(), 2u * 3 * 2);  // no extra fetch (D25)
}

TEST(Trainer, FailModeErrorReachesTheCallerWithoutHanging) {
  Watchdog watchdog(60s);
  SamplerOptions shape = Shape(40, 1, 2);
  shape.file_shuffle = shape.sample_shuffle = config::Shuffle::kOff;
  const Sampler sampler(shape);
  for (int threads : {0, 1, 4}) {
    FakeSource source;
    source.corrupt = {{9, 0}};  // step 4 of epoch 1
    TrainerOptions options = Options(2);
    options.reader.threads = threads;
    Trainer trainer(source, sampler, nullptr, nullptr, options);
    metrics::RankRecord record;
    dlbench::test::ExpectError([&] { trainer.run(record); }, ExitCode::kIo);
    ASSERT_EQ(record.epochs.size(), 1u);
    EXPECT_EQ(record.epochs[0].blocks[0].steps.size(), 4u);
  }
}

TEST(Trainer, SkipModeCountsAndReports) {
  const Sampler sampler(Shape(10, 1, 2));
  FakeSource source;
  source.corrupt = {{2, 0}, {5, 0}};
  TrainerOptions options = Options(3);
  options.reader.on_error = config::OnError::kSkip;
  Trainer trainer(source, sampler, nullptr, nullptr, options);
  metrics::RankRecord record;
  trainer.run(record);
  EXPECT_EQ(trainer.totals().samples_failed, 6u);
  EXPECT_EQ(trainer.totals().samples_read, 24u);
  EXPECT_NE(trainer.totals().first_error.find("corrupt sample"), std::string::npos);
  std::uint64_t recorded = 0;
  for (const auto& e : record.epochs)
    for (const auto& s : e.blocks[0].steps) recorded += s.samples;
  EXPECT_EQ(recorded, 24u);
}

TEST(Trainer, RejectsInvalidSettings) {
  const Sampler sampler(Shape(4, 1, 1));
  FakeSource source;
  // train.epochs and evaluation.epochs_between_evals are rules of config::Validate.
  TrainerOptions options = Options(1);
  options.evaluation = true;
  dlbench::test::ExpectError([&] { Trainer(source, sampler, nullptr, nullptr, options); },
                             ExitCode::kInternal);
  options = Options(1);
  options.computation_time = {.kind = config::TimeDistribution::Kind::kGamma, .shape = -1};
  dlbench::test::ExpectError([&] { Trainer(source, sampler, nullptr, nullptr, options); },
                             ExitCode::kUsage, {"train.computation_time"});
}

}  // namespace
}  // namespace dlbench::pipeline
