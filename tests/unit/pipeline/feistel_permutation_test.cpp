#include "pipeline/feistel_permutation.h"

#include <gtest/gtest.h>

#include <vector>

namespace dlbench::pipeline {
namespace {

TEST(FeistelPermutation, IsABijectionForEverySmallSize) {
  for (std::uint64_t n = 0; n <= 300; ++n) {
    FeistelPermutation perm(n, 42 + n);
    std::vector<bool> seen(n, false);
    for (std::uint64_t x = 0; x < n; ++x) {
      const std::uint64_t y = perm(x);
      ASSERT_LT(y, n) << "n=" << n;
      ASSERT_FALSE(seen[y]) << "n=" << n << " value " << y << " twice";
      seen[y] = true;
    }
  }
}

TEST(FeistelPermutation, IsABijectionForALargerOddSize) {
  const std::uint64_t n = 100003;
  FeistelPermutation perm(n, 9);
  std::vector<bool> seen(n, false);
  for (std::uint64_t x = 0; x < n; ++x) {
    const std::uint64_t y = perm(x);
    ASSERT_LT(y, n);
    ASSERT_FALSE(seen[y]);
    seen[y] = true;
  }
}

TEST(FeistelPermutation, KeyDeterminesThePermutation) {
  const std::uint64_t n = 1000;
  std::vector<std::uint64_t> a, b, c;
  FeistelPermutation p1(n, 1), p1_again(n, 1), p2(n, 2);
  std::uint64_t fixed_points = 0;
  for (std::uint64_t x = 0; x < n; ++x) {
    a.push_back(p1(x));
    b.push_back(p1_again(x));
    c.push_back(p2(x));
    fixed_points += p1(x) == x;
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // A random permutation has 1 fixed point on average; far more would mean "not shuffled".
  EXPECT_LT(fixed_points, 20u);
}

TEST(FeistelPermutation, WorksNearTheTopOfTheIndexSpace) {
  const std::uint64_t n = (1ULL << 62) + 12345;
  FeistelPermutation perm(n, 3);
  for (std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, n / 2, n - 1}) EXPECT_LT(perm(x), n);
}

}  // namespace
}  // namespace dlbench::pipeline
