// A DLIO time value (computation_time, preprocess_time, eval_time): a constant or a random
// distribution, in seconds. Drawing from it lives in pipeline/; this is only the description.
#pragma once

namespace dlbench::config {

struct TimeDistribution {
  enum class Kind { kConstant, kNormal, kUniform, kGamma, kExponential, kPoisson };
  Kind kind = Kind::kConstant;
  double mean = 0.0;   // constant value, or normal mean
  double stdev = 0.0;  // normal
  double min = 0.0;    // uniform [min, max)
  double max = 0.0;
  double shape = 0.0;  // gamma
  double scale = 0.0;  // gamma, exponential (mean = scale)
  double lam = 0.0;    // poisson (integer seconds)

  bool operator==(const TimeDistribution&) const = default;

  bool is_zero() const { return kind == Kind::kConstant && mean == 0.0; }
  // Expected value of a draw (before DLIO's absolute-value rule), for reports and AU estimates.
  double expected() const {
    switch (kind) {
      case Kind::kConstant:
      case Kind::kNormal:
        return mean;
      case Kind::kUniform:
        return (min + max) / 2;
      case Kind::kGamma:
        return shape * scale;
      case Kind::kExponential:
        return scale;
      case Kind::kPoisson:
        return lam;
    }
    return mean;
  }
};

}  // namespace dlbench::config
