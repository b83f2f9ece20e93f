#include "metrics/percentiles.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

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

// The regular bucket of a value in (kMinSeconds, kMaxSeconds] without a logarithm: the trainer
// records every sample's latency (~116 instructions a value with std::log, ~0.7 % of a 4 KiB npy
// sample's CPU at computation 0; ~30 with the tables). A double's exponent and the top kSlotBits
// bits of its mantissa name a slot of relative width at most 2^-kSlotBits, under a bucket's
// (kGamma − 1 ≈ 2 %): the slot's first bucket, then at most two comparisons with the buckets'
// upper bounds kMinSeconds·g^i.
class BucketTables {
 public:
  BucketTables() : upper_(RegularBuckets() + 1) {
    for (std::size_t i = 0; i < upper_.size(); ++i) {
      upper_[i] = LatencyHistogram::kMinSeconds * std::pow(kGamma, static_cast<double>(i));
    }
    const std::uint64_t last = Slot(LatencyHistogram::kMaxSeconds);
    first_.resize(last + 1);
    for (std::uint64_t slot = 0; slot <= last; ++slot) {
      // The slot's smallest value; the first slot starts below kMinSeconds, at bucket 1.
      const double low = std::bit_cast<double>((slot + kFirst) << kShift);
      first_[slot] = static_cast<std::uint16_t>(std::max<std::ptrdiff_t>(
          1, std::lower_bound(upper_.begin(), upper_.end(), low) - upper_.begin()));
    }
  }
  std::size_t bucket(double value) const {  // kMinSeconds < value <= kMaxSeconds
    std::size_t bucket = first_[Slot(value)];
    while (bucket + 1 < upper_.size() && value > upper_[bucket]) ++bucket;
    return bucket;
  }

 private:
  static constexpr int kSlotBits = 6;
  static constexpr int kShift = 52 - kSlotBits;
  static_assert(std::numeric_limits<double>::is_iec559 && (1.0 / (1 << kSlotBits)) < kGamma - 1);
  static constexpr std::uint64_t kFirst =
      std::bit_cast<std::uint64_t>(LatencyHistogram::kMinSeconds) >> kShift;
  static std::uint64_t Slot(double value) {
    return (std::bit_cast<std::uint64_t>(value) >> kShift) - kFirst;
  }

  std::vector<double> upper_;         // bucket i's upper bound, i = 0 .. RegularBuckets()
  std::vector<std::uint16_t> first_;  // per slot, the bucket of its smallest value
};
// Built at start-up (~0.1 ms): no initialisation guard on the recording path.
const BucketTables kBucketTables;

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
    bucket = kBucketTables.bucket(value);
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
