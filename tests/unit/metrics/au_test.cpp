#include "metrics/au.h"

#include <gtest/gtest.h>

#include "records.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

using test::MakeBlock;
using test::WorkedBlock;

TEST(MeasuredSteps, DefaultsExcludeTheFirstStep) {
  const StepRange range = MeasuredSteps(4, 4, Exclusion{});
  EXPECT_EQ(range.first, 1u);
  EXPECT_EQ(range.last, 4u);
  EXPECT_EQ(range.size(), 3u);
}

TEST(MeasuredSteps, EndExclusionCountsFromTheEpochsKNotTheBlock) {
  // K = 10, e = 2: i1 = 7, so a 5-step block keeps steps 1..4 (nothing cut at its end).
  const StepRange range = MeasuredSteps(5, 10, Exclusion{1, 2});
  EXPECT_EQ(range.first, 1u);
  EXPECT_EQ(range.last, 5u);
  // A full-length block loses its last two steps.
  const StepRange full = MeasuredSteps(10, 10, Exclusion{1, 2});
  EXPECT_EQ(full.first, 1u);
  EXPECT_EQ(full.last, 8u);
}

TEST(MeasuredSteps, ExclusionsLargerThanTheBlockLeaveNothing) {
  EXPECT_EQ(MeasuredSteps(3, 10, Exclusion{5, 0}).size(), 0u);
  EXPECT_EQ(MeasuredSteps(3, 4, Exclusion{0, 10}).size(), 0u);  // e > K: clamped, no wrap
  EXPECT_EQ(MeasuredSteps(0, 4, Exclusion{}).size(), 0u);
}

TEST(MeasureBlock, WorkedExampleWithDefaults) {
  const BlockTiming t = MeasureBlock(WorkedBlock(), 4, Exclusion{});
  EXPECT_DOUBLE_EQ(t.total_compute, 3.0);
  EXPECT_DOUBLE_EQ(t.total_time, 5.5 - 1.5);  // the first step's proc removed, barriers kept
  EXPECT_EQ(t.recorded_steps, 4u);
  EXPECT_EQ(t.measured_steps, 3u);
  EXPECT_EQ(t.measured_samples, 12u);
  EXPECT_DOUBLE_EQ(AuPercent(t), 75.0);
}

TEST(MeasureBlock, EndExclusionRemovesTheLastStepsProc) {
  const BlockTiming t = MeasureBlock(WorkedBlock(), 4, Exclusion{1, 1});
  EXPECT_DOUBLE_EQ(t.total_compute, 2.0);
  EXPECT_NEAR(t.total_time, 5.5 - 1.5 - 1.1, 1e-12);
  EXPECT_EQ(t.measured_samples, 8u);
  EXPECT_NEAR(AuPercent(t), 100.0 * 2.0 / 2.9, 1e-9);
}

TEST(MeasureBlock, NoExclusionKeepsEverything) {
  const BlockTiming t = MeasureBlock(WorkedBlock(), 4, Exclusion{0, 0});
  EXPECT_DOUBLE_EQ(t.total_time, 5.5);
  EXPECT_NEAR(AuPercent(t), 400.0 / 5.5, 1e-9);
}

TEST(MeasureBlock, ExclusionLargerThanBlockGivesZeroAu) {
  const BlockTiming t = MeasureBlock(WorkedBlock(), 4, Exclusion{5, 0});
  EXPECT_EQ(t.measured_steps, 0u);
  EXPECT_DOUBLE_EQ(t.total_compute, 0.0);
  EXPECT_NEAR(t.total_time, 5.5 - 5.1, 1e-12);  // only the barriers remain
  EXPECT_DOUBLE_EQ(AuPercent(t), 0.0);
}

TEST(MeasureBlock, EmptyBlockHasZeroAu) {
  BlockRecord empty;
  empty.start = 1;
  empty.end = 2;
  const BlockTiming t = MeasureBlock(empty, 4, Exclusion{});
  EXPECT_EQ(t.recorded_steps, 0u);
  EXPECT_DOUBLE_EQ(AuPercent(t), 0.0);
}

TEST(MeasureBlock, InconsistentRecordsAreInternalErrors) {
  BlockRecord backwards = WorkedBlock();
  backwards.end = backwards.start - 1;
  dlbench::test::ExpectError([&] { MeasureBlock(backwards, 4, Exclusion{}); }, ExitCode::kInternal,
                             {"block 1 ends before it starts"});
  BlockRecord squeezed = WorkedBlock();
  squeezed.end = squeezed.start + 1.5;  // shorter than its own steps
  EXPECT_THROW(MeasureBlock(squeezed, 4, Exclusion{}), Error);
}

TEST(EpochAuPercent, StepWeightedMeanOverBlocks) {
  // A checkpoint after step 2 splits K = 4 into two blocks; DLIO excludes the first step of
  // each block (positions are per block).
  EpochRecord epoch;
  epoch.blocks.push_back(MakeBlock(1, 0, {{0.5, 1.0, 0.0}, {0.5, 1.0, 0.0}}));
  epoch.blocks.push_back(MakeBlock(2, 10, {{1.0, 1.0, 0.0}, {1.0, 1.0, 0.0}, {0.0, 1.0, 0.0}}));
  const double au1 = 100.0 * 1.0 / 1.5;  // block 1: wall 3.0 - proc0 1.5
  const double au2 = 100.0 * 2.0 / 3.0;  // block 2: wall 5.0 - proc0 2.0
  EXPECT_NEAR(EpochAuPercent(epoch, 4, Exclusion{}), (au1 * 2 + au2 * 3) / 5, 1e-9);
}

TEST(EpochAuPercent, NoStepsGivesZero) {
  EpochRecord epoch;
  EXPECT_DOUBLE_EQ(EpochAuPercent(epoch, 4, Exclusion{}), 0.0);
}

}  // namespace
}  // namespace dlbench::metrics
