// The search for the most accelerators that meet the AU threshold: the count doubles from 1
// until a point fails (or the maximum is reached), then bisects between the last count that
// passed and the first that failed. It assumes AU falls as accelerators grow: a count between
// two probes is never run, and a count above the first failure is never tried even if it would
// pass (every probed point is recorded, so a non-monotonic curve shows in the table).
#pragma once

#include <functional>
#include <optional>

namespace dlbench::sweep {

enum class Probe {
  kPass,  // the count meets the threshold
  kFail,  // it does not (or its job failed)
  kStop,  // end the search now (a failed job with --stop-on-error)
};

struct SearchResult {
  int max_passing = 0;               // 0: not even 1 accelerator passed
  std::optional<int> first_failure;  // the smallest count probed that did not pass
  bool stopped = false;              // a probe said kStop: max_passing is a lower bound
};

// Probes counts in 1..max (max >= 1) as described above. `probe` is called once per count.
SearchResult FindMaxAccelerators(int max, const std::function<Probe(int)>& probe);

}  // namespace dlbench::sweep
