// What every workload-taking subcommand accepts, gathered in one place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/phase.h"

namespace CLI {
class App;
}

namespace dlbench::app {

struct WorkloadOptions {
  std::string workload;
  std::vector<std::string> overrides;
  std::vector<std::string> config_dirs;
  std::optional<std::string> output;
  bool allow_unknown_keys = false;
  bool quiet = false;
  bool progress = false;
  bool trace = false;  // --trace: workflow.profiling on (the built-in trace, docs/tracing.md)
  bool force = false;  // --force: write into folders dlbench did not make (workflow/folder_claim.h)
  // --op-log FILE: storage.storage_options.op_log (app/storage_backends.h).
  std::optional<std::string> op_log;
  // Rank count the configuration is validated for; unset: the job's size.
  std::optional<int> world_size;
  // The one phase the command runs whatever the workflow says (`dlbench stage`): the rules of
  // the phases that run are checked at load (config::LoadOptions::forced). Unset: `run`.
  std::optional<config::Phase> forced;
};

// Adds WORKLOAD, OVERRIDES..., --config-dir, --allow-unknown-keys to `command`; with
// `with_output`, also --output, --quiet, --progress, --trace, --force and --op-log.
void AddWorkloadOptions(CLI::App& command, WorkloadOptions& options, bool with_output);

// Adds --ranks,-n N (N >= 1; `ranks` stays 0 when not given) to a command that works for a job
// size without starting one (`checkpoint plan`, `config show`, `config query`).
void AddRanksOption(CLI::App& command, int& ranks, const std::string& what);

}  // namespace dlbench::app
