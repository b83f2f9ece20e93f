// Draws durations from a configured DLIO time distribution (computation_time, preprocess_time,
// eval_time). DLIO draws from NumPy's process-global generator, which its
// shuffles reseed, so its sequences are not reproducible; here each sampler owns a stream keyed
// by (seed, rank, purpose, stream), so a run with the same seed draws the same times.
#pragma once

#include <cstdint>
#include <random>

#include "config/distribution.h"
#include "pipeline/seed.h"
#include "util/units.h"

namespace dlbench::pipeline {

class TimeSampler {
 public:
  // Throws Error(kUsage) for parameters no draw can be made from (config::CheckTimeDistribution,
  // the rule the configuration is validated with at load); `key` names the configuration key in
  // the message (e.g. "train.computation_time").
  TimeSampler(const config::TimeDistribution& distribution, std::uint64_t seed, Rank rank,
              StreamPurpose purpose, std::uint64_t stream = 0, const char* key = "time");

  // The next duration, ≥ 0: a negative draw is replaced by its absolute value (DLIO's rule).
  Seconds next();

  const config::TimeDistribution& distribution() const { return distribution_; }

 private:
  config::TimeDistribution distribution_;
  std::mt19937_64 engine_;
};

}  // namespace dlbench::pipeline
