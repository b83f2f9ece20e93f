#include "pipeline/time_sampler.h"

#include <cmath>
#include <string>

#include "config/validate.h"

namespace dlbench::pipeline {

using Kind = config::TimeDistribution::Kind;

TimeSampler::TimeSampler(const config::TimeDistribution& distribution, std::uint64_t seed,
                         Rank rank, StreamPurpose purpose, std::uint64_t stream, const char* key)
    : distribution_(distribution),
      engine_(MixSeed(
          {seed, static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(purpose), stream})) {
  config::CheckTimeDistribution(key, distribution_);
}

Seconds TimeSampler::next() {
  const config::TimeDistribution& d = distribution_;
  double value = 0;
  // The std distributions are constructed per draw: they are a few doubles, and this keeps the
  // sampler free of cached state (normal_distribution caches a second value otherwise).
  switch (d.kind) {
    case Kind::kConstant:
      value = d.mean;
      break;
    case Kind::kNormal:
      // std::normal_distribution requires stdev > 0; stdev 0 is the constant mean.
      value = d.stdev > 0 ? std::normal_distribution<double>(d.mean, d.stdev)(engine_) : d.mean;
      break;
    case Kind::kUniform:
      value = d.min < d.max ? std::uniform_real_distribution<double>(d.min, d.max)(engine_) : d.min;
      break;
    case Kind::kGamma:
      value = std::gamma_distribution<double>(d.shape, d.scale)(engine_);
      break;
    case Kind::kExponential:
      value = std::exponential_distribution<double>(1.0 / d.scale)(engine_);
      break;
    case Kind::kPoisson:
      value = d.lam > 0
                  ? static_cast<double>(std::poisson_distribution<std::int64_t>(d.lam)(engine_))
                  : 0.0;
      break;
  }
  return std::fabs(value);
}

}  // namespace dlbench::pipeline
