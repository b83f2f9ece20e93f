// Accelerator utilisation (AU) exactly as DLIO computes it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/step_record.h"

namespace dlbench::metrics {

// output.metric.exclude_start_steps / exclude_end_steps.
struct Exclusion {
  int start_steps = 1;
  int end_steps = 0;
};

// The half-open range [first, last) of a block's step list whose compute is counted. DLIO takes
// i0 = a and i1 = K - 1 - e from the epoch's K (not the block's length) and slices each block's
// list with them; the range is clamped to the block (DLIO's Python slices would wrap a negative
// i1 around; dlbench clamps instead, which only matters when e > K).
struct StepRange {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t size() const { return last > first ? last - first : 0; }
};
StepRange MeasuredSteps(std::size_t block_steps, std::uint64_t steps_per_epoch,
                        Exclusion exclusion);

// The two sums DLIO's AU and throughput are made of, for one block of one rank.
struct BlockTiming {
  Seconds total_compute = 0;           // sum of compute over the measured steps
  Seconds total_time = 0;              // block wall time minus proc of the steps outside the range
  std::uint64_t recorded_steps = 0;    // steps in the block (DLIO's len(proc))
  std::uint64_t measured_steps = 0;    // steps inside the range
  std::uint64_t measured_samples = 0;  // samples of those steps
};

// Throws dlbench::Error (internal) when the record is inconsistent: compute counted but no time
// left in the denominator, or a block that ends before it starts.
BlockTiming MeasureBlock(const BlockRecord& block, std::uint64_t steps_per_epoch,
                         Exclusion exclusion);

// 100 * total_compute / total_time; 0 when total_compute is 0 (as DLIO).
double AuPercent(const BlockTiming& timing);

// One rank's AU for an epoch: DLIO's step-weighted mean over the epoch's training blocks
// (weights = recorded steps; 0 when no block recorded a step).
double EpochAuPercent(const EpochRecord& epoch, std::uint64_t steps_per_epoch, Exclusion exclusion);

}  // namespace dlbench::metrics
