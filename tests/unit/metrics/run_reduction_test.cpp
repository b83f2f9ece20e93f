#include "metrics/run_reduction.h"

#include <gtest/gtest.h>

#include "records.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

using test::MakeBlock;

RunSettings Settings() {
  RunSettings settings;
  settings.steps_per_epoch = 3;
  settings.eval_steps_per_epoch = 2;
  settings.batch_size = 4;
  settings.eval_batch_size = 2;
  settings.checkpoint_size_GiB = 2.0;
  return settings;
}

// Rank r waits (r + 1) * 0.5 s for every batch; all compute 1 s per step; one epoch, one block,
// an eval block, one save.
RankRecord RankWithWait(int r) {
  const double wait = (r + 1) * 0.5;
  RankRecord record;
  EpochRecord epoch;
  epoch.number = 1;
  epoch.blocks.push_back(MakeBlock(1, 0.1 * r, {{wait, 1, 0}, {wait, 1, 0}, {wait, 1, 0}}));
  epoch.eval = MakeBlock(1, 20, {{wait, 1, 0}, {wait, 1, 0}}, 2);
  epoch.start = epoch.blocks[0].start;
  epoch.end = epoch.eval->end;
  record.epochs.push_back(epoch);
  CheckpointRecord save;
  save.start = 30;
  save.end = 31 + r;  // rank r takes 1 + r seconds
  save.bytes = GiB;
  record.checkpoints.push_back(save);
  return record;
}

TEST(CombineTrain, UnequalRanks) {
  std::vector<RankValues> ranks;
  for (int r = 0; r < 3; ++r) ranks.push_back(SummarizeRank(RankWithWait(r), Settings()));
  const auto train = CombineTrain(ranks, LatencyHistogram(), LatencyHistogram());
  ASSERT_TRUE(train);
  ASSERT_EQ(train->epochs.size(), 1u);
  const PhaseEpoch& e = train->epochs[0];
  // Rank r: total_time = 2 * (wait + 1), compute 2 => AU = 100 / (wait + 1).
  const double au[] = {100 / 1.5, 100 / 2.0, 100 / 2.5};
  EXPECT_NEAR(e.au_percent, (au[0] + au[1] + au[2]) / 3, 1e-9);  // mean over ranks (DLIO)
  EXPECT_NEAR(e.au_min_percent, au[2], 1e-9);
  EXPECT_NEAR(e.au_max_percent, au[0], 1e-9);
  // DLIO: (3 - 2) * 4 / total_time, summed over ranks; exact: 2 steps * 4 samples.
  EXPECT_NEAR(e.dlio_samples_per_second, 4 / 3.0 + 4 / 4.0 + 4 / 5.0, 1e-9);
  EXPECT_NEAR(*e.exact_samples_per_second, 8 / 3.0 + 8 / 4.0 + 8 / 5.0, 1e-9);
  // Bytes: 3 steps * 4 samples * 1000 B per rank; window: min start 0 .. max end 0.2 + 7.5.
  EXPECT_EQ(e.read_bytes, 3u * 12000);
  EXPECT_EQ(e.nominal_bytes, 3u * 12 * 1024);
  ASSERT_EQ(e.read_spans.size(), 1u);
  EXPECT_NEAR(e.read_spans[0].duration(), 7.7, 1e-12);
  EXPECT_FALSE(train->sample_read_latency.has_value());  // empty histograms: omitted
  // Step breakdown, mean over ranks: load waits of the 2 measured steps = 2 · wait; each rank
  // loses 100 · wait / (wait + 1) points to them, so AU + losses = 100 on the mean too.
  EXPECT_NEAR(e.breakdown.first_batch_wait, (0.5 + 1.0 + 1.5) / 3, 1e-12);
  EXPECT_NEAR(e.breakdown.load_wait, 2 * (0.5 + 1.0 + 1.5) / 3, 1e-12);
  EXPECT_NEAR(e.breakdown.load_points, (100 * 0.5 / 1.5 + 100 * 1.0 / 2 + 100 * 1.5 / 2.5) / 3,
              1e-9);
  EXPECT_NEAR(e.au_percent + e.breakdown.load_points, 100.0, 1e-9);
}

