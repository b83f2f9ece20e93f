#include "trace_summary/quantile_sketch.h"

#include <algorithm>
#include <cmath>

namespace dlbench::trace_summary {
namespace {

// γ = (1 + α) / (1 − α): every value in bucket i, (γ^(i−1), γ^i], is within α of 2γ^i / (γ + 1).
const double kGamma =
    (1 + QuantileSketch::kRelativeAccuracy) / (1 - QuantileSketch::kRelativeAccuracy);
const double kLogGamma = std::log(kGamma);

}  // namespace

int QuantileSketch::Index(double value) {
  return static_cast<int>(std::ceil(std::log(value) / kLogGamma));
}

double QuantileSketch::Value(int index) { return 2 * std::exp(index * kLogGamma) / (kGamma + 1); }

void QuantileSketch::grow_to(int index) {
  if (buckets_.empty()) {
    first_ = index;
    buckets_.assign(1, 0);
  } else if (index < first_) {
    buckets_.insert(buckets_.begin(), static_cast<std::size_t>(first_ - index), 0);
    first_ = index;
  } else if (index >= first_ + static_cast<int>(buckets_.size())) {
    buckets_.resize(static_cast<std::size_t>(index - first_ + 1), 0);
  }
}

void QuantileSketch::add(double value) {
  value = std::max(0.0, value);
  if (count_ == 0) {
    min_ = max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  ++count_;
  sum_ += value;
  if (value < 1) {
    ++zeros_;
    return;
  }
  const int index = Index(value);
  grow_to(index);
  ++buckets_[static_cast<std::size_t>(index - first_)];
}

void QuantileSketch::merge(const QuantileSketch& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  zeros_ += other.zeros_;
  for (std::size_t i = 0; i < other.buckets_.size(); ++i) {
    if (other.buckets_[i] == 0) continue;
    const int index = other.first_ + static_cast<int>(i);
    grow_to(index);
    buckets_[static_cast<std::size_t>(index - first_)] += other.buckets_[i];
  }
}

double QuantileSketch::quantile(double q) const {
  if (count_ == 0) return 0;
  // Nearest rank: the smallest value with at least ceil(q·n) values at or below it (rank ≥ 1).
  const auto rank = std::max<std::uint64_t>(
      1,
      static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_))));
  double estimate = max_;
  std::uint64_t seen = zeros_;
  if (seen >= rank) {
    estimate = min_;  // a value below 1 byte: the minimum is exact
  } else {
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i];
      if (seen >= rank) {
        estimate = Value(first_ + static_cast<int>(i));
        break;
      }
    }
  }
  return std::clamp(estimate, min_, max_);
}

}  // namespace dlbench::trace_summary
