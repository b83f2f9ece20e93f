// The Mann–Whitney U rank test, two-sided, computed as scipy.stats.mannwhitneyu (SciPy 1.10,
// defaults) computes it — the test google/benchmark's compare.py applies to repeated runs:
//
//   U1 = R1 - n1 (n1 + 1) / 2 with R1 the sum of x's ranks (ties get their mean rank),
//   U  = max(U1, n1 n2 - U1).
//   exact      (one sample has at most 8 values and no value occurs twice):
//              p = 2 P(U' >= U) under the null distribution of U', clipped to 1.
//   asymptotic (otherwise): z = (U - n1 n2 / 2 - 1/2) / s with the tie-corrected
//              s = sqrt(n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1)))), p = 2 (1 - Phi(z)).
//
// When every value of both samples is the same (s = 0) there is no evidence of a difference and
// p = 1 (SciPy returns NaN there).
#pragma once

#include <vector>

namespace dlbench::compare {

struct UTest {
  double u = 0;        // U1, the statistic of the first sample (SciPy's `statistic`)
  double p_value = 1;  // two-sided
  bool exact = false;  // exact null distribution, else the normal approximation
};

// Requires two non-empty samples of finite values; throws dlbench::Error (internal) otherwise.
UTest MannWhitneyU(const std::vector<double>& x, const std::vector<double>& y);

// The smallest two-sided p-value the exact test can give for sample sizes n1 and n2 (all of one
// sample above all of the other): 2 / C(n1 + n2, n1). With 3 runs a side it is 0.1, so such a
// test can never be significant at 0.05; callers then ask that the ranges
// of the two samples do not overlap (compare/comparison.h).
double SmallestPValue(int n1, int n2);

}  // namespace dlbench::compare
