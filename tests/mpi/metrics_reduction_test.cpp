// The metrics reductions across real ranks (run with mpiexec -n 2 and -n 3). Every rank knows
// what every other rank contributes, so each rank checks the reduced values against the pure
// single-process computation.
#include <gtest/gtest.h>

#include <cmath>

#include "metrics/cross_rank.h"
#include "metrics/host_lists.h"
#include "metrics/run_reduction.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

mpi::Communicator World() { return dlbench::test::World(); }

TEST(MpiReduction, SpanAndSpreadOverUnequalRanks) {
  const mpi::Communicator world = World();
  const int r = world.rank(), p = world.size();
  ASSERT_GE(p, 2) << "run with mpiexec -n 2 or more";
  const Span span = ReduceSpan(world, 1.0 + 0.5 * r, 10.0 + r);
  EXPECT_DOUBLE_EQ(span.start, 1.0);
  EXPECT_DOUBLE_EQ(span.end, 10.0 + (p - 1));
  const Spread spread = ReduceSpread(world, 2.0 * r);
  EXPECT_DOUBLE_EQ(spread.min, 0.0);
  EXPECT_DOUBLE_EQ(spread.mean, p - 1.0);
  EXPECT_DOUBLE_EQ(spread.max, 2.0 * (p - 1));
}

TEST(MpiReduction, CheckpointSlowestRankSetsDurationAndRate) {
  const mpi::Communicator world = World();
  const int r = world.rank(), p = world.size();
  const CheckpointOpReduction op =
      ReduceCheckpointOp(world, 0.0, 1.0 + r, static_cast<Bytes>(r + 1) * GiB, 3.0);
  EXPECT_DOUBLE_EQ(op.duration_max, p);
  EXPECT_DOUBLE_EQ(op.rank_duration.min, 1.0);
  EXPECT_EQ(op.total_bytes, static_cast<Bytes>(p * (p + 1) / 2) * GiB);
  EXPECT_DOUBLE_EQ(*op.GiB_per_second, (p * (p + 1) / 2.0) / p);
  EXPECT_DOUBLE_EQ(*op.throughput_min_GiB_per_second, 3.0 / p);
}

TEST(MpiReduction, GatherEqualLengthConcatenatesInRankOrder) {
  const mpi::Communicator world = World();
  const int p = world.size();
  const double r = world.rank();
  const std::vector<double> all = GatherEqualLength(world, std::vector<double>{r, 10 * r});
  ASSERT_EQ(all.size(), static_cast<std::size_t>(2 * p));
  for (int k = 0; k < p; ++k) {
    EXPECT_DOUBLE_EQ(all[2 * k], k);
    EXPECT_DOUBLE_EQ(all[2 * k + 1], 10.0 * k);
  }
  const std::vector<std::uint64_t> ints =
      GatherEqualLength(world, std::vector<std::uint64_t>{static_cast<std::uint64_t>(r) + 7});
  EXPECT_EQ(ints.back(), static_cast<std::uint64_t>(p - 1 + 7));
}

TEST(MpiReduction, GatherOfDifferentLengthsFailsOnEveryRank) {
  const mpi::Communicator world = World();
  const std::vector<double> mine(world.rank() == 0 ? 1 : 2, 1.0);
  EXPECT_THROW(GatherEqualLength(world, mine), Error);
}

TEST(MpiReduction, HistogramsAreSummed) {
  const mpi::Communicator world = World();
  const int p = world.size();
  LatencyHistogram mine, expected;
  for (int k = 0; k < p; ++k) {
    for (int i = 0; i <= k; ++i) {
      if (k == world.rank()) mine.record((k + 1) * 1e-3);
      expected.record((k + 1) * 1e-3);
    }
  }
  const LatencyHistogram all = ReduceHistogram(world, mine);
  EXPECT_EQ(all.count(), static_cast<std::uint64_t>(p * (p + 1) / 2));
  EXPECT_EQ(all.counts(), expected.counts());
  EXPECT_DOUBLE_EQ(all.max(), p * 1e-3);
}

RunSettings Settings() {
  RunSettings settings;
  settings.steps_per_epoch = 3;
  settings.eval_steps_per_epoch = 2;
  settings.batch_size = 2;
  settings.eval_batch_size = 1;
  settings.checkpoint_size_GiB = 1.5;
  return settings;
}

BlockRecord Block(int number, Seconds start, int steps, Seconds wait) {
  BlockRecord block;
  block.number = number;
  block.start = start;
  Seconds t = start;
  for (int i = 0; i < steps; ++i) {
    StepRecord step;
    step.start = t;
    step.load = wait;
    step.compute = 1.0;
    step.barrier = 0.1;
    t += wait + 1.1;
    step.end = t;
    step.samples = 2;
    step.read_bytes = 2000;
    step.nominal_bytes = 2048;
    block.steps.push_back(step);
  }
  block.end = t;
  return block;
}

// Rank k's record: two epochs, the first split by a checkpoint, eval in the second.
RankRecord RecordOf(int k) {
  const Seconds wait = 0.2 * (k + 1);
  RankRecord record;
  EpochRecord first;
  first.number = 1;
  first.blocks = {Block(1, 0.01 * k, 2, wait), Block(2, 20, 1, wait)};
  record.epochs.push_back(first);
  EpochRecord second;
  second.number = 2;
  second.blocks = {Block(1, 40, 3, wait)};
  second.eval = Block(1, 60, 2, wait / 2);
  record.epochs.push_back(second);
  CheckpointRecord save;
  save.epoch = 1;
  save.number = 1;
  save.start = 10;
  save.end = 11 + k;
  save.bytes = GiB / 2;
  save.drain_start = 11.0 + k;
  save.drain_end = 15.0 + 2 * k;
  save.drained_bytes = GiB / 2;
  save.backpressure = 0.25 * k;
  record.checkpoints.push_back(save);
  return record;
}

