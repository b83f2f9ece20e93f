// `dlbench trace summary RUN_DIR [--json]`: per event name, the time split, bandwidth per second
// and the POSIX counters of a run folder (docs/counters.md). Not a parallel command: it reads
// files.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "app/commands.h"
#include "trace_summary/summary_format.h"
#include "trace_summary/trace_summary.h"
#include "util/error.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

struct TraceSummaryOptions {
  std::string folder;
  bool json = false;
};

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
