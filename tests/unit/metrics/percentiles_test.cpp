#include "metrics/percentiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::metrics {
namespace {

TEST(ExactPercentiles, LinearInterpolationLikeNumpy) {
  // numpy.percentile([4, 1, 3, 2], [50, 90, 99]) == [2.5, 3.7, 3.97]
  const auto p = ExactPercentiles({4, 1, 3, 2});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->count, 4u);
  EXPECT_DOUBLE_EQ(p->p50, 2.5);
  EXPECT_NEAR(p->p90, 3.7, 1e-12);
  EXPECT_NEAR(p->p99, 3.97, 1e-12);
  EXPECT_DOUBLE_EQ(p->max, 4);
}

TEST(ExactPercentiles, OddCountAndSingleValue) {
  // numpy.percentile([0.1, 0.5, 0.2, 0.9, 0.3], [50, 90, 99]) == [0.3, 0.74, 0.884]
  const auto p = ExactPercentiles({0.1, 0.5, 0.2, 0.9, 0.3});
  EXPECT_DOUBLE_EQ(p->p50, 0.3);
  EXPECT_NEAR(p->p90, 0.74, 1e-12);
  EXPECT_NEAR(p->p99, 0.884, 1e-12);
  const auto one = ExactPercentiles({7});
  EXPECT_DOUBLE_EQ(one->p50, 7);
  EXPECT_DOUBLE_EQ(one->p99, 7);
}

TEST(ExactPercentiles, EmptyIsAbsent) { EXPECT_FALSE(ExactPercentiles({}).has_value()); }

std::vector<double> LogNormalLatencies(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(std::log(2e-3), 1.5);  // median 2 ms, wide tail
  std::vector<double> values(n);
  for (double& v : values) v = std::exp(normal(random));
  return values;
}

TEST(LatencyHistogram, QuantilesWithinTheDocumentedRelativeError) {
  const std::vector<double> values = LogNormalLatencies(20000, 42);
  LatencyHistogram histogram;
  for (double v : values) histogram.record(v);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const double bound = LatencyHistogram::kRelativeError * (1 + 1e-9);
  for (double q : {0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0}) {
    const double exact = SortedQuantile(sorted, q);
    EXPECT_LE(std::abs(histogram.quantile(q) - exact) / exact, bound) << "q = " << q;
  }
  const auto summary = histogram.summary();
  EXPECT_EQ(summary->count, values.size());
  EXPECT_DOUBLE_EQ(summary->max, sorted.back());  // exact
}

TEST(LatencyHistogram, BoundHoldsOnBucketEdgesAndSmallSets) {
  // Two values: the median interpolates between them.
  LatencyHistogram histogram;
  histogram.record(1e-3);
  histogram.record(3e-3);
  EXPECT_NEAR(histogram.quantile(0.5), 2e-3, 2e-3 * LatencyHistogram::kRelativeError);
  EXPECT_DOUBLE_EQ(histogram.quantile(1.0), 3e-3);
}

// The bucket a value lands in, read back from the counts.
std::size_t BucketOf(double value) {
  LatencyHistogram histogram;
  histogram.record(value);
  const auto& counts = histogram.counts();
  return static_cast<std::size_t>(std::find(counts.begin(), counts.end(), 1u) - counts.begin());
}

// Bucket i >= 1 is (kMinSeconds g^(i-1), kMinSeconds g^i], as documented, on both sides of every
// edge; away from the edges it is the bucket of the logarithm's formula, ceil(log_g(v / min)).
TEST(LatencyHistogram, BucketsAreTheDocumentedIntervals) {
  const double g = (1 + LatencyHistogram::kRelativeError) / (1 - LatencyHistogram::kRelativeError);
  const std::size_t regular = LatencyHistogram::BucketCount() - 2;
  for (std::size_t i = 1; i < regular; ++i) {
    const double edge = LatencyHistogram::kMinSeconds * std::pow(g, static_cast<double>(i));
    ASSERT_EQ(BucketOf(edge), i) << "edge " << edge;
    ASSERT_EQ(BucketOf(std::nextafter(edge, 1e300)), i + 1) << "above edge " << edge;
  }
  EXPECT_EQ(BucketOf(std::nextafter(LatencyHistogram::kMinSeconds, 1.0)), 1u);
  EXPECT_EQ(BucketOf(LatencyHistogram::kMaxSeconds), regular);
  EXPECT_EQ(BucketOf(std::nextafter(LatencyHistogram::kMaxSeconds, 1e300)), regular + 1);
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> exponent(std::log(LatencyHistogram::kMinSeconds),
                                                  std::log(LatencyHistogram::kMaxSeconds));
  for (int n = 0; n < 200000; ++n) {
    const double v = std::exp(exponent(random));
    const double index = std::log(v / LatencyHistogram::kMinSeconds) / std::log(g);
    if (std::abs(index - std::round(index)) < 1e-9) continue;  // too near an edge to tell
    ASSERT_EQ(BucketOf(v), static_cast<std::size_t>(std::ceil(index))) << v;
  }
}

TEST(LatencyHistogram, MemoryIsFixed) {
  LatencyHistogram histogram;
  const std::size_t buckets = LatencyHistogram::BucketCount();
  for (double v : LogNormalLatencies(5000, 7)) histogram.record(v);
  EXPECT_EQ(histogram.counts().size(), buckets);
  EXPECT_LT(buckets, 2000u);  // ~1270 for 1 % over 1e-7 .. 1e4 s
}

TEST(LatencyHistogram, OutOfRangeValues) {
  LatencyHistogram zeros;
  zeros.record(0);
  zeros.record(-1);  // not a duration; counted as 0
  zeros.record(std::nan(""));
  EXPECT_EQ(zeros.count(), 3u);
  EXPECT_DOUBLE_EQ(zeros.quantile(0.5), 0.0);
  LatencyHistogram huge;
  huge.record(5e4);
  huge.record(1e5);
  EXPECT_DOUBLE_EQ(huge.max(), 1e5);
  EXPECT_DOUBLE_EQ(huge.quantile(0.0), 1e5);  // the overflow bucket reports the exact max
  LatencyHistogram tiny;
  tiny.record(1e-9);
  tiny.record(1e-3);
  EXPECT_NEAR(tiny.quantile(0.0), 1e-9, LatencyHistogram::kMinSeconds);
}

TEST(LatencyHistogram, MergeEqualsRecordingEverything) {
  const std::vector<double> a = LogNormalLatencies(1000, 1), b = LogNormalLatencies(3000, 2);
  LatencyHistogram left, right, all;
  for (double v : a) left.record(v), all.record(v);
  for (double v : b) right.record(v), all.record(v);
  left.merge(right);
  EXPECT_EQ(left.counts(), all.counts());
  EXPECT_EQ(left.count(), all.count());
  EXPECT_DOUBLE_EQ(left.max(), all.max());
  const LatencyHistogram rebuilt = LatencyHistogram::FromCounts(all.counts(), all.max());
  EXPECT_DOUBLE_EQ(rebuilt.quantile(0.9), all.quantile(0.9));
}

TEST(LatencyHistogram, FromCountsRejectsAnotherLayout) {
  dlbench::test::ExpectError(
      [&] { LatencyHistogram::FromCounts(std::vector<std::uint64_t>(3, 0), 0); },
      ExitCode::kInternal, {"3 buckets"});
}

TEST(LatencyHistogram, EmptyHasNoSummary) {
  EXPECT_FALSE(LatencyHistogram().summary().has_value());
}

}  // namespace
}  // namespace dlbench::metrics
