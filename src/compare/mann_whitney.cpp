#include "compare/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "util/error.h"

namespace dlbench::compare {
namespace {

// SciPy's rule for method="auto".
constexpr std::size_t kExactMaxSize = 8;

struct Ranking {
  double x_rank_sum = 0;
  double tie_term = 0;  // sum over groups of equal values of t^3 - t
  bool ties = false;
};

Ranking Rank(const std::vector<double>& x, const std::vector<double>& y) {
  struct Value {
    double v;
    bool from_x;
  };
  std::vector<Value> all;
  for (double v : x) all.push_back({v, true});
  for (double v : y) all.push_back({v, false});
  std::sort(all.begin(), all.end(), [](const Value& a, const Value& b) { return a.v < b.v; });
  Ranking ranking;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].v == all[i].v) ++j;
    const double t = static_cast<double>(j - i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].from_x) ranking.x_rank_sum += mean_rank;
    }
    if (t > 1) {
      ranking.ties = true;
      ranking.tie_term += t * t * t - t;
    }
    i = j;
  }
  return ranking;
}

// Number of arrangements of n1 + n2 distinct values giving each U1 in 0 .. n1 n2. Placing the
// values in increasing order, an x at position p with k x's before it is above p - k y's, and
// U1 is the sum of those counts: ways[k][u] counts the placements of k x's among the positions
// seen so far whose partial sum is u.
std::vector<double> UCounts(int n1, int n2) {
  const std::size_t width = static_cast<std::size_t>(n1) * static_cast<std::size_t>(n2) + 1;
  std::vector<double> ways((static_cast<std::size_t>(n1) + 1) * width, 0.0);
  if (ways.empty()) return {};  // unreachable; tells the optimiser ways[0] exists
  ways[0] = 1;
  for (int p = 0; p < n1 + n2; ++p) {
    for (int k = std::min(p + 1, n1); k >= 1; --k) {
      const int below = p - (k - 1);  // y's before this x
      if (below > n2) continue;
      const std::size_t from = static_cast<std::size_t>(k - 1) * width;
      const std::size_t to = static_cast<std::size_t>(k) * width;
      for (std::size_t u = 0; u + static_cast<std::size_t>(below) < width; ++u) {
        ways[to + u + static_cast<std::size_t>(below)] += ways[from + u];
      }
    }
  }
  return std::vector<double>(ways.end() - static_cast<std::ptrdiff_t>(width), ways.end());
}

double ExactTwoSided(double u, int n1, int n2) {
  const std::vector<double> counts = UCounts(n1, n2);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  double tail = 0;
  for (std::size_t k = static_cast<std::size_t>(std::ceil(u)); k < counts.size(); ++k) {
    tail += counts[k];
  }
  return std::min(1.0, 2.0 * tail / total);
}

}  // namespace

UTest MannWhitneyU(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) {
    throw InternalError("Mann-Whitney U test of an empty sample");
  }
  const auto finite = [](double v) { return std::isfinite(v); };
  if (!std::all_of(x.begin(), x.end(), finite) || !std::all_of(y.begin(), y.end(), finite)) {
    throw InternalError("Mann-Whitney U test of a non-finite value");
  }
  const double n1 = static_cast<double>(x.size());
  const double n2 = static_cast<double>(y.size());
  const Ranking ranking = Rank(x, y);
  UTest test;
  test.u = ranking.x_rank_sum - n1 * (n1 + 1) / 2;
  const double u = std::max(test.u, n1 * n2 - test.u);
  test.exact = std::min(x.size(), y.size()) <= kExactMaxSize && !ranking.ties;
  if (test.exact) {
    test.p_value = ExactTwoSided(u, static_cast<int>(x.size()), static_cast<int>(y.size()));
    return test;
  }
  const double n = n1 + n2;
  const double s = std::sqrt(n1 * n2 / 12 * ((n + 1) - ranking.tie_term / (n * (n - 1))));
  if (!(s > 0)) return test;  // every value equal: p = 1
  const double z = (u - n1 * n2 / 2 - 0.5) / s;
  test.p_value = std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);  // 2 (1 - Phi(z))
  return test;
}

double SmallestPValue(int n1, int n2) {
  // C(n1 + n2, n1) computed as a product of ratios, exact enough in double for these sizes.
  double combinations = 1;
  for (int k = 1; k <= n1; ++k) combinations = combinations * (n2 + k) / k;
  return std::min(1.0, 2.0 / combinations);
}

}  // namespace dlbench::compare
