// Small arithmetic the rules share.
#pragma once

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "insights/run_facts.h"
#include "insights/thresholds.h"

namespace dlbench::insights {

inline std::optional<double> MeanOf(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// numpy's median: the middle value, or the mean of the two middle ones.
inline std::optional<double> MedianOf(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// A first value (epoch 1's load wait, run 1's read time) against the median of the later ones:
// whether it is at least `ratio` times that median and `min_excess` more, and the ratio the
// evidence shows (the first value itself when the later ones took no time).
inline bool FirstStandsOut(double first, double later, double ratio, double min_excess) {
  return first - later >= min_excess && first >= ratio * later;
}
inline double RatioToLater(double first, double later) { return later > 0 ? first / later : first; }

// Whether load waits cost training AU (storage_bound's threshold), or no training ran: findings
// about how the I/O is done are warnings then, and information otherwise.
inline bool ReadsCostAu(const RunFacts& facts) {
  const std::optional<double> points = MeanOf(facts.train_load_loss_points);
  return !points || *points >= kStorageBoundPoints;
}

}  // namespace dlbench::insights
