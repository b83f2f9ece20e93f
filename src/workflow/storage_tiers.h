// storage.tiers as storage/ knows them, and what a run's result files say of its storage: the
// tiers' emulation, injected faults, the POSIX Env's retries. The run's storage itself, one
// storage::TierEnv per rank through which every phase does its I/O (so that a tier's emulation
// applies to data, generation and checkpoints alike), is built by run_storage.h.
#pragma once

#include <memory>
#include <vector>

#include "config/config.h"
#include "metrics/json_fields.h"
#include "mpi/communicator.h"
#include "storage/tier_env.h"

namespace dlbench::workflow {

// storage.tiers as storage/ knows them.
std::vector<storage::TierSpec> TierSpecsFromConfig(const config::StorageConfig& storage);

// {"storage_emulation": [notes...]} for summary.json, or an empty object when nothing is emulated.
metrics::Json EmulationSummary(const storage::TierEnv& tiers);

// Collective. {"fault_injection": {faults, operations, max_operations_of_a_rank, injected}} for
// summary.json when DLBENCH_FAULTS is set (storage/fault_environment.h): the storage operations
// the ranks attempted and the faults injected, summed over ranks (and the most operations of one
// rank: the range of nth=); an empty object otherwise.
metrics::Json FaultInjectionSummary(const mpi::Communicator& comm);

// Collective. {"io_retries": {interrupted, short_transfers}}: what the POSIX Env retried
// (storage::PosixRetries), summed over ranks, when it retried anything or faults are armed; an
// empty object otherwise.
metrics::Json RetrySummary(const mpi::Communicator& comm);

}  // namespace dlbench::workflow
