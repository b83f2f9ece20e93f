// One point of a sweep: a grid point at a number of accelerators, run `--repeat` times, and its
// verdict against the workload's AU threshold (metric.au, as DLIO's train_au_meet_expectation).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sweep/grid.h"

namespace dlbench::sweep {

using Json = nlohmann::ordered_json;

// One run of a point, as its summary.json (or its failure) tells.
struct RunOutcome {
  std::string folder;  // relative to the sweep folder
  int exit_code = 0;
  std::string error;  // why the run failed (exit_code != 0)
  // metric.train_au_mean_percentage; unset when the run failed or measured no step (an epoch
  // whose metric.train_au_measured_steps is 0: its AU would read 0 %).
  std::optional<double> au_percent;
  double samples_per_second = 0;   // metric.train_throughput_mean_samples_per_second (DLIO's)
  double read_MiB_per_second = 0;  // metric.train_read_MiB_per_second (bytes actually read)
};

// The run's outcome from its summary.json: Error(kIo) naming the file when the summary has no
// training metrics (metric.train_au_mean_percentage).
RunOutcome RunOutcomeFromSummary(const Json& summary, const std::string& folder,
                                 const std::string& summary_path);

enum class Verdict {
  kPass,        // median AU >= threshold
  kFail,        // median AU < threshold
  kUnmeasured,  // a run measured no step: no AU to judge
  kError,       // a run exited with an error
};
const char* VerdictName(Verdict verdict);
// Throws Error(kUsage) for a name VerdictName does not give.
Verdict VerdictFromName(const std::string& name);

struct PointResult {
  GridPoint grid;
  int accelerators = 0;  // per host
  std::string folder;    // relative to the sweep folder
  std::vector<RunOutcome> runs;
  Verdict verdict = Verdict::kError;
  // Over the runs (set when every run measured AU): median, lowest and highest.
  std::optional<double> au_median_percent, au_min_percent, au_max_percent;
  double samples_per_second = 0;   // median over the runs that succeeded
  double read_MiB_per_second = 0;  // median over the runs that succeeded
  std::string error;               // the first failed run's error
};

// Summarises `point.runs` into its medians, spread and verdict against `threshold_percent`.
void Judge(PointResult& point, double threshold_percent);

// The median (mean of the two middle values for an even count); 0 for none.
double Median(std::vector<double> values);

Json PointToJson(const PointResult& point);
// Throws Error(kUsage) naming the field for a point that is not what PointToJson writes.
PointResult PointFromJson(const Json& json);

}  // namespace dlbench::sweep
