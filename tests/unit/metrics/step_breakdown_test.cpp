#include "metrics/step_breakdown.h"

#include <gtest/gtest.h>

#include "metrics/au.h"
#include "records.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

using test::MakeBlock;
using test::WorkedBlock;

// docs/metrics.md's worked block, asked 0.9 s per step (so 0.1 s of overshoot each), with the
// barrier waits split: step 0 waited 0.1 s for the last rank, step 1 0.05 s, step 3 0.1 s.
BlockRecord SplitWorkedBlock() {
  BlockRecord block = WorkedBlock();
  const Seconds skew[] = {0.1, 0.05, 0.0, 0.1};
  for (std::size_t i = 0; i < block.steps.size(); ++i) {
    block.steps[i].compute_asked = 0.9;
    block.steps[i].barrier_skew = skew[i];
  }
  return block;
}

double AuPlusLosses(double au, const StepBreakdown& b) {
  return au + b.load_points + b.barrier_skew_points + b.barrier_latency_points + b.other_points;
}

TEST(BreakDownBlock, WorkedExample) {
  const BlockRecord block = SplitWorkedBlock();
  const StepBreakdown b = BreakDownBlock(block, 4, Exclusion{});
  EXPECT_DOUBLE_EQ(b.first_batch_wait, 0.5);
  EXPECT_DOUBLE_EQ(b.load_wait, 0.2 + 0.3 + 0.1);  // measured steps 1..3 only
  EXPECT_NEAR(b.compute_overshoot, 3 * 0.1, 1e-12);
  EXPECT_NEAR(b.barrier_skew, 0.25, 1e-12);     // every step's barrier, step 0 included
  EXPECT_NEAR(b.barrier_latency, 0.15, 1e-12);  // 0.4 s of barrier minus the skew
  EXPECT_NEAR(b.other, 0.0, 1e-12);             // steps follow each other without gaps
  // total_time = 4 s: 0.6 s of loads = 15 points, 0.25 s = 6.25, 0.15 s = 3.75.
  EXPECT_NEAR(b.load_points, 15.0, 1e-9);
  EXPECT_NEAR(b.barrier_skew_points, 6.25, 1e-9);
  EXPECT_NEAR(b.barrier_latency_points, 3.75, 1e-9);
  EXPECT_NEAR(b.other_points, 0.0, 1e-9);
  EXPECT_NEAR(AuPlusLosses(AuPercent(MeasureBlock(block, 4, Exclusion{})), b), 100.0, 1e-9);
}

TEST(BreakDownBlock, TimeOutsideEveryStepIsTheLoopsOwn) {
  BlockRecord block = SplitWorkedBlock();
  block.end += 0.5;  // e.g. a hook between steps
  const StepBreakdown b = BreakDownBlock(block, 4, Exclusion{});
  EXPECT_NEAR(b.other, 0.5, 1e-12);
  EXPECT_NEAR(b.other_points, 100 * 0.5 / 4.5, 1e-9);
  EXPECT_NEAR(b.load_points, 100 * 0.6 / 4.5, 1e-9);
  EXPECT_NEAR(AuPlusLosses(AuPercent(MeasureBlock(block, 4, Exclusion{})), b), 100.0, 1e-9);
}

TEST(BreakDownBlock, WithoutExclusionsTheFirstBatchIsALoadWaitToo) {
  const StepBreakdown b = BreakDownBlock(SplitWorkedBlock(), 4, Exclusion{0, 0});
  EXPECT_DOUBLE_EQ(b.first_batch_wait, 0.5);
  EXPECT_NEAR(b.load_wait, 1.1, 1e-12);
  EXPECT_NEAR(b.compute_overshoot, 0.4, 1e-12);
  EXPECT_NEAR(b.load_points, 100 * 1.1 / 5.5, 1e-9);
}

TEST(BreakDownBlock, AnInconsistentRecordIsAnInternalError) {
  BlockRecord block = SplitWorkedBlock();
  block.end = block.start - 1;
  EXPECT_THROW(BreakDownBlock(block, 4, Exclusion{}), Error);
}

