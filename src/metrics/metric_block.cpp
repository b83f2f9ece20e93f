// DLIO's closing "[METRIC]" message, built from the same values as
// summary.json so that the two can never disagree.
#include <cstdio>
#include <string>

#include "metrics/summary.h"

namespace dlbench::metrics {
namespace {

constexpr const char* kSeparator =
    "[METRIC] ==========================================================\n";

std::string Fixed(const Json& metric, const std::string& key, int decimals) {
  if (!metric.contains(key)) return "n/a";  // a non-finite value was left out of the summary
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, metric[key].get<double>());
  return text;
}

// "[METRIC] <label>: mean (stdev)\n"
std::string MeanLine(const Json& metric, const std::string& label, const std::string& mean_key,
                     const std::string& stdev_key, int decimals) {
  return "[METRIC] " + label + ": " + Fixed(metric, mean_key, decimals) + " (" +
         Fixed(metric, stdev_key, decimals) + ")\n";
}

// An epoch whose exclusions (output.metric.exclude_start_steps / exclude_end_steps) covered every
// step measured no AU: DLIO's 0 above it stays for its tools, this line says it is no measurement.
std::string UnmeasuredLine(const Json& metric, const std::string& p) {
  const std::string key = p + "_au_measured_steps";
  if (!metric.contains(key)) return "";
  for (const Json& steps : metric[key]) {
    if (steps.get<std::uint64_t>() == 0) {
      return "[METRIC] " + key +
             ": an epoch measured no step (the exclusions cover all its steps): its AU is not "
             "a measurement\n";
    }
  }
  return "";
}

}  // namespace

std::string MetricBlock(const RunMetrics& run) {
  const Json summary = BuildSummary(run);
  const Json& m = summary["metric"];
  std::string text = "Averaged metric over all steps/epochs\n";
  text += kSeparator;
  // DLIO's line has a space before the newline; scripts that match whole lines see it.
  text +=
      "[METRIC] Number of Simulated Accelerators: " + std::to_string(run.info.num_accelerators) +
      " \n";
  if (m.contains("train_au_percentage")) {
    text += MeanLine(m, "Training Accelerator Utilization [AU] (%)", "train_au_mean_percentage",
                     "train_au_stdev_percentage", 4);
    text += UnmeasuredLine(m, "train");
    text += MeanLine(m, "Training Throughput (samples/second)",
                     "train_throughput_mean_samples_per_second",
                     "train_throughput_stdev_samples_per_second", 4);
    text += MeanLine(m, "Training I/O Throughput (MB/second)", "train_io_mean_MB_per_second",
                     "train_io_stdev_MB_per_second", 4);
    text +=
        "[METRIC] train_au_meet_expectation: " + m["train_au_meet_expectation"].get<std::string>() +
        "\n";
  }
  if (run.checkpoint && !run.checkpoint->saves.empty()) {
    text +=
        MeanLine(m, "Checkpoint save duration (seconds)", "save_checkpoint_duration_mean_seconds",
                 "save_checkpoint_duration_stdev_seconds", 4);
    text += MeanLine(m, "Checkpoint save I/O Throughput (GB/second)",
                     "save_checkpoint_io_mean_GB_per_second",
                     "save_checkpoint_io_stdev_GB_per_second", 4);
  }
  if (run.checkpoint && !run.checkpoint->loads.empty()) {
    text +=
        MeanLine(m, "Checkpoint load duration (seconds)", "load_checkpoint_duration_mean_seconds",
                 "load_checkpoint_duration_stdev_seconds", 4);
    text += MeanLine(m, "Checkpoint load I/O Throughput (GB/second)",
                     "load_checkpoint_io_mean_GB_per_second",
                     "load_checkpoint_io_stdev_GB_per_second", 4);
  }
  if (m.contains("eval_au_percentage")) {
    text += MeanLine(m, "Eval Accelerator Utilization [AU] (%)", "eval_au_mean_percentage",
                     "eval_au_stdev_percentage", 4);
    text += UnmeasuredLine(m, "eval");
    text +=
        MeanLine(m, "Eval Throughput (samples/second)", "eval_throughput_mean_samples_per_second",
                 "eval_throughput_stdev_samples_per_second", 6);
    text += MeanLine(m, "Eval Throughput (MB/second)", "eval_io_mean_MB_per_second",
                     "eval_io_stdev_MB_per_second", 6);
    text +=
        "[METRIC] eval_au_meet_expectation: " + m["eval_au_meet_expectation"].get<std::string>() +
        "\n";
  }
  text += kSeparator;
  return text;
}

}  // namespace dlbench::metrics
