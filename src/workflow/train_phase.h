// The train phase: replay the workload's training reads with the reader pool while the emulated
// accelerator computes, then reduce and write what was measured.
#pragma once

#include <filesystem>

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "workflow/phases.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// Collective. Requires a complete dataset (dataset_check.h). Writes <rank>_output.json and
// <rank>_per_epoch_stats.json on every rank, and on rank 0 adds the training metrics to
// summary.json, writes the [METRIC] block to output.log_file and, unless `quiet`, prints the
// results table (and a live progress line while running, when stdout is a terminal).
void RunTrainPhase(const config::Config& config, const RunRequest& request,
                   const mpi::Communicator& comm, storage::Env& env, RunResults& results);

}  // namespace dlbench::workflow