TEST(BreakDownEpoch, SumsSecondsAndWeighsPointsAsAu) {
  EpochRecord epoch;
  epoch.blocks.push_back(SplitWorkedBlock());
  // A second block (after a checkpoint) of two steps: loads 1 s and 0.5 s, compute 1 s asked
  // 1 s, no barrier; its first step is excluded too (DLIO's per-block exclusion).
  epoch.blocks.push_back(MakeBlock(2, 10, {{1.0, 1.0, 0.0}, {0.5, 1.0, 0.0}}));
  for (StepRecord& step : epoch.blocks[1].steps) step.compute_asked = 1.0;
  const StepBreakdown b = BreakDownEpoch(epoch, 4, Exclusion{});
  EXPECT_NEAR(b.first_batch_wait, 0.5 + 1.0, 1e-12);
  EXPECT_NEAR(b.load_wait, 0.6 + 0.5, 1e-12);
  EXPECT_NEAR(b.compute_overshoot, 0.3, 1e-12);
  // Block 2: total_time = 3.5 - 2 = 1.5 s, its load 0.5 s = 33.3 points; weights 4 and 2 steps.
  EXPECT_NEAR(b.load_points, (15.0 * 4 + 100.0 / 3 * 2) / 6, 1e-9);
  EXPECT_NEAR(AuPlusLosses(EpochAuPercent(epoch, 4, Exclusion{}), b), 100.0, 1e-9);
}

TEST(BreakDownEpoch, NoStepsNoLosses) {
  EpochRecord epoch;
  epoch.blocks.push_back(MakeBlock(1, 0, {}));
  const StepBreakdown b = BreakDownEpoch(epoch, 4, Exclusion{});
  EXPECT_EQ(b.load_points, 0.0);
  EXPECT_EQ(b.first_batch_wait, 0.0);
}

// A block whose steps are all excluded has no AU, so no AU points: its total_time is only what
// the exclusions left over (the loop's own), which read as 100 points "lost to the step loop".
TEST(BreakDownEpoch, BlocksWithoutMeasuredStepLoseNoPoints) {
  EpochRecord one;
  one.blocks.push_back(MakeBlock(1, 0, {{0.5, 1.0, 0.1}}));
  const StepBreakdown none = BreakDownEpoch(one, 1, Exclusion{});
  EXPECT_EQ(none.measured_steps, 0u);
  for (double StepBreakdown::*field : kBreakdownPoints) EXPECT_EQ(none.*field, 0.0);
  EXPECT_NEAR(none.barrier_skew + none.barrier_latency, 0.1, 1e-12);  // the seconds stay
  // Checkpoints split an epoch of K = 3 into blocks of 1 and 2 steps: only the second measures.
  EpochRecord split;
  split.blocks.push_back(MakeBlock(1, 0, {{0.5, 1.0, 0.0}}));
  split.blocks.push_back(MakeBlock(2, 5, {{0.5, 1.0, 0.0}, {0.5, 1.0, 0.0}}));
  const StepBreakdown b = BreakDownEpoch(split, 3, Exclusion{});
  EXPECT_EQ(b.measured_steps, 1u);
  // Block 2: total_time = 3 - 1.5 = 1.5 s, its measured load 0.5 s = 33.3 points, alone.
  EXPECT_NEAR(b.load_points, 100.0 / 3, 1e-9);
}

TEST(MeanOf, FieldByField) {
  StepBreakdown a, b;
  a.load_wait = 1;
  b.load_wait = 3;
  a.barrier_skew_points = 2;
  b.other = 4;
  a.measured_steps = 3;
  b.measured_steps = 3;
  const StepBreakdown mean = MeanOf({a, b});
  EXPECT_EQ(mean.measured_steps, 6u);  // summed over ranks, not averaged
  EXPECT_DOUBLE_EQ(mean.load_wait, 2);
  EXPECT_DOUBLE_EQ(mean.barrier_skew_points, 1);
  EXPECT_DOUBLE_EQ(mean.other, 2);
  EXPECT_DOUBLE_EQ(MeanOf({}).load_wait, 0);
}

}  // namespace
}  // namespace dlbench::metrics
