#include "pipeline/time_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using Dist = config::TimeDistribution;
using Kind = Dist::Kind;

struct Moments {
  double mean = 0;
  double variance = 0;
};

Moments Draw(const Dist& d, int n, std::uint64_t seed = 7) {
  TimeSampler sampler(d, seed, 0, StreamPurpose::kComputeTime);
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = sampler.next();
    EXPECT_GE(x, 0.0);
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / n;
  return {mean, sum2 / n - mean * mean};
}

TEST(TimeSampler, ConstantIsExact) {
  Dist d;
  d.mean = 0.323;
  TimeSampler sampler(d, 1, 0, StreamPurpose::kComputeTime);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(sampler.next(), 0.323);
}

TEST(TimeSampler, ANegativeDrawBecomesItsAbsoluteValue) {
  const Dist d{.kind = Kind::kNormal, .mean = -0.5, .stdev = 0};
  EXPECT_EQ(TimeSampler(d, 1, 0, StreamPurpose::kComputeTime).next(), 0.5);
}

TEST(TimeSampler, NormalWithZeroStdevIsTheMean) {
  Dist d{.kind = Kind::kNormal, .mean = 0.25, .stdev = 0};
  EXPECT_EQ(TimeSampler(d, 1, 0, StreamPurpose::kComputeTime).next(), 0.25);
}

// 200k draws: the standard error of the mean is ≤ σ/447, so the tolerances below are > 10 σ; the
// seed is fixed, so the test is deterministic anyway.
constexpr int kDraws = 200000;

TEST(TimeSampler, NormalMoments) {
  Dist d{.kind = Kind::kNormal, .mean = 10, .stdev = 2};
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, 10, 0.05);
  EXPECT_NEAR(m.variance, 4, 0.1);
}

TEST(TimeSampler, NormalCrossingZeroIsFolded) {
  // |N(0, 1)| is the half-normal: mean sqrt(2/π), variance 1 − 2/π.
  Dist d{.kind = Kind::kNormal, .mean = 0, .stdev = 1};
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, std::sqrt(2 / M_PI), 0.01);
  EXPECT_NEAR(m.variance, 1 - 2 / M_PI, 0.01);
}

TEST(TimeSampler, UniformMoments) {
  Dist d{.kind = Kind::kUniform, .min = 2, .max = 5};
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, 3.5, 0.02);
  EXPECT_NEAR(m.variance, 9.0 / 12, 0.02);
}

TEST(TimeSampler, UniformWithEqualBoundsIsThatValue) {
  Dist d{.kind = Kind::kUniform, .min = 2, .max = 2};
  EXPECT_EQ(TimeSampler(d, 1, 0, StreamPurpose::kComputeTime).next(), 2.0);
}

TEST(TimeSampler, GammaMoments) {
  Dist d{.kind = Kind::kGamma, .shape = 3, .scale = 0.5};
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, 1.5, 0.02);
  EXPECT_NEAR(m.variance, 0.75, 0.03);
}

TEST(TimeSampler, ExponentialMoments) {
  Dist d{.kind = Kind::kExponential, .scale = 0.2};
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, 0.2, 0.005);
  EXPECT_NEAR(m.variance, 0.04, 0.003);
}

TEST(TimeSampler, PoissonMomentsAndIntegerValues) {
  Dist d{.kind = Kind::kPoisson, .lam = 4};
  TimeSampler sampler(d, 3, 0, StreamPurpose::kComputeTime);
  for (int i = 0; i < 1000; ++i) {
    const double x = sampler.next();
    EXPECT_EQ(x, std::floor(x));
  }
  const Moments m = Draw(d, kDraws);
  EXPECT_NEAR(m.mean, 4, 0.05);
  EXPECT_NEAR(m.variance, 4, 0.15);
}

TEST(TimeSampler, PoissonWithZeroLambdaIsZero) {
  Dist d{.kind = Kind::kPoisson, .lam = 0};
  EXPECT_EQ(TimeSampler(d, 1, 0, StreamPurpose::kComputeTime).next(), 0.0);
}

std::vector<double> Sequence(std::uint64_t seed, Rank rank, StreamPurpose purpose,
                             std::uint64_t stream = 0) {
  Dist d{.kind = Kind::kNormal, .mean = 1, .stdev = 0.3};
  TimeSampler sampler(d, seed, rank, purpose, stream);
  std::vector<double> out;
  for (int i = 0; i < 16; ++i) out.push_back(sampler.next());
  return out;
}

TEST(TimeSampler, SameKeySameSequence) {
  EXPECT_EQ(Sequence(5, 1, StreamPurpose::kComputeTime),
            Sequence(5, 1, StreamPurpose::kComputeTime));
}

TEST(TimeSampler, EveryKeyPartChangesTheSequence) {
  const auto base = Sequence(5, 1, StreamPurpose::kComputeTime);
  EXPECT_NE(base, Sequence(6, 1, StreamPurpose::kComputeTime));
  EXPECT_NE(base, Sequence(5, 2, StreamPurpose::kComputeTime));
  EXPECT_NE(base, Sequence(5, 1, StreamPurpose::kEvalTime));
  EXPECT_NE(base, Sequence(5, 1, StreamPurpose::kComputeTime, 1));
}

TEST(TimeSampler, RejectsInvalidParameters) {
  auto expect_usage = [](const Dist& d) {
    dlbench::test::ExpectError(
        [&] { TimeSampler(d, 1, 0, StreamPurpose::kComputeTime, 0, "train.computation_time"); },
        ExitCode::kUsage, {"train.computation_time"});
  };
  expect_usage(Dist{.kind = Kind::kNormal, .mean = 1, .stdev = -1});
  expect_usage(Dist{.kind = Kind::kUniform, .min = 3, .max = 2});
  expect_usage(Dist{.kind = Kind::kGamma, .shape = 0, .scale = 1});
  expect_usage(Dist{.kind = Kind::kGamma, .shape = 1, .scale = -1});
  expect_usage(Dist{.kind = Kind::kExponential, .scale = 0});
  expect_usage(Dist{.kind = Kind::kPoisson, .lam = -1});
  expect_usage(Dist{.kind = Kind::kConstant, .mean = NAN});
  // The configuration's rule (config::CheckTimeDistribution): a negative constant is a mistake,
  // not a draw to take the absolute value of.
  expect_usage(Dist{.kind = Kind::kConstant, .mean = -0.5});
}

}  // namespace
}  // namespace dlbench::pipeline
