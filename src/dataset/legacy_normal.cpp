#include "dataset/legacy_normal.h"

#include <cmath>

namespace dlbench::dataset {

double LegacyNormal::uniform() {
  const std::uint32_t a = static_cast<std::uint32_t>(mt_()) >> 5;
  const std::uint32_t b = static_cast<std::uint32_t>(mt_()) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double LegacyNormal::gauss() {
  if (has_cached_) {
    has_cached_ = false;
    return cached_;
  }
  double x1;
  double x2;
  double r2;
  do {
    x1 = 2.0 * uniform() - 1.0;
    x2 = 2.0 * uniform() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  cached_ = f * x1;
  has_cached_ = true;
  return f * x2;
}

}  // namespace dlbench::dataset
