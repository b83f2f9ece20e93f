// Where a rank's block time went besides the measured compute, per epoch: the terms that moved
// AU (docs/metrics.md §2.1). DLIO's denominator of each block splits exactly into
//   Σ compute + Σ load (both of the measured steps) + Σ barrier (all steps) + other,
// so that a user can tell the storage's share (the load waits) from what the emulation and the
// other ranks cost (compute overshoot, barrier waits, the loop's own time).
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/au.h"
#include "metrics/step_record.h"

namespace dlbench::metrics {

struct StepBreakdown {
  // Seconds, summed over the epoch's blocks.
  Seconds first_batch_wait = 0;   // load of each block's first step (with the default
                                  // exclude_start_steps = 1 outside AU, as DLIO's warm-up)
  Seconds load_wait = 0;          // load of the measured steps: the storage's share of AU
  Seconds compute_overshoot = 0;  // measured minus asked compute of the measured steps (counted
                                  // as compute by AU; makes the other ranks wait)
  Seconds barrier_skew = 0;       // barrier of every step: waiting for the last rank to arrive
  Seconds barrier_latency = 0;    // barrier of every step: after the last rank arrived
  Seconds other = 0;              // the rest of total_time: the loop's own time between steps
  // Steps whose compute AU counts (output.metric.exclude_*_steps left them in), summed over the
  // epoch's blocks and, in the reduction over ranks, over ranks. 0: AU measured nothing (an
  // epoch of one step with the default exclude_start_steps: 1).
  std::uint64_t measured_steps = 0;
  // AU points lost to each term, 100 · term / total_time per block, step-weighted over the blocks
  // with measured steps as AU is, so that AU + the four add up to 100 (for blocks with measured
  // compute); all 0 in a block without a measured step, whose time is only what the exclusions
  // left over.
  double load_points = 0;
  double barrier_skew_points = 0;
  double barrier_latency_points = 0;
  double other_points = 0;
};

// The fields, for code that treats them alike (sums, means over ranks, encoding).
inline constexpr Seconds StepBreakdown::*kBreakdownSeconds[] = {
    &StepBreakdown::first_batch_wait,  &StepBreakdown::load_wait,
    &StepBreakdown::compute_overshoot, &StepBreakdown::barrier_skew,
    &StepBreakdown::barrier_latency,   &StepBreakdown::other};
inline constexpr double StepBreakdown::*kBreakdownPoints[] = {
    &StepBreakdown::load_points, &StepBreakdown::barrier_skew_points,
    &StepBreakdown::barrier_latency_points, &StepBreakdown::other_points};

// One block. Throws as MeasureBlock for an inconsistent record.
StepBreakdown BreakDownBlock(const BlockRecord& block, std::uint64_t steps_per_epoch,
                             Exclusion exclusion);

// An epoch's training blocks: seconds and measured steps summed, points weighted by recorded steps
// over the blocks with a measured step (all 0 when none has one).
StepBreakdown BreakDownEpoch(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                             Exclusion exclusion);

// Field by field mean (the reduction over ranks, as AU's), except measured_steps: summed; all 0
// for an empty vector.
StepBreakdown MeanOf(const std::vector<StepBreakdown>& values);

}  // namespace dlbench::metrics
