#include "metrics/au.h"

#include <algorithm>
#include <string>

#include "util/error.h"

namespace dlbench::metrics {

StepRange MeasuredSteps(std::size_t block_steps, std::uint64_t steps_per_epoch,
                        Exclusion exclusion) {
  const auto k = static_cast<std::int64_t>(steps_per_epoch);
  const auto n = static_cast<std::int64_t>(block_steps);
  const std::int64_t first = std::clamp<std::int64_t>(exclusion.start_steps, 0, n);
  // DLIO's inclusive i1 = K - 1 - e, so the exclusive end is K - e.
  const std::int64_t last = std::clamp<std::int64_t>(k - exclusion.end_steps, 0, n);
  return {static_cast<std::size_t>(first), static_cast<std::size_t>(std::max(first, last))};
}

BlockTiming MeasureBlock(const BlockRecord& block, std::uint64_t steps_per_epoch,
                         Exclusion exclusion) {
  if (block.end < block.start) {
    throw InternalError("metrics: block " + std::to_string(block.number) +
                        " ends before it starts (" + std::to_string(block.end) + " < " +
                        std::to_string(block.start) + ")");
  }
  const StepRange range = MeasuredSteps(block.steps.size(), steps_per_epoch, exclusion);
  BlockTiming timing;
  timing.recorded_steps = block.steps.size();
  timing.total_time = block.end - block.start;
  for (std::size_t i = 0; i < block.steps.size(); ++i) {
    const StepRecord& step = block.steps[i];
    if (i >= range.first && i < range.last) {
      timing.total_compute += step.compute;
      timing.measured_samples += step.samples;
      ++timing.measured_steps;
    } else {
      timing.total_time -= step.proc();
    }
  }
  if (timing.total_compute > 0 && timing.total_time <= 0) {
    throw InternalError("metrics: block " + std::to_string(block.number) +
                        " has compute time but no wall time left after exclusions; step times are "
                        "outside the block's start/end");
  }
  return timing;
}

double AuPercent(const BlockTiming& timing) {
  if (timing.total_compute == 0) return 0.0;
  return 100.0 * timing.total_compute / timing.total_time;
}

double EpochAuPercent(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                      Exclusion exclusion) {
  double weighted = 0;
  std::uint64_t steps = 0;
  for (const BlockRecord& block : epoch.blocks) {
    const BlockTiming timing = MeasureBlock(block, steps_per_epoch, exclusion);
    weighted += AuPercent(timing) * static_cast<double>(timing.recorded_steps);
    steps += timing.recorded_steps;
  }
  return steps == 0 ? 0.0 : weighted / static_cast<double>(steps);
}

}  // namespace dlbench::metrics
