// `dlbench report RUN_DIR...`: one self-contained HTML file about the runs, with `compare`'s table
// when two sets are given. Not a parallel command: it reads result files only.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>

#include "app/commands.h"
#include "compare/comparison.h"
#include "compare/comparison_format.h"
#include "compare/run_set.h"
#include "report/html_report.h"
#include "report/sweep_report.h"
#include "sweep/sweep_file.h"
#include "util/sink.h"
#include "workflow/run_results.h"

namespace dlbench::app {
namespace {

// With two arguments, `dlbench compare FIRST SECOND`'s table (default tolerance); nothing when
// they ran different workloads or have no headline metric in common.
std::string Comparison(const std::vector<compare::RunSet>& sets) {
  if (sets.size() != 2) return "";
  compare::CompareSettings settings;
  settings.metrics = compare::HeadlineMetrics();
  try {
    const compare::Comparison comparison = compare::Compare(sets[0], sets[1], settings);
    if (comparison.rows.empty()) return "";
    return compare::FormatComparison(comparison, sets[0], sets[1], compare::Format::kTerminal);
  } catch (const Error& error) {
    if (error.code() != ExitCode::kUsage) throw;
    return "not compared: " + std::string(error.what());
  }
}

}  // namespace

void AddReportCommand(CLI::App& app, CommandAction& action) {
  struct Options {
    std::vector<std::string> runs;
    std::string output = "report.html";
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "report", "Write one self-contained HTML file with charts of the runs (no network needed)");
  command
      ->add_option("runs", options->runs,
                   "Run folders, summary.json files, folders of runs or globs (one column each), "
                   "or one sweep's folder (sweep.json)")
      ->required();
  command->add_option("--output,-o", options->output, "HTML file to write (default report.html)");
  command->callback([options, &action] {
    action.run = [options](const mpi::Communicator&) {
      // A sweep's folder (sweep.json): its own page, AU and throughput against what it swept.
      const std::filesystem::path sweep_file =
          std::filesystem::path(options->runs.front()) / sweep::SweepFile::kName;
      if (options->runs.size() == 1 && std::filesystem::is_regular_file(sweep_file)) {
        workflow::WriteFileAtomically(options->output,
                                      report::BuildSweepReport(sweep::SweepFile::Load(sweep_file)));
        sink::Result("dlbench: report of the sweep in " + options->runs.front() + " written to " +
                     options->output + "\n");
        return 0;
      }
      std::vector<compare::RunSet> sets;
      std::vector<compare::Run> runs;
      for (const std::string& argument : options->runs) {
        sets.push_back(compare::LoadRunSet(argument));
        runs.insert(runs.end(), sets.back().runs.begin(), sets.back().runs.end());
      }
      workflow::WriteFileAtomically(options->output,
                                    report::BuildHtmlReport(runs, Comparison(sets)));
      sink::Result("dlbench: report of " + std::to_string(runs.size()) + " run(s) written to " +
                   options->output + "\n");
      return 0;
    };
  });
}

}  // namespace dlbench::app
