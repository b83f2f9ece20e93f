// The generate phase as `dlbench generate` runs it: the dataset written by generation/ (the engine,
// generation/generation.h), then its part of summary.json and its table.
#pragma once

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// The phase as `dlbench generate` runs it: GenerateDataset through the run's Env, then rank 0
// adds the `generation` part to summary.json and, unless `quiet`, prints a table.
void RunGeneratePhase(const config::Config& config, bool quiet, const mpi::Communicator& comm,
                      storage::Env& env, RunResults& results);

}  // namespace dlbench::workflow
