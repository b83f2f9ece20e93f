#include "metrics/cross_rank.h"

#include <gtest/gtest.h>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

TEST(SpanOf, MaxEndMinusMinStartOverUnequalRanks) {
  const Span span = SpanOf({1.0, 0.5, 2.0}, {10.0, 12.0, 11.0});
  EXPECT_DOUBLE_EQ(span.start, 0.5);
  EXPECT_DOUBLE_EQ(span.end, 12.0);
  EXPECT_DOUBLE_EQ(span.duration(), 11.5);
}

TEST(SpanOf, RejectsEmptyOrMismatchedInput) {
  EXPECT_THROW(SpanOf({}, {}), Error);
  EXPECT_THROW(SpanOf({1.0}, {2.0, 3.0}), Error);
}

TEST(CoveredSeconds, EachMomentOnceInWhateverOrder) {
  EXPECT_DOUBLE_EQ(CoveredSeconds({}), 0);
  EXPECT_DOUBLE_EQ(CoveredSeconds({{0, 1}, {2, 4}}), 3);              // disjoint: the sum
  EXPECT_DOUBLE_EQ(CoveredSeconds({{5, 15}, {0, 10}}), 15);           // overlapping, unsorted
  EXPECT_DOUBLE_EQ(CoveredSeconds({{0, 10}, {2, 3}, {11, 12}}), 11);  // nested, then a gap
  EXPECT_DOUBLE_EQ(CoveredSeconds({{0, 1}, {1, 2}, {2, 2}}), 2);      // touching, empty
}

TEST(SpreadOf, MinMeanMax) {
  const auto spread = SpreadOf({80, 60, 70, 90});
  EXPECT_DOUBLE_EQ(spread->min, 60);
  EXPECT_DOUBLE_EQ(spread->mean, 75);
  EXPECT_DOUBLE_EQ(spread->max, 90);
  EXPECT_FALSE(SpreadOf({}).has_value());
}

TEST(ReduceCheckpointOp, MlperfAndDlbenchRulesOnUnequalRanks) {
  // Rank 1 is the slowest (12 s); rank 2 starts late but finishes earlier (10.9 s).
  const CheckpointOpReduction r =
      ReduceCheckpointOp({0.0, 0.0, 0.1}, {10.0, 12.0, 11.0}, {1 * GiB, 2 * GiB, 3 * GiB}, 5.0);
  EXPECT_DOUBLE_EQ(r.duration_max, 12.0);
  EXPECT_DOUBLE_EQ(r.span, 12.0);
  EXPECT_DOUBLE_EQ(r.rank_duration.min, 10.0);
  EXPECT_NEAR(r.rank_duration.mean, (10.0 + 12.0 + 10.9) / 3, 1e-12);
  EXPECT_EQ(r.total_bytes, 6 * GiB);
  EXPECT_DOUBLE_EQ(*r.throughput_min_GiB_per_second, 5.0 / 12.0);  // nominal size, slowest rank
  EXPECT_DOUBLE_EQ(*r.GiB_per_second, 6.0 / 12.0);                 // bytes moved, slowest rank
}

TEST(ReduceCheckpointOp, ZeroDurationHasNoRates) {
  const CheckpointOpReduction r = ReduceCheckpointOp({1.0, 1.0}, {1.0, 1.0}, {0, 0}, 5.0);
  EXPECT_FALSE(r.throughput_min_GiB_per_second.has_value());
  EXPECT_FALSE(r.GiB_per_second.has_value());
}

TEST(ReduceCheckpointOp, MismatchedBytesAreAnInternalError) {
  EXPECT_THROW(ReduceCheckpointOp({0.0}, {1.0}, {1, 2}, 1.0), Error);
}

// The wrappers on this process's world (one rank under ctest); tests/mpi covers several ranks.
TEST(OriginAmong, RanksOnOneClockShareTheLowestRanksOrigin) {
  // Ranks 0, 2 and 3 on one kernel (clock id 7), rank 1 on another, rank 4 unknown (id 0).
  const std::vector<std::uint64_t> ids = {7, 9, 7, 7, 0};
  const std::vector<Seconds> exits = {10.0, 20.0, 10.3, 10.2, 30.0};
  EXPECT_DOUBLE_EQ(OriginAmong(0, ids, exits), 10.0);
  EXPECT_DOUBLE_EQ(OriginAmong(1, ids, exits), 20.0);
  EXPECT_DOUBLE_EQ(OriginAmong(2, ids, exits), 10.0);
  EXPECT_DOUBLE_EQ(OriginAmong(3, ids, exits), 10.0);
  EXPECT_DOUBLE_EQ(OriginAmong(4, ids, exits), 30.0);
  EXPECT_THROW(OriginAmong(5, ids, exits), Error);
  EXPECT_THROW(OriginAmong(0, ids, {1.0}), Error);
}

