#include "compare/metric_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>

#include "util/error.h"

namespace dlbench::compare {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Direction ParseDirection(const std::string& text, const std::string& what) {
  if (text == "higher") return Direction::kHigherIsBetter;
  if (text == "lower") return Direction::kLowerIsBetter;
  throw UsageError(what + ": direction '" + text + "' is neither 'higher' nor 'lower'");
}

}  // namespace

const char* DirectionName(Direction direction) {
  return direction == Direction::kHigherIsBetter ? "higher" : "lower";
}

std::vector<MetricSpec> HeadlineMetrics() {
  // Each metric's whole rule is its entry: which way is better, the phase that measures it, and
  // when a run holds it without having measured it (MetricSpec::unmeasured_when_zero).
  const Direction higher = Direction::kHigherIsBetter;
  const Direction lower = Direction::kLowerIsBetter;
  return {
      {.path = "metric.train_throughput_mean_samples_per_second",
       .label = "train samples/s",
       .direction = higher,
       .phase = "train",
       // DLIO's (steps - 2) * batch rate is 0 in every epoch whose blocks have at most 2 steps.
       .unmeasured_when_zero = "metric.train_throughput_samples_per_second",
       .unmeasured_reason = "DLIO's rate is 0 for blocks of at most 2 steps ((steps - 2) * batch)",
       .fallback_path = "metric.train_throughput_mean_samples_per_second_exact"},
      {.path = "metric.train_au_mean_percentage",
       .label = "train AU %",
       .direction = higher,
       .phase = "train",
       // AU is 0 in an epoch whose steps the exclusions all cover (docs/metrics.md).
       .unmeasured_when_zero = "metric.train_au_measured_steps",
       .unmeasured_reason =
           "no step was measured in an epoch (the exclude_start/end_steps cover all its steps)",
       // Without emulated compute a step is all waiting for data: AU is some 0-10 % set by the
       // per-step overheads, no measure of the storage.
       .meaningless_when_zero = "workload.computation_time",
       .meaningless_reason = "the workload emulates no compute (train.computation_time 0): AU "
                             "then measures no storage"},
      {.path = "metric.train_read_MiB_per_second",
       .label = "train read MiB/s",
       .direction = higher,
       .phase = "train"},
      {.path = "metric.checkpoint_write_GiB_per_second",
       .label = "checkpoint write GiB/s",
       .direction = higher,
       .phase = "checkpoint"},
      {.path = "metric.load_checkpoint_GiB_per_second",
       .label = "checkpoint read GiB/s",
       .direction = higher,
       .phase = "checkpoint"},
      {.path = "metric.checkpoint_stall_mean_seconds",
       .label = "checkpoint stall s",
       .direction = lower,
       .phase = "checkpoint"},
      {.path = "metric.checkpoint_time_to_durable_mean_seconds",
       .label = "time to durable s",
       .direction = lower,
       .phase = "checkpoint"},
      {.path = "generation.total.MiB_per_second",
       .label = "generation MiB/s",
       .direction = higher,
       .phase = "generation",
       // A run that found its whole dataset already there generated nothing: its rate is 0.
       .unmeasured_when_zero = "generation.total.files",
       .unmeasured_reason = "the run generated no file (it kept the dataset it found)"},
  };
}

double ParseTolerance(const std::string& text, const std::string& what) {
  std::string number = text;
  double scale = 1;
  if (!number.empty() && number.back() == '%') {
    number.pop_back();
    scale = 0.01;
  }
  char* end = nullptr;
  const double value = number.empty() ? -1 : std::strtod(number.c_str(), &end) * scale;
  if (number.empty() || end == nullptr || *end != '\0' || !(value >= 0) || !(value < 1)) {
    throw UsageError(what + ": tolerance '" + text +
                     "' is not a relative change like 10% or 0.1 (from 0 to below 100%)");
  }
  return value;
}

MetricSpec NamedMetric(const std::string& argument) {
  MetricSpec spec;
  spec.path = argument;
  spec.required = true;
  const std::size_t colon = argument.rfind(':');
  if (colon != std::string::npos) {
    spec.path = argument.substr(0, colon);
    spec.direction = ParseDirection(argument.substr(colon + 1), "--metric " + argument);
  } else {
    spec.direction =
        EndsWith(argument, "_seconds") ? Direction::kLowerIsBetter : Direction::kHigherIsBetter;
  }
  if (spec.path.empty() || spec.path.front() == '.' || spec.path.back() == '.') {
    throw UsageError("--metric " + argument +
                     ": expected a dotted path in summary.json such as "
                     "metric.train_batch_wait_p99_seconds");
  }
  spec.label = spec.path;
  return spec;
}

void AddOrUpdate(CompareSettings& settings, const MetricSpec& spec) {
  const auto it = std::find_if(settings.metrics.begin(), settings.metrics.end(),
                               [&](const MetricSpec& m) { return m.path == spec.path; });
  if (it == settings.metrics.end()) {
    settings.metrics.push_back(spec);
    return;
  }
  it->direction = spec.direction;
  if (spec.tolerance) it->tolerance = spec.tolerance;
  it->required = it->required || spec.required;
}

void ApplyToleranceFile(const std::string& path, CompareSettings& settings,
                        bool cli_tolerance_given) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw UsageError("tolerance file " + path + " cannot be read");
  } catch (const YAML::Exception& error) {
    throw UsageError("tolerance file " + path + ": " + error.what());
  }
  if (!root.IsMap()) throw UsageError("tolerance file " + path + ": expected a mapping");
  const auto scalar = [&](const YAML::Node& node, const std::string& key) {
    if (!node.IsScalar()) throw UsageError(path + ": " + key + " must be a single value");
    return node.as<std::string>();
  };
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    if (key == "tolerance") {
      const double tolerance = ParseTolerance(scalar(value, key), path + ": tolerance");
      if (!cli_tolerance_given) settings.tolerance = tolerance;
    } else if (key == "alpha") {
      const double alpha = std::strtod(scalar(value, key).c_str(), nullptr);
      if (!(alpha > 0 && alpha < 1)) throw UsageError(path + ": alpha must be in (0, 1)");
      settings.alpha = alpha;
    } else if (key == "metrics") {
      if (!value.IsMap()) throw UsageError(path + ": metrics must map paths to tolerances");
      for (const auto& metric : value) {
        const std::string name = metric.first.as<std::string>();
        const std::string where = path + ": metrics." + name;
        const auto headlines = HeadlineMetrics();
        const auto headline = std::find_if(headlines.begin(), headlines.end(),
                                           [&](const MetricSpec& m) { return m.path == name; });
        MetricSpec spec = headline != headlines.end() ? *headline : NamedMetric(name);
        if (metric.second.IsMap()) {
          for (const auto& field : metric.second) {
            const std::string field_name = field.first.as<std::string>();
            if (field_name == "tolerance") {
              spec.tolerance = ParseTolerance(scalar(field.second, where), where);
            } else if (field_name == "direction") {
              spec.direction = ParseDirection(scalar(field.second, where), where);
            } else {
              throw UsageError(where + ": unknown key '" + field_name +
                               "' (expected tolerance or direction)");
            }
          }
        } else {
          spec.tolerance = ParseTolerance(scalar(metric.second, where), where);
        }
        AddOrUpdate(settings, spec);
      }
    } else {
      throw UsageError("tolerance file " + path + ": unknown key '" + key +
                       "' (expected tolerance, alpha, metrics)");
    }
  }
}

}  // namespace dlbench::compare
