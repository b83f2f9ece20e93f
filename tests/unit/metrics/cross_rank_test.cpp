#include "metrics/cross_rank.h"

#include <gtest/gtest.h>

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

TEST(CrossRankWrappers, SingleRankIsIdentity) {
  const mpi::Communicator world = dlbench::test::World();
  if (world.size() != 1) GTEST_SKIP() << "multi-rank cases live in tests/mpi";
  const Span span = ReduceSpan(world, 1.0, 3.0);
  EXPECT_DOUBLE_EQ(span.duration(), 2.0);
  const Spread spread = ReduceSpread(world, 4.0);
  EXPECT_DOUBLE_EQ(spread.mean, 4.0);
  EXPECT_EQ(GatherEqualLength(world, std::vector<double>{1, 2}), (std::vector<double>{1, 2}));
  LatencyHistogram h;
  h.Record(1e-3);
  EXPECT_EQ(ReduceHistogram(world, h).counts(), h.counts());
  const CheckpointOpReduction op = ReduceCheckpointOp(world, 0.0, 2.0, GiB, 1.0);
  EXPECT_DOUBLE_EQ(*op.GiB_per_second, 0.5);
}

}  // namespace
}  // namespace dlbench::metrics
