#include "metrics/statistics.h"

#include <cmath>

namespace dlbench::metrics {

MeanStdev PopulationMeanStdev(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, std::sqrt(squares / n)};
}

}  // namespace dlbench::metrics
