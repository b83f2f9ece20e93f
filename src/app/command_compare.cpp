// `dlbench compare BASELINE CURRENT`: the statistical comparison of two sets of runs that a
// storage system's CI fails on (docs/ci.md). Not a parallel command: it reads result files only.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>

#include "app/commands.h"
#include "compare/comparison.h"
#include "compare/comparison_format.h"
#include "compare/run_set.h"
#include "insights/insights.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

struct CompareOptions {
  std::string baseline;
  std::string current;
  std::string tolerance;
  std::string tolerance_file;
  std::vector<std::string> metrics;
  double alpha = 0.05;
  std::string format = "terminal";
  bool force = false;
};

// A run's summary.json `start`, a timestamp that sorts as text; "" when it has none.
std::string StartOf(const metrics::Json& summary) {
  const metrics::Json* start = compare::FindPath(summary, "start");
  return start != nullptr && start->is_string() ? start->get<std::string>() : "";
}

// The findings of a set, its runs in the order they ran (those across runs need it).
std::vector<insights::Finding> SetFindings(const compare::RunSet& set) {
  std::vector<metrics::Json> summaries;
  for (const compare::Run& run : set.runs) summaries.push_back(run.summary);
  std::stable_sort(
      summaries.begin(), summaries.end(),
      [](const metrics::Json& a, const metrics::Json& b) { return StartOf(a) < StartOf(b); });
  return insights::SetFindings(summaries);
}

int RunCompare(const CompareOptions& options) {
  compare::CompareSettings settings;
  settings.metrics = compare::HeadlineMetrics();
  settings.alpha = options.alpha;
  settings.force = options.force;
  if (!options.tolerance.empty()) {
    settings.tolerance = compare::ParseTolerance(options.tolerance, "--tolerance");
  }
  if (!options.tolerance_file.empty()) {
    compare::ApplyToleranceFile(options.tolerance_file, settings, !options.tolerance.empty());
  }
  for (const std::string& metric : options.metrics) {
    compare::AddOrUpdate(settings, compare::NamedMetric(metric));
  }
  const compare::RunSet baseline = compare::LoadRunSet(options.baseline);
  const compare::RunSet current = compare::LoadRunSet(options.current);
  const compare::Comparison comparison = compare::Compare(baseline, current, settings);
  for (const std::string& note : compare::OneSidedNotes(comparison)) sink::Note(note);
  const compare::Format format = options.format == "json"       ? compare::Format::kJson
                                 : options.format == "markdown" ? compare::Format::kMarkdown
                                                                : compare::Format::kTerminal;
  sink::Result(compare::FormatComparison(comparison, baseline, current, format));
  // The findings (docs/insights.md) that one side has and the other not; beside the JSON, a note.
  const std::string changes =
      insights::DifferencesLine(SetFindings(baseline), SetFindings(current), "baseline", "current");
  if (!changes.empty()) {
    if (format == compare::Format::kJson) {
      sink::Note(changes.substr(0, changes.size() - 1));
    } else {
      sink::Result((format == compare::Format::kMarkdown ? "\n" : "") + changes);
    }
  }
  return static_cast<int>(comparison.regression() ? ExitCode::kRegression : ExitCode::kOk);
}

}  // namespace

void AddCompareCommand(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare two sets of runs (baseline, current) metric by metric; exit 4 on a regression");
  command
      ->add_option("baseline", options->baseline,
                   "Run folder, summary.json, folder of runs (dlbench run --repeat) or a glob")
      ->required();
  command->add_option("current", options->current, "The same, for the runs to check")->required();
  command->add_option("--tolerance", options->tolerance,
                      "Change in the bad direction still accepted, e.g. 10% (default 10%)");
  command->add_option("--tolerances", options->tolerance_file,
                      "YAML file of per-metric tolerances and directions (docs/ci.md)");
  command->add_option("--metric", options->metrics,
                      "Also compare this summary.json path, e.g. "
                      "metric.train_batch_wait_p99_seconds[:lower] (repeatable)");
  command->add_option("--alpha", options->alpha, "Significance level of the rank test")
      ->check(CLI::Range(1e-6, 0.5));
  command->add_option("--format", options->format, "terminal, markdown or json")
      ->check(CLI::IsMember({"terminal", "markdown", "json"}));
  command->add_flag("--force", options->force, "Compare even if the workloads differ");
  command->callback([options, &action] {
    action.run = [options](const mpi::Communicator&) { return RunCompare(*options); };
  });
}

}  // namespace dlbench::app
