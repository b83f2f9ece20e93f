// Mean and population standard deviation (numpy's default ddof = 0, as DLIO and IOR use).
#pragma once

#include <vector>

namespace dlbench::metrics {

struct MeanStdev {
  double mean = 0;
  double stdev = 0;  // population: sqrt(sum((x - mean)^2) / n)
};

// Requires a non-empty vector.
MeanStdev PopulationMeanStdev(const std::vector<double>& values);

}  // namespace dlbench::metrics
