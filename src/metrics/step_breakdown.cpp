#include "metrics/step_breakdown.h"

namespace dlbench::metrics {

StepBreakdown BreakDownBlock(const BlockRecord& block, std::uint64_t steps_per_epoch,
                             Exclusion exclusion) {
  const BlockTiming timing = MeasureBlock(block, steps_per_epoch, exclusion);
  const StepRange range = MeasuredSteps(block.steps.size(), steps_per_epoch, exclusion);
  StepBreakdown b;
  if (!block.steps.empty()) b.first_batch_wait = block.steps.front().load;
  Seconds barrier = 0;
  for (std::size_t i = 0; i < block.steps.size(); ++i) {
    const StepRecord& step = block.steps[i];
    b.barrier_skew += step.barrier_skew;
    b.barrier_latency += step.barrier_latency();
    barrier += step.barrier;
    if (i >= range.first && i < range.last) {
      b.load_wait += step.load;
      b.compute_overshoot += step.overshoot();
    }
  }
  b.other = timing.total_time - timing.total_compute - b.load_wait - barrier;
  b.measured_steps = timing.measured_steps;
  // Without a measured step the denominator is what the exclusions left over (the loop's own
  // time): points of it would read as AU lost, when no AU was measured.
  if (timing.total_time > 0 && timing.measured_steps > 0) {
    const double to_points = 100.0 / timing.total_time;
    b.load_points = b.load_wait * to_points;
    b.barrier_skew_points = b.barrier_skew * to_points;
    b.barrier_latency_points = b.barrier_latency * to_points;
    b.other_points = b.other * to_points;
  }
  return b;
}

StepBreakdown BreakDownEpoch(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                             Exclusion exclusion) {
  StepBreakdown sum;
  std::uint64_t steps = 0;
  for (const BlockRecord& block : epoch.blocks) {
    const StepBreakdown b = BreakDownBlock(block, steps_per_epoch, exclusion);
    for (Seconds StepBreakdown::*field : kBreakdownSeconds) sum.*field += b.*field;
    sum.measured_steps += b.measured_steps;
    if (b.measured_steps == 0) continue;  // no AU measured, so none lost
    const auto weight = static_cast<double>(block.steps.size());
    for (double StepBreakdown::*field : kBreakdownPoints) sum.*field += b.*field * weight;
    steps += block.steps.size();
  }
  if (steps > 0) {
    for (double StepBreakdown::*field : kBreakdownPoints) sum.*field /= static_cast<double>(steps);
  }
  return sum;
}

StepBreakdown MeanOf(const std::vector<StepBreakdown>& values) {
  StepBreakdown mean;
  if (values.empty()) return mean;
  const auto n = static_cast<double>(values.size());
  for (const StepBreakdown& value : values) {
    mean.measured_steps += value.measured_steps;
    for (Seconds StepBreakdown::*field : kBreakdownSeconds) mean.*field += value.*field / n;
    for (double StepBreakdown::*field : kBreakdownPoints) mean.*field += value.*field / n;
  }
  return mean;
}

}  // namespace dlbench::metrics
