#include "trace_summary/time_split.h"

#include <algorithm>
#include <cmath>

namespace dlbench::trace_summary {

TimeSplit& TimeSplit::operator+=(const TimeSplit& other) {
  wall += other.wall;
  compute += other.compute;
  io += other.io;
  overlap += other.overlap;
  bin_width = std::max(bin_width, other.bin_width);
  return *this;
}

void TimeSplitter::span(double start_us, double end_us) {
  if (!any_) {
    first_ = start_us;
    last_ = end_us;
    any_ = true;
  }
  first_ = std::min(first_, start_us);
  last_ = std::max(last_, end_us);
}

void TimeSplitter::cover(double start_us, double end_us) {
  if (bins_.empty()) origin_ = std::floor(start_us / width_) * width_;
  for (;;) {
    const double low = std::min(origin_, std::floor(start_us / width_) * width_);
    const double high = std::max(origin_ + static_cast<double>(bins_.size()) * width_, end_us);
    if ((high - low) / width_ <= static_cast<double>(kMaxBins)) break;
    // Coarsen: pairs of bins become one, on a grid of the doubled width.
    const double new_width = width_ * 2;
    const double new_origin = std::floor(origin_ / new_width) * new_width;
    const auto shift = static_cast<std::size_t>(std::llround((origin_ - new_origin) / width_));
    std::vector<std::array<float, 2>> merged((bins_.size() + shift + 1) / 2, {0, 0});
    for (std::size_t i = 0; i < bins_.size(); ++i) {
      merged[(i + shift) / 2][0] += bins_[i][0];
      merged[(i + shift) / 2][1] += bins_[i][1];
    }
    bins_ = std::move(merged);
    origin_ = new_origin;
    width_ = new_width;
  }
  const double low = std::floor(start_us / width_) * width_;
  if (low < origin_) {
    const auto extra = static_cast<std::size_t>(std::llround((origin_ - low) / width_));
    bins_.insert(bins_.begin(), extra, {0, 0});
    origin_ = low;
  }
  const auto needed = static_cast<std::size_t>(std::floor((end_us - origin_) / width_)) + 1;
  if (needed > bins_.size()) bins_.resize(needed, {0, 0});
}

void TimeSplitter::add(Class c, double start_us, double end_us) {
  span(start_us, end_us);
  if (!(end_us > start_us)) return;
  cover(start_us, end_us);
  auto bin = static_cast<std::size_t>(std::floor((start_us - origin_) / width_));
  for (; bin < bins_.size(); ++bin) {
    const double bin_start = origin_ + static_cast<double>(bin) * width_;
    if (bin_start >= end_us) break;
    const double part = std::min(end_us, bin_start + width_) - std::max(start_us, bin_start);
    bins_[bin][c] += static_cast<float>(part);
  }
}

TimeSplit TimeSplitter::result() const {
  TimeSplit split;
  split.bin_width = width_ / 1e6;
  if (!any_) return split;
  split.wall = (last_ - first_) / 1e6;
  const auto width = static_cast<float>(width_);
  for (const auto& bin : bins_) {
    const float compute = std::min(bin[kCompute], width);
    const float io = std::min(bin[kIo], width);
    split.compute += compute;
    split.io += io;
    split.overlap += std::max(0.0f, compute + io - width);
  }
  split.compute /= 1e6;
  split.io /= 1e6;
  split.overlap /= 1e6;
  return split;
}

}  // namespace dlbench::trace_summary