TEST(CombineEval, UsesTheEvalBlockOnly) {
  std::vector<RankValues> ranks;
  for (int r = 0; r < 2; ++r) ranks.push_back(SummarizeRank(RankWithWait(r), Settings()));
  LatencyHistogram waits;
  waits.record(0.5);
  const auto eval = CombineEval(ranks, LatencyHistogram(), waits);
  ASSERT_TRUE(eval);
  const PhaseEpoch& e = eval->epochs[0];
  // Rank r eval wall = 2 (wait + 1); DLIO: 2 steps * 2 / wall, summed.
  EXPECT_NEAR(e.dlio_samples_per_second, 4 / 3.0 + 4 / 4.0, 1e-9);
  EXPECT_EQ(e.read_bytes, 2u * 2 * 2 * 1000);
  EXPECT_EQ(eval->batch_wait->count, 1u);
}

TEST(CombineEval, AbsentWhenNoEpochEvaluated) {
  RankRecord record = RankWithWait(0);
  record.epochs[0].eval.reset();
  const auto eval = CombineEval({SummarizeRank(record, Settings())}, {}, {});
  EXPECT_FALSE(eval.has_value());
}

TEST(CombineCheckpoints, SaveReducedOverRanks) {
  std::vector<RankValues> ranks;
  for (int r = 0; r < 3; ++r) ranks.push_back(SummarizeRank(RankWithWait(r), Settings()));
  const auto checkpoint = CombineCheckpoints(ranks, 2.0);
  ASSERT_TRUE(checkpoint);
  ASSERT_EQ(checkpoint->saves.size(), 1u);
  EXPECT_TRUE(checkpoint->loads.empty());
  const CheckpointOp& save = checkpoint->saves[0];
  EXPECT_DOUBLE_EQ(save.rank0_duration, 1.0);
  EXPECT_DOUBLE_EQ(save.io.duration_max, 3.0);
  EXPECT_DOUBLE_EQ(*save.io.throughput_min_GiB_per_second, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(*save.io.GiB_per_second, 1.0);
  EXPECT_DOUBLE_EQ(save.time_to_durable, 3.0);  // no drain: durable when the save ends
  EXPECT_FALSE(save.drain.has_value());
}

TEST(CombineCheckpoints, BurstBufferDrainAndTimeToDurable) {
  std::vector<RankValues> ranks;
  for (int r = 0; r < 2; ++r) {
    RankRecord record = RankWithWait(r);
    record.checkpoints[0].drain_start = 31.0 + r;
    record.checkpoints[0].drain_end = 40.0 + r;
    record.checkpoints[0].drained_bytes = GiB;
    record.checkpoints[0].backpressure = 0.5 * r;
    ranks.push_back(SummarizeRank(record, Settings()));
  }
  const CheckpointOp save = CombineCheckpoints(ranks, 2.0)->saves[0];
  ASSERT_TRUE(save.drain);
  EXPECT_DOUBLE_EQ(save.drain->duration(), 41.0 - 31.0);
  EXPECT_EQ(save.drained_bytes, 2 * GiB);
  EXPECT_DOUBLE_EQ(save.time_to_durable, 41.0 - 30.0);
  EXPECT_DOUBLE_EQ(save.backpressure, 0.5) << "the rank that waited longest";
}

TEST(CombineCheckpoints, NoCheckpointsIsAbsent) {
  RankRecord record = RankWithWait(0);
  record.checkpoints.clear();
  EXPECT_FALSE(CombineCheckpoints({SummarizeRank(record, Settings())}, 1.0).has_value());
}

TEST(Combine, RanksWithDifferentShapesAreAnInternalError) {
  RankRecord two_blocks = RankWithWait(1);
  two_blocks.epochs[0].blocks.push_back(MakeBlock(2, 50, {{0.1, 1, 0}}));
  const std::vector<RankValues> ranks = {SummarizeRank(RankWithWait(0), Settings()),
                                         SummarizeRank(two_blocks, Settings())};
  dlbench::test::ExpectError([&] { CombineTrain(ranks, {}, {}); }, ExitCode::kInternal,
                             {"numbers of blocks"});
  RankRecord no_save = RankWithWait(1);
  no_save.checkpoints.clear();
  EXPECT_THROW(
      CombineCheckpoints(
          {SummarizeRank(RankWithWait(0), Settings()), SummarizeRank(no_save, Settings())}, 1.0),
      Error);
}

TEST(BatchWaits, OneEntryPerStep) {
  const RankRecord record = RankWithWait(0);
  EXPECT_EQ(TrainBatchWaits(record).count(), 3u);
  EXPECT_EQ(EvalBatchWaits(record).count(), 2u);
  EXPECT_DOUBLE_EQ(TrainBatchWaits(record).max(), 0.5);
}

}  // namespace
}  // namespace dlbench::metrics
