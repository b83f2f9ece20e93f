// Loading the configuration for a subcommand, once per rank, with errors printed once.
#pragma once

#include "app/cli_options.h"
#include "config/config.h"
#include "mpi/communicator.h"

namespace dlbench::app {

// Ranks the job has: the communicator's, or for a command that runs without MPI
// (Communicator::Local()), what the launcher said (mpirun -np N; 1 without a launcher).
int JobSize(const mpi::Communicator& comm);

// Loads and validates the workload (for options.world_size ranks, by default JobSize(comm)) on
// every rank of `comm`. Notices (aliases, ignored keys) are printed
// by rank 0 only. A configuration error is printed once and ends every rank with exit code 2.
config::Config LoadWorkload(const WorkloadOptions& options, const mpi::Communicator& comm);

}  // namespace dlbench::app
