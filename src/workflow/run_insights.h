// The run's insights (docs/insights.md) at its end: rank 0 reads the facts from the summary it
// holds (reduced results, counters, staging and checkpoint fields; no I/O), adds the settings
// the summary does not hold, writes summary.json's `insights` and, unless `quiet`, prints the
// findings of warning and above.
#pragma once

#include "config/config.h"
#include "mpi/communicator.h"
#include "workflow/run_results.h"

namespace dlbench::workflow {

// Not collective: only rank 0 does anything. Called after the last part of the summary.
void AddRunInsights(const config::Config& config, RunResults& results, bool quiet,
                    const mpi::Communicator& comm);

}  // namespace dlbench::workflow
