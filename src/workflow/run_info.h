// summary.json's header (DLIO's host and dataset fields), shared by every phase that writes one.
#pragma once

#include "config/config.h"
#include "metrics/host_info.h"
#include "metrics/run_metrics.h"
#include "mpi/communicator.h"

namespace dlbench::workflow {

// Collective: gathers every host's CPU count and memory. DLIO fills the dataset fields (and
// data_size_per_host_GB, potential_caching) from the dataset section even when nothing is read.
metrics::RunInfo GatherRunInfo(const config::Config& config, const mpi::Communicator& comm,
                               const metrics::HostInfo& host);

}  // namespace dlbench::workflow
