// Latency percentiles: an exact method over a list of values, and a fixed-memory histogram for
// per-sample latencies (whose count is O(dataset)).
//
// Method (both): numpy's default "linear" — for quantile q of n values sorted x_0 <= ... <=
// x_{n-1}, h = (n - 1) q and Q(q) = x_floor(h) + (h - floor(h)) (x_ceil(h) - x_floor(h)).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "util/units.h"

namespace dlbench::metrics {

struct Percentiles {
  std::uint64_t count = 0;
  Seconds p50 = 0;
  Seconds p90 = 0;
  Seconds p99 = 0;
  Seconds max = 0;
};

// Q(q) of `sorted` (ascending, non-empty), 0 <= q <= 1.
double SortedQuantile(const std::vector<double>& sorted, double q);

// p50/p90/p99/max of `values` (any order); nullopt when empty.
std::optional<Percentiles> ExactPercentiles(std::vector<double> values);

// A log-bucket histogram of durations with bounded relative error and fixed memory (~10 KiB),
// mergeable across threads and ranks because every instance has the same bucket layout.
//
// Bucket i >= 1 holds values in (kMinSeconds * g^(i-1), kMinSeconds * g^i] with
// g = (1 + a) / (1 - a), a = kRelativeError; its representative 2 kMinSeconds g^i / (g + 1) is
// within a relative error a of every value in the bucket. Quantiles interpolate between the
// representatives of the buckets holding the two order statistics, so for values in
// [kMinSeconds, kMaxSeconds] every estimated quantile is within relative error a of the exact
// SortedQuantile. Values <= kMinSeconds (bucket 0) are represented by kMinSeconds (absolute error
// < 100 ns); values > kMaxSeconds go to the last bucket, represented by the exact maximum. The
// maximum and the count are exact. Not thread-safe: use one per thread and Merge().
class LatencyHistogram {
 public:
  static constexpr double kRelativeError = 0.01;
  static constexpr Seconds kMinSeconds = 1e-7;
  static constexpr Seconds kMaxSeconds = 1e4;

  LatencyHistogram();

  // Negative and NaN values are counted as 0 (a duration cannot be negative; clocks are monotonic).
  void record(Seconds value);
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  Seconds max() const { return max_; }
  // nullopt when empty.
  std::optional<Percentiles> summary() const;
  double quantile(double q) const;  // requires count() > 0

  // The raw layout, for reductions across ranks: bucket counts (size bucket_count()).
  static std::size_t BucketCount();
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  // Rebuilds a histogram from counts() and max() gathered from elsewhere; throws dlbench::Error
  // (internal) when `counts` does not have bucket_count() entries.
  static LatencyHistogram FromCounts(std::vector<std::uint64_t> counts, Seconds max);

 private:
  double representative(std::size_t bucket) const;
  Seconds value_at_rank(std::uint64_t rank) const;

  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  Seconds max_ = 0;
};

}  // namespace dlbench::metrics
