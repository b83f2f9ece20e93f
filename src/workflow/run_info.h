// summary.json's header (DLIO's host and dataset fields), shared by every phase that writes one.
#pragma once

#include "config/config.h"
#include "metrics/host_info.h"
#include "metrics/json_fields.h"
#include "metrics/run_metrics.h"
#include "mpi/communicator.h"

namespace dlbench::workflow {

// Collective: gathers every host's CPU count and memory. DLIO fills the dataset fields (and
// data_size_per_host_GB, potential_caching) from the dataset section even when nothing is read.
metrics::RunInfo GatherRunInfo(const config::Config& config, const mpi::Communicator& comm,
                               const metrics::HostInfo& host);

// Collective: summary.json's header (metrics::BuildSummaryHeader) of a run that started at `start`
// (RFC 3339) and ends now, for the runs whose phases do not write it with their metrics (training
// and checkpointing do): generation or staging alone.
metrics::Json RunHeader(const config::Config& config, const mpi::Communicator& comm,
                        const std::string& start);

// {"workload": {...}}: what the run did, for `dlbench compare` to refuse comparing runs of
// different workloads — model name, training and checkpointing on or off, dataset shape, batch
// size, epochs, steps, the emulated compute, eval and preprocessing times, and checkpoint
// cadence. Leaves out what a comparison varies on purpose
// (storage, paths, seeds, reader threads) and whether the dataset was generated in the same run
// (`run --repeat` generates it once, apart from the runs).
metrics::Json WorkloadIdentity(const config::Config& config);

// {"page_cache": {"drop_caches": "none|fadvise|drop", "odirect": bool}}: whether the run kept the
// page cache out of its reads (reader.drop_caches, reader.odirect), for the insights of a set of
// runs read back from summary.json (page_cache_served). Not part of the workload's identity:
// comparing a run with and without the cache is a comparison users make on purpose.
metrics::Json PageCacheSettings(const config::Config& config);

}  // namespace dlbench::workflow
