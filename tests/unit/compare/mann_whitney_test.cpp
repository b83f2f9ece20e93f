// The U test against SciPy 1.10's scipy.stats.mannwhitneyu(x, y) (two-sided, defaults). The
// reference values were printed by mann_whitney_reference.py in this folder; the interop test
// tests/interop/compare_pvalues.py checks random samples against SciPy live.
#include "compare/mann_whitney.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace dlbench::compare {
namespace {

struct Case {
  std::vector<double> x, y;
  double u, p;
  bool exact;
};

TEST(MannWhitney, MatchesScipyReferenceValues) {
  const std::vector<Case> cases = {
      // exact: no ties, a sample of at most 8
      {{1, 2, 3}, {4, 5, 6}, 0.0, 0.1, true},
      {{1.5, 2.5, 3.5, 4.5}, {1, 2, 3, 4}, 10.0, 0.6857142857142857, true},
      {{10, 11, 12, 13, 14}, {15, 16, 17, 18, 19}, 0.0, 0.007936507936507936, true},
      {{3.1, 4.2, 5.3, 6.4, 7.5, 8.6, 9.7},
       {1.0, 2.0, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, 10.1},
       35.0,
       1.0,
       true},
      // asymptotic: ties
      {{1, 2, 2, 3, 4}, {2, 3, 5, 6, 7}, 4.5, 0.11161176829829224, false},
      // asymptotic: both samples larger than 8
      {{0, 1, 2, 3, 4, 5, 6, 7, 8},
       {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5},
       36.0,
       0.2136207303090525,
       false},
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
       {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
       50.0,
       0.13395467569734978,
       false},
  };
  for (const Case& c : cases) {
    const UTest test = MannWhitneyU(c.x, c.y);
    EXPECT_DOUBLE_EQ(test.u, c.u);
    EXPECT_NEAR(test.p_value, c.p, 1e-12 * c.p + 1e-15) << "U = " << c.u;
    EXPECT_EQ(test.exact, c.exact) << "U = " << c.u;
  }
}

TEST(MannWhitney, AllValuesEqualGiveOne) {
  // SciPy returns NaN here (zero variance); no evidence of a difference is p = 1.
  EXPECT_DOUBLE_EQ(MannWhitneyU({5, 5, 5}, {5, 5, 5}).p_value, 1.0);
}

TEST(MannWhitney, SymmetricInItsSamples) {
  const std::vector<double> x = {1.1, 2.7, 3.2, 9.0, 4.4};
  const std::vector<double> y = {5.1, 6.3, 2.2, 8.8};
  EXPECT_DOUBLE_EQ(MannWhitneyU(x, y).p_value, MannWhitneyU(y, x).p_value);
}

TEST(MannWhitney, SmallestPValue) {
  EXPECT_DOUBLE_EQ(SmallestPValue(3, 3), 0.1);       // 2 / C(6, 3)
  EXPECT_DOUBLE_EQ(SmallestPValue(4, 4), 2.0 / 70);  // first size with p < 0.05 both sides
  EXPECT_DOUBLE_EQ(SmallestPValue(1, 1), 1.0);
  EXPECT_DOUBLE_EQ(SmallestPValue(5, 5), MannWhitneyU({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}).p_value);
}

TEST(MannWhitney, RejectsEmptyAndNonFiniteSamples) {
  EXPECT_THROW(MannWhitneyU({}, {1}), Error);
  EXPECT_THROW(MannWhitneyU({1, std::numeric_limits<double>::quiet_NaN()}, {1}), Error);
}

}  // namespace
}  // namespace dlbench::compare
