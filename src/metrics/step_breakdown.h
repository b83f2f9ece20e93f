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
  // AU points lost to each term, 100 · term / total_time per block, step-weighted over blocks as
  // AU is, so that AU + the four add up to 100 (for blocks with measured compute).
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

// An epoch's training blocks: seconds summed, points weighted by recorded steps (as
// EpochAuPercent; all 0 when no block recorded a step).
StepBreakdown BreakDownEpoch(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                             Exclusion exclusion);

// Field by field mean (the reduction over ranks, as AU's); all 0 for an empty vector.
StepBreakdown MeanOf(const std::vector<StepBreakdown>& values);

}  // namespace dlbench::metrics
