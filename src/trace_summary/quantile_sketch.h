// Quantiles of a stream in memory independent of its length: a log-bucketed histogram (the
// DDSketch idea) whose quantile estimates are within kRelativeAccuracy (1 %) of a value of the
// stream at that rank; count, min, max and mean are exact. Values are ≥ 0 (sizes in bytes); a
// bucket array spans at most ~2,300 buckets for values up to 2⁶⁴.
#pragma once

#include <cstdint>
#include <vector>

namespace dlbench::trace_summary {

class QuantileSketch {
 public:
  static constexpr double kRelativeAccuracy = 0.01;

  void add(double value);  // negative values count as 0
  void merge(const QuantileSketch& other);

  std::uint64_t count() const { return count_; }
  double min() const { return min_; }
  double max() const { return max_; }
  double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : 0; }
  double sum() const { return sum_; }
  // The q-quantile (0 ≤ q ≤ 1) by the nearest-rank rule, clamped to [min, max]; 0 when empty.
  double quantile(double q) const;

 private:
  static int Index(double value);
  static double Value(int index);
  void grow_to(int index);

  std::uint64_t count_ = 0;
  std::uint64_t zeros_ = 0;  // values below 1 (sizes are whole bytes)
  double min_ = 0, max_ = 0, sum_ = 0;
  int first_ = 0;  // index of buckets_[0]
  std::vector<std::uint64_t> buckets_;
};

}  // namespace dlbench::trace_summary
