// `dlbench report RUN_DIR...`: one self-contained HTML file about the runs. Not a parallel
// command: it reads result files only.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "app/commands.h"
#include "compare/run_set.h"
#include "report/html_report.h"
#include "workflow/run_results.h"

namespace dlbench::app {

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
                   "Run folders, summary.json files, folders of runs or globs (one column each)")
      ->required();
  command->add_option("--output,-o", options->output, "HTML file to write (default report.html)");
  command->callback([options, &action] {
    action = [options] {
      std::vector<compare::Run> runs;
      for (const std::string& argument : options->runs) {
        for (compare::Run& run : compare::LoadRunSet(argument).runs) runs.push_back(std::move(run));
      }
      workflow::WriteFileAtomically(options->output, report::BuildHtmlReport(runs));
      std::printf("dlbench: report of %zu run(s) written to %s\n", runs.size(),
                  options->output.c_str());
      return 0;
    };
  });
}

}  // namespace dlbench::app
