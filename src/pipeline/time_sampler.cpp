#include "pipeline/time_sampler.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace dlbench::pipeline {

using Kind = config::TimeDistribution::Kind;

namespace {

[[noreturn]] void Invalid(const char* key, const std::string& what) {
  throw UsageError(std::string(key) + ": " + what);
}

}  // namespace

void ValidateTimeDistribution(const config::TimeDistribution& d, const char* key) {
  switch (d.kind) {
    case Kind::kConstant:
      if (!std::isfinite(d.mean)) Invalid(key, "the constant time must be a finite number");
      break;
    case Kind::kNormal:
      if (!std::isfinite(d.mean) || !std::isfinite(d.stdev) || d.stdev < 0)
        Invalid(key, "normal needs a finite mean and a stdev >= 0, got stdev " +
                         std::to_string(d.stdev));
      break;
    case Kind::kUniform:
      if (!std::isfinite(d.min) || !std::isfinite(d.max) || d.min > d.max)
        Invalid(key, "uniform needs min <= max, got min " + std::to_string(d.min) + " and max " +
                         std::to_string(d.max));
      break;
    case Kind::kGamma:
      if (!(d.shape > 0) || !(d.scale > 0) || !std::isfinite(d.shape) || !std::isfinite(d.scale))
        Invalid(key, "gamma needs shape > 0 and scale > 0, got shape " + std::to_string(d.shape) +
                         " and scale " + std::to_string(d.scale));
      break;
    case Kind::kExponential:
      if (!(d.scale > 0) || !std::isfinite(d.scale))
        Invalid(key, "exponential needs scale > 0, got " + std::to_string(d.scale));
      break;
    case Kind::kPoisson:
      if (!(d.lam >= 0) || !std::isfinite(d.lam))
        Invalid(key, "poisson needs lam >= 0, got " + std::to_string(d.lam));
      break;
  }
}

TimeSampler::TimeSampler(const config::TimeDistribution& distribution, std::uint64_t seed,
                         Rank rank, StreamPurpose purpose, std::uint64_t stream, const char* key)
    : distribution_(distribution),
      engine_(MixSeed(
          {seed, static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(purpose), stream})) {
  ValidateTimeDistribution(distribution_, key);
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
