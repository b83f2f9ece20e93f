// Loading the configuration for a subcommand, once per rank, with errors printed once.
#pragma once

#include "app/cli_options.h"
#include "config/config.h"
#include "mpi/communicator.h"

namespace dlbench::app {

// Loads and validates the workload on every rank. Notices (aliases, ignored keys) are printed
// by rank 0 only. A configuration error is printed once and ends every rank with exit code 2.
config::Config LoadWorkload(const WorkloadOptions& options, const mpi::Communicator& comm);

}  // namespace dlbench::app
