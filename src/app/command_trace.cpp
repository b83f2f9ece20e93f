// `dlbench trace summary RUN_DIR [--json]`: per event name, the time split, bandwidth per second
// and the POSIX counters of a run folder (docs/counters.md). Not a parallel command: it reads
// files.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "app/commands.h"
#include "compare/run_set.h"
#include "insights/insights.h"
#include "trace_summary/summary_format.h"
#include "trace_summary/trace_summary.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

struct TraceSummaryOptions {
  std::string folder;
  bool json = false;
};

// The run's findings (docs/insights.md) from the folder's summary.json, all severities; "" when
// the folder has no summary.json. One that cannot be read gets a note, not a failure: the
// traces and counters were summarised.
std::string RunInsightsText(const std::string& folder) {
  const std::filesystem::path file = std::filesystem::path(folder) / file_names::kSummary;
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return "";
  try {
    const std::vector<insights::Finding> findings =
        insights::FindingsOf(compare::ReadJsonObject(file.string()));
    if (findings.empty()) return "\nInsights: none (no rule fired; docs/insights.md)\n";
    return "\n" + insights::TerminalLines(findings, insights::Severity::kInfo);
  } catch (const Error& e) {
    sink::Note(std::string("trace summary: no insights: ") + e.what());
    return "";
  }
}

int RunTraceSummary(const TraceSummaryOptions& options) {
  // A run's summary.json or trace given instead of its folder was an I/O error (exit 3) "list
  // X: Not a directory"; it is a usage error naming what to give.
  std::error_code error;
  if (std::filesystem::is_regular_file(options.folder, error)) {
    throw UsageError("trace summary: " + options.folder +
                     " is a file; give the run folder that holds it (" +
                     std::filesystem::path(options.folder).parent_path().string() + ")");
  }
  const trace_summary::TraceSummary summary =
      trace_summary::SummarizeRun(storage::PosixEnv(), options.folder);
  // On stderr in both forms (docs/cli.md, Messages): in the text it went to stdout without the
  // `dlbench: ` prefix, so `trace summary RUN > summary.txt` hid that a trace was cut.
  for (const std::string& warning : summary.warnings) sink::Warning(warning);
  const std::string text =
      options.json ? trace_summary::FormatJson(summary) : trace_summary::FormatText(summary);
  sink::Result(text);
  if (!options.json) sink::Result(RunInsightsText(options.folder));
  return 0;
}

}  // namespace

void AddTraceCommand(CLI::App& app, CommandAction& action) {
  CLI::App* trace = app.add_subcommand("trace", "Work with a run's traces and I/O counters");
  trace->require_subcommand(1);
  auto options = std::make_shared<TraceSummaryOptions>();
  CLI::App* summary = trace->add_subcommand(
      "summary",
      "Per event: count, sizes, time; compute/I/O split; bandwidth per second; POSIX counters");
  summary->add_option("run_dir", options->folder, "A run's output folder")->required();
  summary->add_flag("--json", options->json, "Print JSON instead of tables");
  summary->callback([options, &action] {
    action.parallelism = Parallelism::kLocal;
    action.run = [options](const mpi::Communicator&) { return RunTraceSummary(*options); };
  });
}

}  // namespace dlbench::app
