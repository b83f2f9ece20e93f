#include "metrics/throughput.h"

#include <gtest/gtest.h>

#include "records.h"

namespace dlbench::metrics {
namespace {

using test::MakeBlock;
using test::WorkedBlock;

TEST(BlockThroughput, DlioMinusTwoAndExactCountOfMeasuredSteps) {
  const BlockTiming t = MeasureBlock(WorkedBlock(), 4, Exclusion{});
  // DLIO: (4 - 2) * 4 / 4.0; dlbench: the 3 measured steps' 12 samples over the same 4.0 s.
  EXPECT_DOUBLE_EQ(DlioBlockSamplesPerSecond(t, 4), 2.0);
  EXPECT_DOUBLE_EQ(*ExactBlockSamplesPerSecond(t), 3.0);
}

TEST(BlockThroughput, MinusTwoIgnoresTheExclusionsButExactFollowsThem) {
  const BlockTiming none = MeasureBlock(WorkedBlock(), 4, Exclusion{0, 0});
  EXPECT_DOUBLE_EQ(DlioBlockSamplesPerSecond(none, 4), 2.0 * 4 / 5.5);
  EXPECT_DOUBLE_EQ(*ExactBlockSamplesPerSecond(none), 16.0 / 5.5);
  const BlockTiming both = MeasureBlock(WorkedBlock(), 4, Exclusion{1, 1});
  EXPECT_NEAR(DlioBlockSamplesPerSecond(both, 4), 8.0 / 2.9, 1e-12);
  EXPECT_NEAR(*ExactBlockSamplesPerSecond(both), 8.0 / 2.9, 1e-12);
}

TEST(BlockThroughput, NoTimeLeftIsAbsentNotInfinite) {
  BlockTiming t;
  t.recorded_steps = 3;
  t.total_time = 0;
  EXPECT_DOUBLE_EQ(DlioBlockSamplesPerSecond(t, 4), 0.0);
  EXPECT_FALSE(ExactBlockSamplesPerSecond(t).has_value());
}

// A block of one step: DLIO's (1 - 2) would be a negative rate, and with exclude_start_steps: 1
// no step is measured, so the time left (the loop's own) is no window for an exact rate.
TEST(BlockThroughput, OneStepBlockIsZeroForDlioAndAbsentForExact) {
  const BlockRecord block = MakeBlock(1, 0, {{0.5, 1.0, 0.1}});
  const BlockTiming t = MeasureBlock(block, 1, Exclusion{});
  EXPECT_EQ(t.measured_steps, 0u);
  EXPECT_DOUBLE_EQ(DlioBlockSamplesPerSecond(t, 4), 0.0);
  EXPECT_FALSE(ExactBlockSamplesPerSecond(t).has_value());
  EpochRecord epoch;
  epoch.blocks.push_back(block);
  const EpochThroughput result = EpochTrainThroughput(epoch, 1, Exclusion{}, 4);
  EXPECT_DOUBLE_EQ(result.dlio_samples_per_second, 0.0);
  EXPECT_FALSE(result.exact_samples_per_second.has_value());
}

TEST(EpochTrainThroughput, WeightedDlioAndPooledExact) {
  EpochRecord epoch;
  epoch.blocks.push_back(MakeBlock(1, 0, {{0.5, 1.0, 0.0}, {0.5, 1.0, 0.0}}));  // 1.5 s left
  epoch.blocks.push_back(MakeBlock(2, 10, {{1.0, 1.0, 0.0}, {1.0, 1.0, 0.0}, {0.0, 1.0, 0.0}}));
  const EpochThroughput result = EpochTrainThroughput(epoch, 4, Exclusion{}, 4);
  const double dlio1 = 0.0 * 4 / 1.5;  // (2 - 2) steps
  const double dlio2 = 1.0 * 4 / 3.0;
  EXPECT_NEAR(result.dlio_samples_per_second, (dlio1 * 2 + dlio2 * 3) / 5, 1e-12);
  // Measured: 1 step (4 samples) in block 1, 2 steps (8 samples) in block 2, over 1.5 + 3.0 s.
  EXPECT_NEAR(*result.exact_samples_per_second, 12.0 / 4.5, 1e-12);
}

TEST(EpochTrainThroughput, NoBlocksGivesZeroAndNoExactValue) {
  const EpochThroughput result = EpochTrainThroughput(EpochRecord{}, 4, Exclusion{}, 4);
  EXPECT_DOUBLE_EQ(result.dlio_samples_per_second, 0.0);
  EXPECT_FALSE(result.exact_samples_per_second.has_value());
}

TEST(MeasureEval, NoExclusionInThroughputButAuExcludes) {
  // Eval has no barrier; K_eval = 3.
  const BlockRecord eval = MakeBlock(1, 2, {{0.5, 1.0, 0}, {0.5, 1.0, 0}, {0.5, 1.0, 0}}, 2);
  const EvalResult result = MeasureEval(eval, 3, Exclusion{}, 2);
  EXPECT_NEAR(result.au_percent, 100.0 * 2.0 / 3.0, 1e-9);  // wall 4.5 - proc0 1.5
  EXPECT_DOUBLE_EQ(result.dlio_samples_per_second, 3 * 2 / 4.5);
  EXPECT_DOUBLE_EQ(*result.exact_samples_per_second, 6 / 4.5);
}

TEST(MeasureEval, PartialLastBatchCountsRealSamples) {
  BlockRecord eval = MakeBlock(1, 0, {{0.5, 0.5, 0}, {0.5, 0.5, 0}}, 4);
  eval.steps[1].samples = 1;
  const EvalResult result = MeasureEval(eval, 2, Exclusion{}, 4);
  EXPECT_DOUBLE_EQ(result.dlio_samples_per_second, 2 * 4 / 2.0);  // DLIO assumes full batches
  EXPECT_DOUBLE_EQ(*result.exact_samples_per_second, 5 / 2.0);
}

TEST(MeasureEval, ZeroLengthEvalHasNoRate) {
  BlockRecord eval;
  const EvalResult result = MeasureEval(eval, 2, Exclusion{}, 4);
  EXPECT_DOUBLE_EQ(result.au_percent, 0.0);
  EXPECT_DOUBLE_EQ(result.dlio_samples_per_second, 0.0);
  EXPECT_FALSE(result.exact_samples_per_second.has_value());
}

TEST(ByteRates, UnitsAreExact) {
  EXPECT_DOUBLE_EQ(*MiBPerSecond(3 * MiB, 2.0), 1.5);
  EXPECT_DOUBLE_EQ(*GBPerSecond(3'000'000'000, 2.0), 1.5);
  EXPECT_DOUBLE_EQ(*GiBPerSecond(3 * GiB, 2.0), 1.5);
  EXPECT_FALSE(MiBPerSecond(1, 0.0).has_value());
  EXPECT_FALSE(GBPerSecond(1, -1.0).has_value());
}

TEST(ByteRates, DlioNominalMegabytesAreMebibytesFromTheRecordLength) {
  // resnet50: 114660.07 B nominal per sample at 1000 samples/s.
  EXPECT_DOUBLE_EQ(NominalMiBPerSecond(1000, 114660.07), 1000 * 114660.07 / 1048576.0);
}

}  // namespace
}  // namespace dlbench::metrics
