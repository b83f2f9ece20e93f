#include "metrics/throughput.h"

namespace dlbench::metrics {

double DlioBlockSamplesPerSecond(const BlockTiming& timing, std::uint64_t batch_size) {
  if (timing.total_time <= 0) return 0.0;
  // A block of one step would give DLIO's formula a negative rate: no batch is counted.
  if (timing.recorded_steps <= 2) return 0.0;
  const double steps = static_cast<double>(timing.recorded_steps) - 2.0;
  return steps * static_cast<double>(batch_size) / timing.total_time;
}

std::optional<double> ExactBlockSamplesPerSecond(const BlockTiming& timing) {
  if (timing.total_time <= 0 || timing.measured_steps == 0) return std::nullopt;
  return static_cast<double>(timing.measured_samples) / timing.total_time;
}

EpochThroughput EpochTrainThroughput(const EpochRecord& epoch, std::uint64_t steps_per_epoch,
                                     Exclusion exclusion, std::uint64_t batch_size) {
  double weighted = 0;
  std::uint64_t steps = 0;
  std::uint64_t samples = 0;
  Seconds time = 0;
  for (const BlockRecord& block : epoch.blocks) {
    const BlockTiming timing = MeasureBlock(block, steps_per_epoch, exclusion);
    weighted +=
        DlioBlockSamplesPerSecond(timing, batch_size) * static_cast<double>(timing.recorded_steps);
    steps += timing.recorded_steps;
    if (timing.total_time > 0 && timing.measured_steps > 0) {
      samples += timing.measured_samples;
      time += timing.total_time;
    }
  }
  EpochThroughput result;
  result.dlio_samples_per_second = steps == 0 ? 0.0 : weighted / static_cast<double>(steps);
  if (time > 0) result.exact_samples_per_second = static_cast<double>(samples) / time;
  return result;
}

EvalResult MeasureEval(const BlockRecord& eval, std::uint64_t eval_steps_per_epoch,
                       Exclusion exclusion, std::uint64_t eval_batch_size) {
  const BlockTiming timing = MeasureBlock(eval, eval_steps_per_epoch, exclusion);
  EvalResult result;
  result.au_percent = AuPercent(timing);
  const Seconds wall = eval.end - eval.start;
  if (wall > 0) {
    std::uint64_t samples = 0;
    for (const StepRecord& step : eval.steps) samples += step.samples;
    result.dlio_samples_per_second =
        static_cast<double>(timing.recorded_steps) * static_cast<double>(eval_batch_size) / wall;
    result.exact_samples_per_second = static_cast<double>(samples) / wall;
  }
  return result;
}

namespace {
std::optional<double> Rate(Bytes bytes, Seconds seconds, double unit) {
  if (!(seconds > 0)) return std::nullopt;
  return static_cast<double>(bytes) / unit / seconds;
}
}  // namespace

std::optional<double> MiBPerSecond(Bytes bytes, Seconds seconds) {
  return Rate(bytes, seconds, static_cast<double>(MiB));
}
std::optional<double> GBPerSecond(Bytes bytes, Seconds seconds) {
  return Rate(bytes, seconds, 1e9);
}
std::optional<double> GiBPerSecond(Bytes bytes, Seconds seconds) {
  return Rate(bytes, seconds, static_cast<double>(GiB));
}

double NominalMiBPerSecond(double samples_per_second, double record_length_bytes) {
  return samples_per_second * record_length_bytes / static_cast<double>(MiB);
}

}  // namespace dlbench::metrics
