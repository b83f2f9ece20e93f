// Turning a workload name or file plus DLIO-style overrides into a validated Config.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/phase.h"

namespace dlbench::config {

struct LoadOptions {
  // Extra folders searched for WORKLOAD.yaml before the built-in workloads/ folder
  // (like DLIO's --config-dir; DIR/workload/NAME.yaml is also accepted).
  std::vector<std::string> config_dirs;
  // Folder holding dlbench's shipped workloads (found next to the binary or the source tree).
  std::string workloads_dir;
  // Unknown keys become warnings instead of errors.
  bool allow_unknown_keys = false;
  // The number of ranks the run will use: some rules depend on it (world % (TP*PP)).
  int world_size = 1;
  // This process's node name (mpi::NodeName()), which replaces {node} in storage.tiers paths.
  // Empty: a path with {node} is an internal error.
  std::string node;
  // The one phase a command runs whatever the workflow section says (`dlbench generate`, `stage`,
  // `train`, `checkpoint`): the rules of the phases that will run are checked (a stage command
  // needs stage.to to be a tier even with workflow.stage false). Unset: the workflow's phases.
  std::optional<Phase> forced;
  // The output folder given on the command line (--output), which wins over output.folder: the
  // rules on output.folder (not a system folder, no overlap with the data or checkpoint folder)
  // are checked for it too. The Config keeps what the workload says.
  std::optional<std::string> output_folder;
};

struct LoadResult {
  Config config;
  // One-line notices for the user: legacy aliases used, keys accepted without effect,
  // unknown keys when allowed. Printed once, by rank 0.
  std::vector<std::string> notices;
};

// Resolves `workload` (a name, `workload=NAME`, or a path to a YAML file), applies `overrides`
// left to right, converts every key to its typed field and validates the result.
// Throws dlbench::Error(kUsage) naming the key, the value, file:line and what is allowed.
LoadResult Load(const std::string& workload, const std::vector<std::string>& overrides,
                const LoadOptions& options);

// Like Load, for a workload document given as text; `name` stands for the file in messages and
// becomes Config::source_file.
LoadResult LoadYamlText(const std::string& text, const std::string& name,
                        const std::vector<std::string>& overrides, const LoadOptions& options);

// The fully resolved config as a DLIO-schema YAML document (every key, defaults included).
// Loading the output again yields the same Config (round trip).
std::string ToYaml(const Config& config);

// One resolved value by dotted key (`dataset.num_files_train`, `workload.` prefix optional), as
// YAML text without a final newline ("168"; a section prints as a block of lines).
// Throws Error(kUsage) for an unknown key, with a suggestion.
std::string Query(const Config& config, const std::string& key);

// The overrides as DLIO/Hydra writes overrides.yaml: a YAML list of the strings, verbatim, but
// for credentials (config/secrets.h HideSecretOverride).
std::string OverridesYaml(const std::vector<std::string>& overrides);

}  // namespace dlbench::config
