// Checkpoint-only mode (workflow.train: false, workflow.checkpoint: true): write
// checkpoint.num_checkpoints_write checkpoints, then read
// checkpoint.num_checkpoints_read of them back, each after the configured pause and a barrier,
// and report them as DLIO does (plus dlbench's cross-rank reductions).
#pragma once

#include "config/config.h"
#include "mpi/communicator.h"
#include "storage/file.h"
#include "workflow/phases.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// Collective. Saves global_epoch1_step1 .. global_epoch1_step{W}, loads global_epoch1_step1 ..
// global_epoch1_step{R} (with checkpoint.recovery_rank_shift, rank r reads the files of rank
// (r + ranks per node) % P), then waits for every save to be durable. Writes
// <rank>_per_epoch_stats.json on every rank and, on rank 0, adds the checkpoint metrics to
// summary.json, writes the [METRIC] block to output.log_file and, unless `quiet`, prints the
// table. A read-only run (W <= 0) first checks that the R checkpoints exist and are complete
// (exit 2 otherwise, naming the first one missing).
void RunCheckpointPhase(const config::Config& config, const RunRequest& request,
                        const mpi::Communicator& comm, storage::Env& env, RunResults& results);

}  // namespace dlbench::workflow