TEST(MpiReduction, ReduceRunMatchesThePureCombination) {
  const mpi::Communicator world = World();
  const int p = world.size();
  std::vector<RankValues> values;
  LatencyHistogram waits;
  for (int k = 0; k < p; ++k) {
    values.push_back(SummarizeRank(RecordOf(k), Settings()));
    waits.merge(TrainBatchWaits(RecordOf(k)));
  }
  RankLatencies latencies;
  latencies.train_sample_read.record(1e-3 * (world.rank() + 1));
  RunInfo info;
  info.hostname = "h";
  const RunMetrics run =
      ReduceRun(world, RecordOf(world.rank()), latencies, Settings(), info, 0.9, 2048.0);
  const auto train = CombineTrain(values, LatencyHistogram(), waits);
  ASSERT_TRUE(run.train && train);
  ASSERT_EQ(run.train->epochs.size(), 2u);
  for (std::size_t e = 0; e < 2; ++e) {
    const PhaseEpoch& got = run.train->epochs[e];
    const PhaseEpoch& want = train->epochs[e];
    EXPECT_DOUBLE_EQ(got.au_percent, want.au_percent);
    EXPECT_DOUBLE_EQ(got.au_min_percent, want.au_min_percent);
    EXPECT_DOUBLE_EQ(got.au_max_percent, want.au_max_percent);
    EXPECT_DOUBLE_EQ(got.dlio_samples_per_second, want.dlio_samples_per_second);
    EXPECT_DOUBLE_EQ(*got.exact_samples_per_second, *want.exact_samples_per_second);
    EXPECT_EQ(got.read_bytes, want.read_bytes);
    ASSERT_EQ(got.read_spans.size(), want.read_spans.size());
    for (std::size_t b = 0; b < got.read_spans.size(); ++b) {
      EXPECT_DOUBLE_EQ(got.read_spans[b].start, want.read_spans[b].start);
      EXPECT_DOUBLE_EQ(got.read_spans[b].end, want.read_spans[b].end);
    }
  }
  EXPECT_LT(run.train->epochs[0].au_min_percent, run.train->epochs[0].au_max_percent);
  EXPECT_EQ(run.train->sample_read_latency->count, static_cast<std::uint64_t>(p));
  EXPECT_EQ(run.train->batch_wait->count, waits.count());
  EXPECT_DOUBLE_EQ(run.train->batch_wait->p50, waits.summary()->p50);

  ASSERT_TRUE(run.eval);
  ASSERT_EQ(run.eval->epochs.size(), 1u);
  EXPECT_EQ(run.eval->epochs[0].epoch, 2);
  EXPECT_DOUBLE_EQ(run.eval->epochs[0].dlio_samples_per_second,
                   CombineEval(values, {}, {})->epochs[0].dlio_samples_per_second);
  EXPECT_FALSE(run.eval->sample_read_latency.has_value());

  ASSERT_TRUE(run.checkpoint);
  ASSERT_EQ(run.checkpoint->saves.size(), 1u);
  const CheckpointOp& save = run.checkpoint->saves[0];
  EXPECT_DOUBLE_EQ(save.rank0_duration, 1.0);
  EXPECT_DOUBLE_EQ(save.io.duration_max, p);
  EXPECT_EQ(save.io.total_bytes, static_cast<Bytes>(p) * GiB / 2);
  EXPECT_DOUBLE_EQ(save.drain->start, 11.0);
  EXPECT_DOUBLE_EQ(save.drain->end, 15.0 + 2 * (p - 1));
  EXPECT_DOUBLE_EQ(save.time_to_durable, 5.0 + 2 * (p - 1));
  EXPECT_DOUBLE_EQ(save.backpressure, 0.25 * (p - 1));
  EXPECT_EQ(run.info.hostname, "h");
}

TEST(MpiReduction, ReduceRunWithDifferentShapesFailsOnEveryRank) {
  const mpi::Communicator world = World();
  RankRecord record = RecordOf(world.rank());
  if (world.rank() == 1) record.checkpoints.clear();
  EXPECT_THROW(ReduceRun(world, record, RankLatencies{}, Settings(), RunInfo{}, 0.9, 1.0), Error);
}

TEST(MpiReduction, GenerationGathersEveryRank) {
  const mpi::Communicator world = World();
  const int r = world.rank(), p = world.size();
  const GenerationMetrics generation =
      ReduceGeneration(world, {0.5 * r, 10.0 + r, static_cast<Bytes>(r + 1) * MiB, 2});
  ASSERT_EQ(generation.ranks.size(), static_cast<std::size_t>(p));
  EXPECT_DOUBLE_EQ(generation.ranks.back().end, 10.0 + (p - 1));
  EXPECT_EQ(generation.ranks.back().bytes, static_cast<Bytes>(p) * MiB);
}

TEST(MpiReduction, HostListsHaveOneEntryPerHostName) {
  const mpi::Communicator world = World();
  // Pretend ranks 0 and 1 share host "x" and every other rank has its own host.
  HostInfo info;
  info.hostname = world.rank() <= 1 ? "x" : "y" + std::to_string(world.rank());
  info.cpu_count = 10 + world.rank();
  info.memory_GiB = 100.0 + world.rank();
  const HostLists lists = GatherHostLists(world, info);
  EXPECT_EQ(lists.num_hosts, world.size() - 1);
  EXPECT_EQ(lists.cpu_count.front(), 10);
  EXPECT_DOUBLE_EQ(lists.memory_GiB.back(), world.size() == 2 ? 100.0 : 100.0 + world.size() - 1);
}

}  // namespace
}  // namespace dlbench::metrics
