#include "compare/aggregate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "compare/metric_spec.h"
#include "compare/unmeasured.h"
#include "metrics/percentiles.h"
#include "metrics/statistics.h"
#include "util/error.h"

namespace dlbench::compare {
namespace {

bool IsNumberList(const metrics::Json& node) {
  return node.is_array() && !node.empty() &&
         std::all_of(node.begin(), node.end(),
                     [](const metrics::Json& v) { return v.is_number(); });
}

// Every dotted path below `node` that holds a number or a list of numbers.
void NumericPaths(const metrics::Json& node, const std::string& prefix,
                  std::vector<std::string>& paths) {
  if (node.is_number() || IsNumberList(node)) {
    paths.push_back(prefix);
    return;
  }
  if (!node.is_object()) return;
  for (auto it = node.begin(); it != node.end(); ++it) {
    NumericPaths(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), paths);
  }
}

metrics::Json Statistics(std::vector<double> values) {
  metrics::Json entry;
  const metrics::MeanStdev mean_stdev = metrics::PopulationMeanStdev(values);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const double median = metrics::SortedQuantile(sorted, 0.5);
  metrics::SetNumber(entry, "median", median);
  metrics::SetNumber(entry, "min", sorted.front());
  metrics::SetNumber(entry, "max", sorted.back());
  metrics::SetNumber(entry, "mean", mean_stdev.mean);
  metrics::SetNumber(entry, "stdev", mean_stdev.stdev);
  if (median != 0) {
    metrics::SetNumber(entry, "relative_spread",
                       (sorted.back() - sorted.front()) / std::abs(median));
  }
  entry["values"] = values;
  return entry;
}

}  // namespace

metrics::Json AggregateRuns(const RunSet& runs, const std::string& folder) {
  if (runs.runs.empty()) throw InternalError("aggregate of no runs");
  metrics::Json aggregate;
  aggregate["runs"] = metrics::Json::array();
  for (const Run& run : runs.runs) {
    aggregate["runs"].push_back(
        std::filesystem::path(run.source).lexically_relative(folder).string());
  }
  aggregate["count"] = runs.runs.size();
  std::vector<std::string> paths;
  for (const Run& run : runs.runs) CheckComplete(run);
  // run_status (its exit code 0) is not a measurement.
  metrics::Json measured = runs.runs.front().summary;
  measured.erase("run_status");
  NumericPaths(measured, "", paths);
  metrics::Json fields = metrics::Json::object();
  for (const std::string& path : paths) {
    std::vector<double> values;
    for (const Run& run : runs.runs) {
      if (const auto value = MetricValue(run.summary, path, run.source)) values.push_back(*value);
    }
    if (values.size() == runs.runs.size()) fields[path] = Statistics(std::move(values));
  }
  aggregate["metrics"] = std::move(fields);
  // Headline metrics a run holds without having measured them: their entries above average a 0
  // that is no number; the table shows them as n/a with the reason.
  metrics::Json unmeasured = metrics::Json::object();
  for (const MetricSpec& spec : HeadlineMetrics()) {
    for (const Run& run : runs.runs) {
      const std::string reason = UnmeasuredReason(spec, run.summary);
      if (reason.empty()) continue;
      unmeasured[spec.path] = {
          {"reason", reason},
          {"run", std::filesystem::path(run.source).lexically_relative(folder).string()}};
      break;
    }
  }
  aggregate["unmeasured"] = std::move(unmeasured);
  return aggregate;
}

std::string AggregateTable(const metrics::Json& aggregate) {
  const metrics::Json& fields = aggregate["metrics"];
  std::string text = "Over " + aggregate["count"].dump() + " runs (median, min .. max, spread):\n";
  // Aggregates written before hardening3 have no "unmeasured".
  const auto unmeasured_of = [&](const std::string& path) -> const metrics::Json* {
    const auto list = aggregate.find("unmeasured");
    if (list == aggregate.end() || !list->is_object()) return nullptr;
    const auto entry = list->find(path);
    return entry == list->end() ? nullptr : &*entry;
  };
  char line[512];
  const auto row = [&](const std::string& label, const std::string& path) {
    if (!fields.contains(path)) return;
    const metrics::Json& entry = fields[path];
    const double median = entry["median"].get<double>();
    const std::string spread =
        entry.contains("relative_spread")
            ? std::to_string(
                  static_cast<int>(std::lround(entry["relative_spread"].get<double>() * 100))) +
                  "%"
            : "n/a";
    std::snprintf(line, sizeof line, "  %-24s %12.6g   %.6g .. %.6g   %s\n", label.c_str(), median,
                  entry["min"].get<double>(), entry["max"].get<double>(), spread.c_str());
    text += line;
  };
  for (const MetricSpec& spec : HeadlineMetrics()) {
    if (!fields.contains(spec.path)) continue;
    const metrics::Json* note = unmeasured_of(spec.path);
    if (note == nullptr) {
      row(spec.label, spec.path);
      continue;
    }
    // As `compare` does: the reason instead of a median of 0s, then the number that replaces it.
    const std::string run = note->at("run").get<std::string>();
    const std::string reason = note->at("reason").get<std::string>();
    std::snprintf(line, sizeof line, "  %-24s %12s   (%s: %s)\n", spec.label.c_str(), "n/a",
                  run.c_str(), reason.c_str());
    text += line;
    if (!spec.fallback_path.empty()) row(spec.label + " exact", spec.fallback_path);
  }
  return text;
}

}  // namespace dlbench::compare
