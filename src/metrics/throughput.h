// Samples per second (DLIO's value and dlbench's exact one) and byte rates with exact units.
#pragma once

#include <cstdint>
#include <optional>

#include "metrics/au.h"
#include "metrics/step_record.h"
#include "util/units.h"

namespace dlbench::metrics {

// DLIO's block throughput: (recorded steps - 2) * batch / total_time. The "-2" is hard-coded in
// DLIO whatever the exclusions are; reproduced for the compatibility field
// only. 0 when total_time is not positive (DLIO would divide by zero) and for a block of at most
// 2 steps (DLIO's value is 0 at 2 steps and negative at 1, which no reader can take for a rate).
double DlioBlockSamplesPerSecond(const BlockTiming& timing, std::uint64_t batch_size);

// dlbench's block throughput: samples of exactly the steps whose compute is in AU's numerator
// over the same total_time. nullopt when total_time is not positive or no step is measured (the
// exclusions cover the block: the time left is the loop's own, not a window of steps).
std::optional<double> ExactBlockSamplesPerSecond(const BlockTiming& timing);

// One rank's training throughput for an epoch.
struct EpochThroughput {
  double dlio_samples_per_second = 0;  // DLIO: step-weighted mean of block values (0 if no steps)
  // dlbench: sum of measured samples / sum of total_time over the blocks with measured steps;
  // nullopt when no block has one.
  std::optional<double> exact_samples_per_second;
};
EpochThroughput EpochTrainThroughput(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                                     Exclusion exclusion, std::uint64_t batch_size);

// One rank's evaluation block: AU as training (with K_eval), throughput over the whole block
// without exclusions (DLIO: recorded steps * batch_eval / wall; dlbench: samples / wall).
struct EvalResult {
  double au_percent = 0;
  double dlio_samples_per_second = 0;
  std::optional<double> exact_samples_per_second;
};
EvalResult MeasureEval(const BlockRecord& eval, std::uint64_t eval_steps_per_epoch,
                       Exclusion exclusion, std::uint64_t eval_batch_size);

// Byte rates, named for their unit. nullopt when `seconds` is not positive.
std::optional<double> MiBPerSecond(Bytes bytes, Seconds seconds);  // 2^20 bytes per second
std::optional<double> GBPerSecond(Bytes bytes, Seconds seconds);   // 10^9 bytes per second
std::optional<double> GiBPerSecond(Bytes bytes, Seconds seconds);  // 2^30 bytes per second

// DLIO's "MB/s": samples/s * nominal record length / 2^20 (MiB/s from the nominal sample size,
// not the bytes read). Kept for the train_io_* / eval_io_* compatibility fields.
double NominalMiBPerSecond(double samples_per_second, double record_length_bytes);

}  // namespace dlbench::metrics
