#include "metrics/percentiles.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace dlbench::metrics {
namespace {

constexpr double kGamma =
    (1 + LatencyHistogram::kRelativeError) / (1 - LatencyHistogram::kRelativeError);

// Buckets 1..N-1 cover (kMinSeconds, kMaxSeconds]; one more bucket takes everything above.
std::size_t RegularBuckets() {
  static const std::size_t kBuckets = static_cast<std::size_t>(std::ceil(
      std::log(LatencyHistogram::kMaxSeconds / LatencyHistogram::kMinSeconds) / std::log(kGamma)));
  return kBuckets;
}

}  // namespace

double SortedQuantile(const std::vector<double>& sorted, double q) {
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  const auto upper = std::min(lower + 1, sorted.size() - 1);
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[upper] - sorted[lower]);
}

std::optional<Percentiles> ExactPercentiles(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  return Percentiles{values.size(), SortedQuantile(values, 0.50), SortedQuantile(values, 0.90),
                     SortedQuantile(values, 0.99), values.back()};
}

std::size_t LatencyHistogram::BucketCount() { return RegularBuckets() + 2; }

LatencyHistogram::LatencyHistogram() : counts_(BucketCount(), 0) {}

void LatencyHistogram::record(Seconds value) {
  if (!(value > 0)) value = 0;  // also maps NaN to 0
  std::size_t bucket = 0;
  if (value > kMaxSeconds) {
    bucket = counts_.size() - 1;
  } else if (value > kMinSeconds) {
    const double index = std::ceil(std::log(value / kMinSeconds) / std::log(kGamma));
    bucket = std::clamp<std::size_t>(static_cast<std::size_t>(index), 1, counts_.size() - 2);
  }
  ++counts_[bucket];
  ++count_;
  max_ = std::max(max_, value);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

LatencyHistogram LatencyHistogram::FromCounts(std::vector<std::uint64_t> counts, Seconds max) {
  if (counts.size() != BucketCount()) {
    throw InternalError("metrics: latency histogram with " + std::to_string(counts.size()) +
                        " buckets, expected " + std::to_string(BucketCount()));
  }
  LatencyHistogram histogram;
  histogram.counts_ = std::move(counts);
  for (std::uint64_t c : histogram.counts_) histogram.count_ += c;
  histogram.max_ = max;
  return histogram;
}

double LatencyHistogram::representative(std::size_t bucket) const {
  if (bucket == 0) return kMinSeconds;
  if (bucket == counts_.size() - 1) return max_;
  return kMinSeconds * 2 * std::pow(kGamma, static_cast<double>(bucket)) / (kGamma + 1);
}

Seconds LatencyHistogram::value_at_rank(std::uint64_t rank) const {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (rank < seen) return representative(i);
  }
  return max_;
}

double LatencyHistogram::quantile(double q) const {
  const double h = static_cast<double>(count_ - 1) * q;
  const auto lower = static_cast<std::uint64_t>(std::floor(h));
  const auto upper = std::min(lower + 1, count_ - 1);
  const double low = value_at_rank(lower);
  const double high = value_at_rank(upper);
  // The true quantile lies within [0, max]; clamping can only move the estimate toward it.
  return std::min(max_, low + (h - static_cast<double>(lower)) * (high - low));
}

std::optional<Percentiles> LatencyHistogram::summary() const {
  if (count_ == 0) return std::nullopt;
  return Percentiles{count_, quantile(0.50), quantile(0.90), quantile(0.99), max_};
}

}  // namespace dlbench::metrics
