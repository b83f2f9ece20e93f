// `dlbench run ... --repeat N`: N runs of one workload for `dlbench compare`, each in its own
// folder, and their aggregate (docs/ci.md).
#pragma once

#include <filesystem>
#include <vector>

#include "app/cli_options.h"
#include "config/config.h"
#include "mpi/communicator.h"
#include "workflow/phases.h"

namespace dlbench::app {

struct RepeatOptions {
  int count = 1;
  bool fixed_seed = false;  // every run uses train.seed as configured
};

// One run of `phases` into `folder` (prepared: config.yaml, overrides.yaml). Collective.
int RunInFolder(const config::Config& config, const std::vector<workflow::Phase>& phases,
                const std::filesystem::path& folder, const WorkloadOptions& options,
                const mpi::Communicator& comm);

// Runs `phases` `repeat.count` times into OUTPUT/run-<i>/ and writes OUTPUT/aggregate.json (median
// and spread of every number of the runs' summary.json) with a table of the headline metrics.
// Run i uses train.seed + i - 1 unless `fixed_seed`. When the phases include generation and
// something else, the dataset is generated once, into OUTPUT/generate/, before the runs; a
// generation-only workload generates N times, run i into <data_folder>/run-<i>/. With
// dataset.keep_files: false, the dataset generated once is removed after the last run
// (generation/dataset_removal.h). Collective.
// `base` is the workload as `options` load it (for its seed, data folder and output folder).
int RunRepeated(const WorkloadOptions& options, const config::Config& base,
                const std::vector<workflow::Phase>& phases, const RepeatOptions& repeat,
                const mpi::Communicator& comm);

}  // namespace dlbench::app
