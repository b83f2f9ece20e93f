// Which numbers `dlbench compare` compares, which way is better, and how much worse is tolerated.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dlbench::compare {

enum class Direction { kHigherIsBetter, kLowerIsBetter };

const char* DirectionName(Direction direction);  // "higher" or "lower"

// An aggregate: HeadlineMetrics() declares each headline metric as one designated-initialiser
// entry. The fields an entry may leave out have default member initialisers (GCC's
// -Wmissing-field-initializers warns about omitted fields without one).
struct MetricSpec {
  std::string path;   // dotted path in summary.json, e.g. metric.train_au_mean_percentage
  std::string label;  // what the table shows
  Direction direction = Direction::kHigherIsBetter;
  // Relative change in the bad direction that is tolerated (0.10: 10 % slower is still fine);
  // unset: the comparison's default.
  std::optional<double> tolerance{};
  // Asked for by name: it must be in every run on both sides. Headline metrics that neither side
  // measured (no checkpoint in a training run) are skipped instead, and those only one side
  // measured (a single run that also generated its dataset, against a `--repeat` set that
  // generated it once, outside its runs) are left out with a note.
  bool required = false;
  // The phase that measures it (generation, train, checkpoint), named in that note; empty for a
  // metric asked by name.
  std::string phase{};
  // A headline metric a run can hold without having measured it: when the number at
  // `unmeasured_when_zero` (a dotted path; a list: any of its entries) is 0 in a run, the metric is
  // left out of the comparison with `unmeasured_reason` as the note, as a one-sided one is
  // (DLIO's throughput is 0 for blocks of at most 2 steps; AU is 0 when no step was measured; the
  // generation rate is 0 when the run kept every file it found).
  std::string unmeasured_when_zero{};
  std::string unmeasured_reason{};
  // Left out alike when the number at `meaningless_when_zero` (a workload setting summary.json
  // records) is 0, with `meaningless_reason`: the metric was measured but measures nothing of the
  // storage then (AU without emulated compute: every step is all waiting).
  std::string meaningless_when_zero{};
  std::string meaningless_reason{};
  // Compared in its place when the metric is left out as unmeasured (the exact throughput for
  // DLIO's), so a short run still has that number to fail on; empty: nothing replaces it.
  std::string fallback_path{};
};

struct CompareSettings {
  std::vector<MetricSpec> metrics;
  double tolerance = 0.10;  // default for metrics without their own
  double alpha = 0.05;      // significance level of the rank test
  bool force = false;       // compare even when the two sides ran different workloads

  double tolerance_of(const MetricSpec& spec) const { return spec.tolerance.value_or(tolerance); }
};

// The headline metrics: train samples/s, AU, read rate, checkpoint write and read rates,
// checkpoint stall, time to durable, generation rate (docs/ci.md lists them with their fields).
std::vector<MetricSpec> HeadlineMetrics();

// "10%" -> 0.10, "0.1" -> 0.10. Throws a usage error (exit 2) naming `what` otherwise, or when the
// value is negative or not below 100 %.
double ParseTolerance(const std::string& text, const std::string& what);

// A metric asked for on the command line: PATH, PATH:higher or PATH:lower. Without a direction,
// a name ending in _seconds is lower-is-better and anything else higher-is-better.
MetricSpec NamedMetric(const std::string& argument);

// Adds `spec` to `settings`, or replaces the tolerance/direction of the metric with that path.
void AddOrUpdate(CompareSettings& settings, const MetricSpec& spec);

// Reads a tolerance file:
//   tolerance: 10%            # default for every metric (--tolerance wins over it)
//   alpha: 0.05
//   metrics:
//     metric.train_au_mean_percentage: 5%
//     metric.train_batch_wait_p99_seconds: {tolerance: 30%, direction: lower}
// A metric named there that is not a headline one is compared as if asked by name. Usage error
// (exit 2) naming the file and key for anything it cannot read. `cli_tolerance_given`: the
// command line set the default, which the file's `tolerance` then does not override.
void ApplyToleranceFile(const std::string& path, CompareSettings& settings,
                        bool cli_tolerance_given);

}  // namespace dlbench::compare
