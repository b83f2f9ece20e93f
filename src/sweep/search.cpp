#include "sweep/search.h"

#include <algorithm>

#include "util/error.h"

namespace dlbench::sweep {

SearchResult FindMaxAccelerators(int max, const std::function<Probe(int)>& probe) {
  if (max < 1) throw InternalError("sweep: the most accelerators to try is " + std::to_string(max));
  SearchResult result;
  // Doubling: 1, 2, 4, ... and max itself when it is not a power of two.
  for (int count = 1;; count = std::min(count * 2, max)) {
    const Probe outcome = probe(count);
    if (outcome == Probe::kStop) {
      result.stopped = true;
      return result;
    }
    if (outcome == Probe::kFail) {
      result.first_failure = count;
      break;
    }
    result.max_passing = count;
    if (count == max) return result;
  }
  // Bisection between the last pass and the first failure.
  int low = result.max_passing;
  int high = *result.first_failure;
  while (high - low > 1) {
    const int middle = low + (high - low) / 2;
    const Probe outcome = probe(middle);
    if (outcome == Probe::kStop) {
      result.stopped = true;
      break;
    }
    if (outcome == Probe::kPass) {
      low = middle;
    } else {
      high = middle;
    }
  }
  result.max_passing = low;
  result.first_failure = high;
  return result;
}

}  // namespace dlbench::sweep