// A record of one epoch with blocks of these steps' barrier waits, and an evaluation block.
RankRecord WithBarriers(const std::vector<std::vector<Seconds>>& blocks) {
  RankRecord record;
  EpochRecord& epoch = record.epochs.emplace_back();
  Seconds t = 0;
  for (const auto& barriers : blocks) {
    BlockRecord& block = epoch.blocks.emplace_back();
    for (const Seconds barrier : barriers) {
      StepRecord& step = block.steps.emplace_back();
      step.start = t;
      step.barrier = barrier;
      step.end = t + 1 + barrier;  // arrives at t + 1
      t = step.end;
    }
  }
  epoch.eval.emplace().steps.emplace_back().end = 99;
  return record;
}

TEST(BarrierSkew, SplitsEachWaitIntoTheLastRanksLatenessAndTheRest) {
  // Binary fractions, so that the times are exact.
  RankRecord record = WithBarriers({{0.25, 0.25}, {0.25}});
  ASSERT_EQ(BarrierArrivals(record), (std::vector<Seconds>{1, 2.25, 3.5}));
  // Step 1: the last rank arrived 0.125 s after this one; step 2: 10 s after (more than the
  // wait: a clock offset between ranks), step 3: before this one (this rank was last).
  SetBarrierSkew(record, {1.125, 12.25, 3.375});
  const auto& steps = record.epochs[0].blocks[0].steps;
  EXPECT_EQ(steps[0].barrier_skew, 0.125);
  EXPECT_EQ(steps[0].barrier_latency(), 0.125);
  EXPECT_EQ(steps[1].barrier_skew, 0.25);  // clamped to the wait
  EXPECT_EQ(steps[1].barrier_latency(), 0.0);
  const StepRecord& last = record.epochs[0].blocks[1].steps[0];
  EXPECT_EQ(last.barrier_skew, 0.0);
  EXPECT_EQ(last.barrier_latency(), 0.25);
  EXPECT_EQ(record.epochs[0].eval->steps[0].barrier_skew, 0.0);  // no barrier in evaluation
}

TEST(BarrierSkew, ArrivalsForOtherStepsAreAnInternalError) {
  RankRecord record = WithBarriers({{0.25, 0.25}});
  dlbench::test::ExpectError(
      [&] {
        SetBarrierSkew(record, {1.0, 2.0, 3.0});
      },
      ExitCode::kInternal, {"3 barrier arrivals for 2 steps"});
}

TEST(CrossRankWrappers, SingleRankIsIdentity) {
  const mpi::Communicator world = dlbench::test::World();
  if (world.size() != 1) GTEST_SKIP() << "multi-rank cases live in tests/mpi";
  const Span span = ReduceSpan(world, 1.0, 3.0);
  EXPECT_DOUBLE_EQ(span.duration(), 2.0);
  const Spread spread = ReduceSpread(world, 4.0);
  EXPECT_DOUBLE_EQ(spread.mean, 4.0);
  EXPECT_EQ(GatherEqualLength(world, std::vector<double>{1, 2}), (std::vector<double>{1, 2}));
  RankRecord record = WithBarriers({{0.5}});
  ReduceBarrierSkew(world, record);  // alone, this rank is the last to arrive
  EXPECT_EQ(record.epochs[0].blocks[0].steps[0].barrier_skew, 0.0);
  LatencyHistogram h;
  h.record(1e-3);
  EXPECT_EQ(ReduceHistogram(world, h).counts(), h.counts());
  const CheckpointOpReduction op = ReduceCheckpointOp(world, 0.0, 2.0, GiB, 1.0);
  EXPECT_DOUBLE_EQ(*op.GiB_per_second, 0.5);
}

}  // namespace
}  // namespace dlbench::metrics
